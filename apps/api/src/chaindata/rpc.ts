/**
 * A small JSON-RPC client over viem's HTTP RPC client that sends batches (spec §9: batch size
 * 1000) and reports each call's own error, so one failed call does not sink the batch.
 */
import { getHttpRpcClient } from 'viem/utils'

/** One call of a batch. */
export type RpcCall = { method: string; params: readonly unknown[] }

/** The answer to one call: its result, or its JSON-RPC error. */
export type RpcResult =
  | { ok: true; result: unknown }
  | { ok: false; error: { code: number; message: string } }

/** A JSON-RPC endpoint. */
export type Rpc = {
  /** The endpoint's URL. */
  readonly url: string
  /**
   * Sends `calls` in JSON-RPC batches of at most `batchSize`, a few batches at a time, and
   * answers in the same order. Throws `RpcError` when a whole batch fails (network, HTTP status).
   *
   * @example
   * const [balance] = await rpc.batch([{ method: 'eth_getBalance', params: [address, 'latest'] }])
   */
  batch(calls: readonly RpcCall[]): Promise<RpcResult[]>
  /**
   * Sends one call; throws `RpcError` with the node's message when it answers an error.
   *
   * @example
   * const head = BigInt((await rpc.request('eth_blockNumber', [])) as string)
   */
  request(method: string, params: readonly unknown[]): Promise<unknown>
}

/** Options of {@link createRpc}. */
export type CreateRpcParameters = {
  url: string
  /** Per HTTP request; default 10 000 ms (spec §9 RPC timeout). */
  timeoutMs?: number
  /** Calls per JSON-RPC batch; default 1000 (spec §9). */
  batchSize?: number
  /** Batches in flight at once; default 4. */
  concurrency?: number
}

/**
 * A failed RPC call or batch.
 *
 * @example
 * throw new RpcError('eth_call: execution reverted', { code: 3 })
 */
export class RpcError extends Error {
  override name = 'RpcError' as const
  readonly code: number | undefined
  constructor(message: string, options: { code?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = options.code
  }
}

/**
 * A JSON-RPC client for `url`.
 *
 * @example
 * const rpc = createRpc({ url: 'http://127.0.0.1:8545' })
 * await rpc.request('eth_chainId', []) // '0x7a69'
 */
export function createRpc({
  url,
  timeoutMs = 10_000,
  batchSize = 1000,
  concurrency = 4,
}: CreateRpcParameters): Rpc {
  const client = getHttpRpcClient(url, { timeout: timeoutMs, maxResponseBodySize: false })
  let nextId = 1

  const sendChunk = async (calls: readonly RpcCall[]): Promise<RpcResult[]> => {
    const first = nextId
    nextId += calls.length
    const body = calls.map((call, i) => ({
      jsonrpc: '2.0' as const,
      id: first + i,
      method: call.method,
      params: [...call.params],
    }))
    let responses: { id?: unknown; result?: unknown; error?: { code: number; message: string } }[]
    try {
      responses = (await client.request({ body })) as typeof responses
    } catch (error) {
      throw new RpcError(`RPC ${redact(url)} failed: ${shortMessage(error)}`, { cause: error })
    }
    if (!Array.isArray(responses))
      throw new RpcError(`RPC ${redact(url)} did not answer the batch with an array`)
    const byId = new Map<number, RpcResult>()
    for (const response of responses) {
      if (typeof response?.id !== 'number') continue
      byId.set(
        response.id,
        response.error
          ? { ok: false, error: { code: response.error.code, message: response.error.message } }
          : { ok: true, result: response.result },
      )
    }
    return calls.map(
      (_, i) =>
        byId.get(first + i) ?? {
          ok: false,
          error: { code: -32603, message: 'missing from the batch response' },
        },
    )
  }

  return {
    url,
    async batch(calls) {
      if (!calls.length) return []
      const chunks: RpcCall[][] = []
      for (let i = 0; i < calls.length; i += batchSize) chunks.push(calls.slice(i, i + batchSize))
      const out: RpcResult[][] = new Array(chunks.length)
      let next = 0
      const worker = async () => {
        while (next < chunks.length) {
          const index = next++
          out[index] = await sendChunk(chunks[index]!)
        }
      }
      await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker))
      return out.flat()
    },
    async request(method, params) {
      const [answer] = await sendChunk([{ method, params }])
      if (!answer?.ok)
        throw new RpcError(`${method}: ${answer?.error.message ?? 'no answer'}`, {
          ...(answer ? { code: answer.error.code } : {}),
        })
      return answer.result
    },
  }
}

/**
 * The result of a batch call, or a thrown `RpcError` naming the method.
 *
 * @example
 * const block = unwrap(results[0], 'eth_getBlockByNumber') as RpcBlock
 */
export function unwrap(result: RpcResult | undefined, method: string): unknown {
  if (!result) throw new RpcError(`${method}: no answer`)
  if (!result.ok)
    throw new RpcError(`${method}: ${result.error.message}`, { code: result.error.code })
  return result.result
}

function shortMessage(error: unknown): string {
  if (error && typeof error === 'object' && 'shortMessage' in error)
    return String((error as { shortMessage: unknown }).shortMessage)
  return error instanceof Error ? error.message : String(error)
}

/** The URL without credentials or query (API keys often ride in either). */
function redact(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`
  } catch {
    return '(invalid url)'
  }
}
