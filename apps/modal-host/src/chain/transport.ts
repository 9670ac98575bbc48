/**
 * Per-network chain RPC transports (spec §7 "Chain RPC"): the API's RPC proxy first, then the
 * network's own RPC URLs, combined by viem's `fallback` transport with ranking — latency weight
 * 0.3, stability weight 0.7, over the last 10 samples, pinging every 4 s. A user rejection
 * (4001) or an unsupported method (4200) is rethrown at once instead of trying the next
 * transport (viem's own list — 5000, -32003, reverted executions — is kept).
 *
 * viem's `fallback({ rank })` is exactly the spec's ranking algorithm, so it is used as is; only
 * the ping (`eth_chainId`: the API proxy refuses `net_listening`, viem's default ping) and the
 * rethrow list are ours. Ranking runs for the life of the page once a network's client exists
 * (viem offers no way to stop it), so clients are made lazily and cached per network.
 */
import { BaseError, walk } from '@porthole/protocol'
import type { Network } from '@porthole/shared'
import {
  type Chain,
  type Client,
  createClient,
  type FallbackTransport,
  type FallbackTransportConfig,
  fallback,
  http,
  shouldThrow as viemShouldThrow,
} from 'viem'
import { SDK_TYPE, SDK_VERSION } from '../runtime.js'

/** Spec §7 fallback ranking: weights, sample count and ping interval. */
export const RANK_OPTIONS = {
  interval: 4_000,
  sampleCount: 10,
  weights: { latency: 0.3, stability: 0.7 },
} as const

/** Spec §9 "RPC timeout 10 s". */
export const RPC_TIMEOUT_MS = 10_000

/** Spec §9 "Batch size 1000" (the API proxy's batch limit). */
export const RPC_BATCH_SIZE = 1000

/** Parameters of {@link proxyRpcUrl}. */
export type ProxyRpcUrlParameters = { apiUrl: string; caipNetworkId: string; projectId: string }

/**
 * The API's RPC proxy URL for a network: `/v1?chainId=<CAIP-2>&projectId&st&sv`.
 *
 * @example
 * proxyRpcUrl({ apiUrl: 'http://127.0.0.1:4300', caipNetworkId: 'eip155:31337', projectId: 'p' })
 * // 'http://127.0.0.1:4300/v1?chainId=eip155%3A31337&projectId=p&st=porthole&sv=0.1.0'
 */
export function proxyRpcUrl(parameters: ProxyRpcUrlParameters): string {
  const url = new URL('/v1', parameters.apiUrl)
  url.searchParams.set('chainId', parameters.caipNetworkId)
  url.searchParams.set('projectId', parameters.projectId)
  url.searchParams.set('st', SDK_TYPE)
  url.searchParams.set('sv', SDK_VERSION)
  return url.href
}

const RETHROWN_CODES: readonly number[] = [4001, 4200]

/**
 * Whether the fallback must rethrow an error instead of trying the next transport: a user
 * rejection (4001) or an unsupported method (4200) anywhere in the cause chain, or what viem
 * rethrows by default.
 *
 * @example
 * shouldThrow(new UserRejectedRequestError(new Error())) // true
 */
export function shouldThrow(error: Error): boolean {
  if (viemShouldThrow(error)) return true
  return Boolean(
    walk(error, (e) => RETHROWN_CODES.includes((e as { code?: unknown } | null)?.code as number)),
  )
}

/** viem's ranking options, as the spec fixes them and tests shorten them. */
export type RankOptions = {
  interval?: number
  sampleCount?: number
  timeout?: number
  weights?: { latency?: number; stability?: number }
}

