/**
 * JSON-RPC 2.0 dispatch of one request or a batch to the chain's methods. Unknown methods are
 * -32601 'Method not found'; notifications (no `id`) run and get no answer.
 */
import type { Chain } from '../chain.js'
import { accountMethods } from './accountMethods.js'
import { clusterMethods } from './clusterMethods.js'
import type { RpcMethod } from './context.js'
import { JsonRpcError } from './params.js'
import { transactionMethods } from './transactionMethods.js'

/** Every method the chain answers, by name. */
export const RPC_METHODS: Readonly<Record<string, RpcMethod>> = {
  ...clusterMethods,
  ...accountMethods,
  ...transactionMethods,
}

/** Most requests in one batch. */
export const MAX_BATCH_SIZE = 1000

/** A JSON-RPC 2.0 response. */
export type RpcResponse =
  | { jsonrpc: '2.0'; id: string | number | null; result: unknown }
  | {
      jsonrpc: '2.0'
      id: string | number | null
      error: { code: number; message: string; data?: unknown }
    }

/**
 * The answer to a parsed JSON-RPC body: a response, an array for a batch, or `undefined` when
 * only notifications were sent. `onError` sees unexpected failures (answered as -32603).
 *
 * @example
 * handleRpc(chain, { jsonrpc: '2.0', id: 1, method: 'getSlot' }) // { jsonrpc: '2.0', id: 1, result: 3 }
 */
export function handleRpc(
  chain: Chain,
  body: unknown,
  onError: (error: unknown) => void = () => {},
): RpcResponse | RpcResponse[] | undefined {
  if (!Array.isArray(body)) return handleOne(chain, body, onError)
  if (body.length === 0 || body.length > MAX_BATCH_SIZE)
    return failure(null, new JsonRpcError(-32600, 'Invalid request'))
  const answers = body
    .map((entry) => handleOne(chain, entry, onError))
    .filter((answer): answer is RpcResponse => answer !== undefined)
  return answers.length ? answers : undefined
}

function handleOne(
  chain: Chain,
  entry: unknown,
  onError: (error: unknown) => void,
): RpcResponse | undefined {
  const request = entry as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown }
  const id = request?.id
  const validId =
    id === undefined || id === null || typeof id === 'string' || typeof id === 'number'
  if (
    !request ||
    typeof request !== 'object' ||
    request.jsonrpc !== '2.0' ||
    typeof request.method !== 'string' ||
    !validId
  )
    return failure(validId ? (id ?? null) : null, new JsonRpcError(-32600, 'Invalid request'))
  const answerId = id as string | number | null | undefined
  const method = Object.hasOwn(RPC_METHODS, request.method)
    ? RPC_METHODS[request.method]
    : undefined
  let response: RpcResponse
  if (!method) response = failure(answerId ?? null, new JsonRpcError(-32601, 'Method not found'))
  else if (request.params !== undefined && !Array.isArray(request.params))
    response = failure(
      answerId ?? null,
      new JsonRpcError(-32602, 'Invalid params: expected an array of positional parameters.'),
    )
  else
    try {
      const result = method((request.params as unknown[] | undefined) ?? [], chain)
      response = { jsonrpc: '2.0', id: answerId ?? null, result }
    } catch (error) {
      if (!(error instanceof JsonRpcError)) onError(error)
      response = failure(
        answerId ?? null,
        error instanceof JsonRpcError ? error : new JsonRpcError(-32603, 'Internal error'),
      )
    }
  return answerId === undefined ? undefined : response
}

function failure(id: string | number | null, error: JsonRpcError): RpcResponse {
  return {
    jsonrpc: '2.0',
    id,
    error:
      error.data === undefined
        ? { code: error.code, message: error.message }
        : { code: error.code, message: error.message, data: error.data },
  }
}
