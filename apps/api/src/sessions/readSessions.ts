/**
 * Reads smart-session keys from the chain: `sessions(key)` of a `PortholeSimpleAccount` (the
 * embedded wallet's ERC-4337 account), through the API's RPC upstreams.
 */
import type { SessionKindName } from '@porthole/shared/sessionPermissions'
import { portholeSessionsAbi, SESSION_KIND } from '@porthole/shared/simpleAccount'
import { type Address, BaseError, erc20Abi, getAddress, type Hex, type PublicClient } from 'viem'
import { createUpstreamClients } from '../rpc/upstreamClients.js'

/** One session key as the account holds it (zeros and `active: false` for a key never granted). */
export type OnChainSession = {
  active: boolean
  /** Checksummed. */
  target: Address
  /** Checksummed. */
  recipient: Address
  /** Base units. */
  spendLimit: bigint
  spent: bigint
  /** Unix seconds. */
  validAfter: number
  /** Unix seconds. */
  validUntil: number
  /** What the target is, as the owner's wallet read it at grant: how the limit counts. */
  kind: SessionKindName
  /** The only paymaster of the key's operations. */
  paymaster: Address
  /**
   * The target's symbol and decimals (for showing amounts; decimals 0 for an NFT collection,
   * whose limit counts NFTs or items), null when it has none or is no token.
   */
  token: { symbol: string; decimals: number } | null
}

/** The kind names by the contract's numbers. */
const KIND_NAMES = Object.fromEntries(
  Object.entries(SESSION_KIND).map(([name, value]) => [value, name]),
) as Record<number, SessionKindName>

/** What a key without a session reads as. */
const NO_SESSION: OnChainSession = {
  active: false,
  target: '0x0000000000000000000000000000000000000000',
  recipient: '0x0000000000000000000000000000000000000000',
  spendLimit: 0n,
  spent: 0n,
  validAfter: 0,
  validUntil: 0,
  kind: 'other',
  paymaster: '0x0000000000000000000000000000000000000000',
  token: null,
}

/** Options of {@link SessionReader.read}. */
export type ReadSessionsParameters = {
  /** The account's EIP-155 chain id. */
  chainId: number
  account: Address
  /** Session keys (pcis). */
  keys: readonly Hex[]
}

/**
 * Reads session keys of an account. Each key is its `OnChainSession`, or `null` when the chain
 * did not answer for it (no upstream, network error, timeout). An address without the getter
 * (no code, or a contract without session keys) holds no session: `active: false`, zeros.
 */
export type SessionReader = {
  /** Whether the API has an RPC upstream for `eip155:<chainId>`. */
  supports(chainId: number): boolean
  read(parameters: ReadSessionsParameters): Promise<(OnChainSession | null)[]>
}

/** Options of {@link createSessionReader}. */
export type CreateSessionReaderOptions = {
  /** Per request, in milliseconds; default 3000 (listings wait for it). */
  timeoutMs?: number
}

/**
 * A {@link SessionReader} over RPC upstreams by CAIP-2 id: one viem client per chain, kept; the
 * keys of one read go out at once (a JSON-RPC batch of `eth_call`s), without retries.
 *
 * @example
 * const reader = createSessionReader({ 'eip155:31337': 'http://127.0.0.1:8545' })
 * const [session] = await reader.read({ chainId: 31337, account, keys: [pci] })
 * session?.active // true
 */
export function createSessionReader(
  upstreams: Readonly<Record<string, string>>,
  { timeoutMs = 3000 }: CreateSessionReaderOptions = {},
): SessionReader {
  const upstreamClient = createUpstreamClients(upstreams, { timeoutMs, batch: true })
  const clientFor = (chainId: number): PublicClient | undefined =>
    upstreamClient(`eip155:${chainId}`)
  // A token's symbol and decimals never change: read once per chain, contract and kind.
  const tokens = new Map<string, Promise<OnChainSession['token']>>()
  const tokenOf = (
    client: PublicClient,
    chainId: number,
    target: Address,
    kind: SessionKindName,
  ): Promise<OnChainSession['token']> => {
    if (kind === 'other') return Promise.resolve(null)
    const id = `${chainId}:${target.toLowerCase()}:${kind}`
    let token = tokens.get(id)
    if (!token) {
      token = Promise.all([
        client.readContract({ address: target, abi: erc20Abi, functionName: 'symbol' }),
        // An NFT collection's limit counts NFTs (or ERC-1155 items): no decimals.
        kind === 'erc20'
          ? client.readContract({ address: target, abi: erc20Abi, functionName: 'decimals' })
          : 0,
      ]).then(
        ([symbol, decimals]) => ({
          symbol: String(symbol).slice(0, 32),
          decimals: Number(decimals),
        }),
        (error: unknown) => {
          // Only a definite "not a token" is kept; a network failure is asked again next time.
          if (!noSession(error)) tokens.delete(id)
          return null
        },
      )
      tokens.set(id, token)
    }
    return token
  }
  return {
    supports: (chainId) => clientFor(chainId) !== undefined,
    async read({ chainId, account, keys }) {
      const client = clientFor(chainId)
      if (!client) return keys.map(() => null)
      return Promise.all(
        keys.map(async (key) => {
          try {
            const [
              target,
              recipient,
              spendLimit,
              spent,
              validAfter,
              validUntil,
              active,
              kindNumber,
              paymaster,
            ] = await client.readContract({
              address: account,
              abi: portholeSessionsAbi,
              functionName: 'sessions',
              args: [getAddress(key)],
            })
            const kind = KIND_NAMES[kindNumber] ?? 'other'
            const token = active ? await tokenOf(client, chainId, target, kind) : null
            return {
              active,
              target,
              recipient,
              spendLimit,
              spent,
              validAfter,
              validUntil,
              kind,
              paymaster,
              token,
            }
          } catch (error) {
            return noSession(error) ? NO_SESSION : null
          }
        }),
      )
    },
  }
}

/** True when the chain answered that the account has no such getter (no code, or a revert). */
function noSession(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false
  return Boolean(
    error.walk(
      (cause) =>
        cause instanceof BaseError &&
        (cause.name === 'ContractFunctionZeroDataError' ||
          cause.name === 'ContractFunctionRevertedError'),
    ),
  )
}
