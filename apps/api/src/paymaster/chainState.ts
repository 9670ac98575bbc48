/**
 * What the paymaster reads from the chain, through the API's RPC upstreams: the fees now, and of a
 * sender whether it is the embedded wallet's smart account (`PortholeSimpleAccount` from the
 * chain's `PortholeSimpleAccountFactory`, salt 0) and of which owner, its EntryPoint nonce, and
 * its session keys.
 */
import {
  portholeSessionsAbi,
  simpleAccountAbi,
  simpleAccountFactoryAbi,
} from '@porthole/shared/simpleAccount'
import {
  type Address,
  BaseError,
  decodeFunctionData,
  getAddress,
  type Hex,
  isAddressEqual,
  type PublicClient,
} from 'viem'
import { entryPoint07Abi, entryPoint07Address } from 'viem/account-abstraction'
import { RpcMethodError } from '../rpc/RpcMethodError.js'
import { createUpstreamClients } from '../rpc/upstreamClients.js'
import type { ChainFees } from './policy.js'

/** A session key as the account holds it. */
export type AccountSession = { active: boolean; validAfter: number; validUntil: number }

/** What {@link PaymasterChain.account} is asked. */
export type AccountQuery = {
  sender: Address
  /** The operation's factory and its data, when it deploys the account. */
  factory?: Address | undefined
  factoryData?: Hex | undefined
  /** The nonce key (`nonce >> 64`) whose next nonce is read. */
  nonceKey: bigint
  /** Session keys whose sessions are read. */
  sessionKeys: readonly Address[]
}

/** What the chain says of a sender. */
export type AccountState = {
  /**
   * The owner, when the sender is the embedded wallet's account of that owner (the factory's
   * salt-0 address for it); null for any other sender.
   */
  owner: Address | null
  /** Whether the account has code. */
  deployed: boolean
  /** The EntryPoint's next nonce of the sender for the query's key (key and sequence). */
  nonce: bigint
  /** The query's session keys, lower case. */
  sessions: Record<string, AccountSession>
}

/** The paymaster's reads of one API process. */
export type PaymasterChain = {
  /** The chain's fees, read at most once per `feeCacheMs` per chain. */
  fees(chain: string): Promise<ChainFees>
  account(chain: string, query: AccountQuery): Promise<AccountState>
  /** The EntryPoint's next nonces of (sender, key) pairs, in order. */
  nonces(chain: string, slots: readonly { sender: Address; key: bigint }[]): Promise<bigint[]>
}

/** Options of {@link createPaymasterChain}. */
export type CreatePaymasterChainParameters = {
  /** RPC upstream per CAIP-2 id. */
  upstreams: Readonly<Record<string, string>>
  /** The embedded wallet's account factory per CAIP-2 id. */
  factories: Readonly<Record<string, Address>>
  /** How long fees are kept (about a block); default 2000 ms. */
  feeCacheMs?: number
  /** Per upstream request; default 5000 ms. */
  timeoutMs?: number
  /** Now, in milliseconds; default `Date.now`. */
  now?: () => number
}

/** Thrown (as the JSON-RPC error -32603) when the chain does not answer. */
const unavailable = (cause: unknown) =>
  Object.assign(new RpcMethodError(-32603, 'The network did not answer the paymaster: try again'), {
    cause,
  })

/** Blocks whose base fee the fee reference covers (the last ones and the next). */
const FEE_HISTORY_BLOCKS = 4

const SESSION_FIELDS = (
  portholeSessionsAbi.find((item) => item.type === 'function' && item.name === 'sessions') as {
    outputs: readonly { name: string }[]
  }
).outputs.map((output) => output.name)

/**
 * The paymaster's chain reads (see the module comment): one viem client per upstream, the reads
 * of one question sent at once (a JSON-RPC batch), without retries; the fees of each chain kept
 * for `feeCacheMs`, the factory's address of each owner kept for good (it never changes).
 * Contract answers that say "no such account" (no code, a revert) are answers; a network
 * failure is a -32603 refusal.
 *
 * @example
 * const chain = createPaymasterChain({ upstreams, factories })
 * const { owner, nonce } = await chain.account('eip155:31337', { sender, nonceKey: 0n, sessionKeys: [] })
 */
