import { createPublicClient, http, type PublicClient } from 'viem'

/** How the clients of {@link createUpstreamClients} talk to their RPC upstream. */
export type UpstreamClientOptions = {
  /** Per request (ms). */
  timeoutMs: number
  /** Retries after a failed request (viem's own backoff). Default 0. */
  retryCount?: number
  /** Send the requests of one tick as one JSON-RPC batch. Default false. */
  batch?: boolean
}

/**
 * One viem public client per CAIP-2 chain of the API's RPC upstreams (CAIP-2 id → URL), made on
 * first use and kept; chains that share a URL share a client. `undefined` for a chain with no
 * upstream.
 *
 * @example
 * const clientOf = createUpstreamClients({ 'eip155:31337': 'http://127.0.0.1:8545' }, { timeoutMs: 5000 })
 * await clientOf('eip155:31337')?.getBlockNumber()
 */
export function createUpstreamClients(
  upstreams: Readonly<Record<string, string>>,
  { timeoutMs, retryCount = 0, batch = false }: UpstreamClientOptions,
): (chain: string) => PublicClient | undefined {
  const clients = new Map<string, PublicClient>()
  return (chain) => {
    const url = upstreams[chain]
    if (!url) return undefined
    let client = clients.get(url)
    if (!client) {
      client = createPublicClient({
        transport: http(url, { timeout: timeoutMs, retryCount, batch: batch && { wait: 0 } }),
      })
      clients.set(url, client)
    }
    return client
  }
}
