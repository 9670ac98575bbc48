/**
 * What a session's target contract is, read from the chain before the grant card is drawn: an
 * ERC-721 or ERC-1155 collection (ERC-165 `supportsInterface`), an ERC-20 token (`decimals` and
 * `totalSupply` answer), or something else; with its name and symbol for the card. The kind
 * decides how the account meters the session (`grantSession`'s `kind`), so it is the chain's
 * word, never the dapp's.
 */
import { InvalidParamsError } from '@porthole/protocol'
import type { SessionKindName } from '@porthole/shared/sessionPermissions'
import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  parseAbi,
} from 'viem'
import * as Api from './api.js'
import { visibleText } from './describe.js'

/** ERC-165 interface ids of the collections a session can meter. */
const INTERFACE = { erc721: '0x80ac58cd', erc1155: '0xd9b67a26' } as const

const erc165Abi = parseAbi(['function supportsInterface(bytes4 interfaceId) view returns (bool)'])

/** A session's target as the card names it and the account meters it. */
export type SessionTarget = {
  kind: SessionKindName
  /** Its `name()` (or `symbol()`), hidden characters shown, at most 64 characters; null if none. */
  name: string | null
  /** An ERC-20's symbol and decimals (amounts on the card are in these units); null otherwise. */
  unit: { symbol: string; decimals: number } | null
}

/** `eth_call` of `data` on `to`, or null when it reverts or the chain answers nothing. */
async function call(chainId: number, to: Address, data: Hex): Promise<Hex | null> {
  try {
    const result = await Api.rpc<Hex>(`eip155:${chainId}`, 'eth_call', [{ to, data }, 'latest'])
    return result && result !== '0x' ? result : null
  } catch (error) {
    // A revert is an answer ("no"); a network failure is not: it stops the grant.
    if ((error as { code?: unknown }).code === 3 || /revert/i.test(String(error))) return null
    throw error
  }
}

/** Whether `to` answers `supportsInterface(id)` with exactly true. */
async function supports(chainId: number, to: Address, id: Hex): Promise<boolean> {
  const data = await call(
    chainId,
    to,
    encodeFunctionData({ abi: erc165Abi, functionName: 'supportsInterface', args: [id] }),
  )
  return data?.length === 66 && BigInt(data) === 1n
}

/** The views read: ERC-20's, which ERC-721 shares `name` and `symbol` of. */
type View = 'name' | 'symbol' | 'decimals' | 'totalSupply'

/** A view's answer, or null when it has none that decodes. */
async function read(chainId: number, to: Address, functionName: View): Promise<unknown> {
  const data = await call(
    chainId,
    to,
    encodeFunctionData({ abi: erc20Abi, functionName } as Parameters<typeof encodeFunctionData>[0]),
  )
  if (!data) return null
  try {
    return decodeFunctionResult({ abi: erc20Abi, functionName, data } as Parameters<
      typeof decodeFunctionResult
    >[0])
  } catch {
    return null
  }
}

const label = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? visibleText(value.trim().slice(0, 64)).text : null

/**
 * Reads what `target` is on `chainId`. Throws (-32602) when it holds no code or claims to be
 * both kinds of collection.
 *
 * @example
 * await readSessionTarget(31337, PALS) // { kind: 'erc721', name: 'Porthole Pals', unit: null }
 */
export async function readSessionTarget(chainId: number, target: Address): Promise<SessionTarget> {
  const code = await Api.rpc<Hex | null>(`eip155:${chainId}`, 'eth_getCode', [target, 'latest'])
  if (!code || code === '0x')
    throw new InvalidParamsError(`${target} holds no contract on chain ${chainId}`)
  const [erc721, erc1155, name, symbol] = await Promise.all([
    supports(chainId, target, INTERFACE.erc721),
    supports(chainId, target, INTERFACE.erc1155),
    read(chainId, target, 'name'),
    read(chainId, target, 'symbol'),
  ])
  if (erc721 && erc1155)
    throw new InvalidParamsError(
      `${target} claims to be both an ERC-721 and an ERC-1155 collection: the account could not tell how to meter it`,
    )
  const shownName = label(name) ?? label(symbol)
  if (erc721) return { kind: 'erc721', name: shownName, unit: null }
  if (erc1155) return { kind: 'erc1155', name: shownName, unit: null }
  const [decimals, supply] = await Promise.all([
    read(chainId, target, 'decimals'),
    read(chainId, target, 'totalSupply'),
  ])
  if (typeof decimals === 'number' && decimals <= 36 && typeof supply === 'bigint')
    return {
      kind: 'erc20',
      name: shownName,
      unit: { symbol: label(symbol) ?? '?', decimals },
    }
  return { kind: 'other', name: null, unit: null }
}