export function createPaymasterChain({
  upstreams,
  factories,
  feeCacheMs = 2000,
  timeoutMs = 5000,
  now = Date.now,
}: CreatePaymasterChainParameters): PaymasterChain {
  const upstreamClient = createUpstreamClients(upstreams, { timeoutMs, batch: true })
  const clientOf = (chain: string): PublicClient => {
    const client = upstreamClient(chain)
    if (!client)
      throw new RpcMethodError(-32001, 'Gas sponsorship is not available on this network')
    return client
  }
  const fees = new Map<string, { at: number; fees: Promise<ChainFees> }>()
  const addresses = new Map<string, Promise<Address>>()

  const accountAddress = (chain: string, factory: Address, owner: Address) => {
    const id = `${chain}:${factory}:${owner}`.toLowerCase()
    let address = addresses.get(id)
    if (!address) {
      address = clientOf(chain).readContract({
        address: factory,
        abi: simpleAccountFactoryAbi,
        functionName: 'getAddress',
        args: [owner, 0n],
      })
      addresses.set(id, address)
      address.catch(() => addresses.delete(id))
    }
    return address
  }

  return {
    fees(chain) {
      const cached = fees.get(chain)
      if (cached && now() - cached.at < feeCacheMs) return cached.fees
      const client = clientOf(chain)
      const read = Promise.all([
        client.getFeeHistory({ blockCount: FEE_HISTORY_BLOCKS, rewardPercentiles: [] }),
        client.estimateMaxPriorityFeePerGas({ chain: null }),
      ]).then(
        ([history, suggestedTip]) => ({
          baseFee: history.baseFeePerGas.reduce((max, fee) => (fee > max ? fee : max), 0n),
          suggestedTip,
        }),
        (error: unknown) => {
          fees.delete(chain)
          throw unavailable(error)
        },
      )
      fees.set(chain, { at: now(), fees: read })
      return read
    },

    async account(chain, query) {
      const client = clientOf(chain)
      const factory = factories[chain]
      if (!factory)
        throw new RpcMethodError(-32001, 'Gas sponsorship is not available on this network')
      const contractAnswer = <T>(read: Promise<T>, otherwise: T): Promise<T> =>
        read.catch((error: unknown) => {
          if (saysNoSuchCall(error)) return otherwise
          throw unavailable(error)
        })
      const [code, claimedOwner, nonce, sessions] = await Promise.all([
        client.getCode({ address: query.sender }).catch((error: unknown) => {
          throw unavailable(error)
        }),
        query.factory
          ? Promise.resolve(ownerFromFactoryData(factory, query.factory, query.factoryData))
          : contractAnswer<Address | null>(
              client.readContract({
                address: query.sender,
                abi: simpleAccountAbi,
                functionName: 'owner',
              }),
              null,
            ),
        client
          .readContract({
            address: entryPoint07Address,
            abi: entryPoint07Abi,
            functionName: 'getNonce',
            args: [query.sender, query.nonceKey],
          })
          .catch((error: unknown) => {
            throw unavailable(error)
          }),
        Promise.all(
          query.sessionKeys.map((key) =>
            contractAnswer<readonly unknown[] | null>(
              client.readContract({
                address: query.sender,
                abi: portholeSessionsAbi,
                functionName: 'sessions',
                args: [key],
              }),
              null,
            ),
          ),
        ),
      ])
      let owner: Address | null = null
      if (claimedOwner) {
        const expected = await accountAddress(chain, factory, claimedOwner).catch(
          (error: unknown) => {
            throw unavailable(error)
          },
        )
        if (isAddressEqual(expected, query.sender)) owner = claimedOwner
      }
      return {
        owner,
        deployed: !!code && code !== '0x',
        nonce,
        sessions: Object.fromEntries(
          query.sessionKeys.map((key, i) => [key.toLowerCase(), sessionOf(sessions[i] ?? null)]),
        ),
      }
    },

    async nonces(chain, slots) {
      const client = clientOf(chain)
      return Promise.all(
        slots.map(({ sender, key }) =>
          client
            .readContract({
              address: entryPoint07Address,
              abi: entryPoint07Abi,
              functionName: 'getNonce',
              args: [sender, key],
            })
            .catch((error: unknown) => {
              throw unavailable(error)
            }),
        ),
      )
    },
  }
}

/**
 * The owner a deployment names: the factory must be the chain's and its call
 * `createAccount(owner, 0)`; anything else names none.
 */
function ownerFromFactoryData(
  expected: Address,
  factory: Address,
  data: Hex | undefined,
): Address | null {
  if (!isAddressEqual(factory, expected) || !data) return null
  try {
    const call = decodeFunctionData({ abi: simpleAccountFactoryAbi, data })
    if (call.functionName !== 'createAccount') return null
    const [owner, salt] = call.args
    return salt === 0n ? getAddress(owner) : null
  } catch {
    return null
  }
}

/** A `sessions(key)` answer by its field names (null: no such getter: no session). */
function sessionOf(answer: readonly unknown[] | null): AccountSession {
  if (!answer) return { active: false, validAfter: 0, validUntil: 0 }
  const field = (name: string) => answer[SESSION_FIELDS.indexOf(name)]
  return {
    active: field('active') === true,
    validAfter: Number(field('validAfter') ?? 0),
    validUntil: Number(field('validUntil') ?? 0),
  }
}

/** True when the chain answered that the call has no result (no code, or a revert). */
function saysNoSuchCall(error: unknown): boolean {
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
