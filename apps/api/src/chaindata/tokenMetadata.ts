/**
 * Reads token metadata (name, symbol, decimals) from the chain in one JSON-RPC batch of
 * `eth_call`s; the indexer stores it once per contract.
 */
import { decodeFunctionResult, erc20Abi, type Hex, hexToString, isHex } from 'viem'
import type { TokenRow } from './indexStore.js'
import type { Rpc, RpcResult } from './rpc.js'

const SELECTORS = { name: '0x06fdde03', symbol: '0x95d89b41', decimals: '0x313ce567' } as const

/**
 * Metadata of each contract, read at `blockTag` (default latest): strings that are `bytes32`
 * (old tokens such as MKR) are decoded too; a missing name or symbol is '', missing decimals 0
 * (ERC-721 has none). Never throws for one token: a contract that answers nothing still gets a
 * row, so it is not asked again.
 *
 * @example
 * const [pusd] = await readTokenMetadata(rpc, 'eip155:31337', [{ address: '0x5fbd…', kind: 'erc20' }])
 * pusd.decimals // 6
 */
export async function readTokenMetadata(
  rpc: Rpc,
  chainId: string,
  tokens: readonly { address: string; kind: 'erc20' | 'erc721' }[],
  blockTag: string = 'latest',
): Promise<TokenRow[]> {
  if (!tokens.length) return []
  const calls = tokens.flatMap((token) =>
    (['name', 'symbol', 'decimals'] as const).map((field) => ({
      method: 'eth_call',
      params: [{ to: token.address, data: SELECTORS[field] }, blockTag],
    })),
  )
  const results = await rpc.batch(calls)
  return tokens.map((token, i) => {
    const [name, symbol, decimals] = results.slice(i * 3, i * 3 + 3)
    return {
      chainId,
      address: token.address.toLowerCase(),
      kind: token.kind,
      name: decodeText(name).slice(0, 100),
      symbol: decodeText(symbol).slice(0, 32),
      decimals: token.kind === 'erc20' ? decodeDecimals(decimals) : 0,
    }
  })
}

/**
 * A string return value: ABI `string`, else a `bytes32` padded with zeros, else ''.
 *
 * @example
 * decodeText({ ok: true, result: '0x4d4b520000…' }) // 'MKR'
 */
export function decodeText(result: RpcResult | undefined): string {
  if (!result?.ok || typeof result.result !== 'string' || !isHex(result.result)) return ''
  const data = result.result as Hex
  try {
    return clean(decodeFunctionResult({ abi: erc20Abi, functionName: 'name', data }))
  } catch {}
  if (data.length === 66)
    try {
      return clean(hexToString(data))
    } catch {}
  return ''
}

function decodeDecimals(result: RpcResult | undefined): number {
  if (!result?.ok || typeof result.result !== 'string' || !isHex(result.result)) return 0
  try {
    const value = decodeFunctionResult({
      abi: erc20Abi,
      functionName: 'decimals',
      data: result.result as Hex,
    })
    return value <= 255 ? Number(value) : 0
  } catch {
    return 0
  }
}

/** Drops NULs and control characters, trims. */
function clean(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  return text.replace(/[\u0000-\u001f\u007f]/g, '').trim()
}