/** Parameters of {@link createNetworkTransport}. */
export type CreateNetworkTransportParameters = {
  network: Pick<Network, 'caipNetworkId' | 'rpcUrls'>
  apiUrl: string
  projectId: string
  /** Overrides of {@link RANK_OPTIONS} (tests), or `false` for a fixed order. */
  rank?: RankOptions | false | undefined
  /** Per-request timeout; {@link RPC_TIMEOUT_MS} by default. */
  timeout?: number | undefined
  /**
   * The origins the page may reach (its CSP `connect-src`): the network's own RPC URLs on
   * other origins are left out. Every URL when undefined.
   */
  rpcOrigins?: readonly string[] | undefined
}

/**
 * The network's transport: the API proxy (batched), then each of `rpcUrls.default.http`, in a
 * ranked fallback.
 *
 * @example
 * const transport = createNetworkTransport({ network, apiUrl: runtime.apiUrl, projectId })
 */
export function createNetworkTransport(
  parameters: CreateNetworkTransportParameters,
): FallbackTransport {
  const { network, apiUrl, projectId, timeout = RPC_TIMEOUT_MS } = parameters
  const proxy = proxyRpcUrl({ apiUrl, caipNetworkId: network.caipNetworkId, projectId })
  const reachable = (url: string) => {
    try {
      return !parameters.rpcOrigins || parameters.rpcOrigins.includes(new URL(url).origin)
    } catch {
      return false
    }
  }
  const own = network.rpcUrls.default.http.filter((url) => url !== proxy && reachable(url))
  const transports = [
    http(proxy, { timeout, batch: { batchSize: RPC_BATCH_SIZE }, key: 'proxy', name: 'API proxy' }),
    ...[...new Set(own)].map((url) => http(url, { timeout })),
  ]
  const rank: FallbackTransportConfig['rank'] =
    parameters.rank === false || transports.length < 2
      ? false
      : {
          ...RANK_OPTIONS,
          ...parameters.rank,
          weights: { ...RANK_OPTIONS.weights, ...parameters.rank?.weights },
          ping: ({ transport }) => transport.request({ method: 'eth_chainId' }),
        }
  return fallback(transports, { rank, shouldThrow })
}

/** A viem chain for an EVM network (id from the CAIP-2 reference). */
function toViemChain(network: Network): Chain {
  if (network.chainNamespace !== 'eip155')
    throw new BaseError('Unsupported chain namespace', { details: network.caipNetworkId })
  return {
    id: Number(network.caipNetworkId.split(':')[1]),
    name: network.name,
    nativeCurrency: network.nativeCurrency,
    rpcUrls: { default: { http: network.rpcUrls.default.http } },
    ...(network.blockExplorers ? { blockExplorers: network.blockExplorers } : {}),
    testnet: network.testnet,
  }
}

/** Parameters of {@link getChainClient}. */
export type GetChainClientParameters = {
  network: Network
  apiUrl: string
  projectId: string
  rank?: RankOptions | false | undefined
  timeout?: number | undefined
  rpcOrigins?: readonly string[] | undefined
}

const clients = new Map<string, Client>()

/**
 * The viem client of an EVM network, made once per network, API and project and then reused
 * (bare `createClient`: call tree-shaken actions from `viem/actions` on it). Other namespaces
 * throw 'Unsupported chain namespace'.
 *
 * @example
 * import { getBalance } from 'viem/actions'
 * const balance = await getBalance(getChainClient({ network, apiUrl, projectId }), { address })
 */
export function getChainClient(parameters: GetChainClientParameters): Client {
  const { network, apiUrl, projectId } = parameters
  const key = JSON.stringify([
    network.caipNetworkId,
    apiUrl,
    projectId,
    network.rpcUrls.default.http,
    parameters.rpcOrigins,
  ])
  let client = clients.get(key)
  if (!client) {
    client = createClient({
      chain: toViemChain(network),
      transport: createNetworkTransport(parameters),
      pollingInterval: RANK_OPTIONS.interval,
    })
    clients.set(key, client)
  }
  return client
}

/**
 * Forgets the cached clients (a new handshake, tests). Their ranking keeps running until the
 * page goes away.
 *
 * @example
 * clearChainClients()
 */
export function clearChainClients(): void {
  clients.clear()
}
