/**
 * Chain reads through the API's RPC proxy (`/v1?chainId=…&projectId=…`), the default
 * transport of every network.
 */
import { BaseError, fromErrorObject } from '@porthole/protocol'
import { runtime, SDK_TYPE, SDK_VERSION } from '../runtime.js'

let nextId = 1

/**
 * Sends one JSON-RPC request to the proxy for a CAIP-2 network; JSON-RPC errors are rethrown
 * typed, timeouts after 10 s (spec §9 RPC timeout).
 *
 * @example
 * const balance = await rpcRequest('eip155:31337', 'eth_getBalance', [address, 'latest'])
 */
export async function rpcRequest<T>(
  caipNetworkId: string,
  method: string,
  params: unknown[] = [],
  projectId = '',
): Promise<T> {
  const url = new URL('/v1', runtime.apiUrl)
  url.searchParams.set('chainId', caipNetworkId)
  url.searchParams.set('projectId', projectId)
  url.searchParams.set('st', SDK_TYPE)
  url.searchParams.set('sv', SDK_VERSION)
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    signal: AbortSignal.timeout(10_000),
  })
  const body = (await response.json().catch(() => null)) as {
    result?: T
    error?: { code: number; message: string }
  } | null
  if (body?.error) throw fromErrorObject(body.error)
  if (!response.ok || !body || !('result' in body))
    throw new BaseError(`HTTP status code: ${response.status}`)
  return body.result as T
}
