import { z } from 'zod'
import { ALLOWED_RPC_METHODS, BUNDLER_RPC_METHODS, RPC_NOT_ALLOWED } from './allowedMethods.js'
import { RpcMethodError } from './RpcMethodError.js'

/** Most requests in one batch (spec §9: batch size 1000). */
export const MAX_BATCH_SIZE = 1000

/**
 * Most calls of one HTTP request that leave the proxy one by one (bundler methods, one HTTP
 * request each, and the paymaster's own methods); the rest of a batch's are answered -32005.
 * Without it one request of 1000 `eth_estimateUserOperationGas` made 1000 bundler requests while
 * the rate limit counted one (issue 25). A wallet sends them one at a time.
 */
export const MAX_SEPARATE_CALLS = 10

/** A JSON-RPC 2.0 request (unknown members are dropped before forwarding). */
export const RpcRequest = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string().max(256), z.number(), z.null()]).optional(),
  method: z.string().min(1).max(128),
  params: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).optional(),
})
/** A JSON-RPC 2.0 request. */
export type RpcRequest = z.infer<typeof RpcRequest>

/** A JSON-RPC error object. */
export type RpcError = { code: number; message: string; data?: unknown }

/** A JSON-RPC 2.0 response. */
export type RpcResponse =
  | { jsonrpc: '2.0'; id: string | number | null; result: unknown }
  | { jsonrpc: '2.0'; id: string | number | null; error: RpcError }

const UpstreamResponse = z.looseObject({
  id: z.number(),
  result: z.unknown().optional(),
  error: z
    .looseObject({ code: z.number(), message: z.string(), data: z.unknown().optional() })
    .optional(),
})

/** Options for {@link proxyRpc}. */
export type ProxyRpcParameters = {
  /** The parsed JSON body: one request or a batch. */
  body: unknown
  /** Upstream URL for the requested chain; `undefined` when the chain is not served. */
  upstream: string | undefined
  /** Upstream timeout in milliseconds. */
  timeoutMs: number
  /** Methods forwarded (default: the EVM list, `ALLOWED_RPC_METHODS`). */
  allowedMethods?: ReadonlySet<string>
  /**
   * The chain's ERC-4337 bundler: `BUNDLER_RPC_METHODS` go there instead, one HTTP request each
   * (bundlers take no batches). Without one they go to `upstream` like the rest.
   */
  bundler?: string | undefined
  /**
   * Methods answered here instead of upstream (the paymaster's `pm_*`): each resolves with the
   * result or throws `RpcMethodError` (any other error propagates).
   */
  localMethods?: Readonly<Record<string, LocalRpcMethod>>
  fetch?: typeof fetch
}

/** A method the proxy answers itself, given the request's params. */
export type LocalRpcMethod = (params: RpcRequest['params']) => Promise<unknown>

/** HTTP status and body to answer with (`body` undefined: 204, only notifications were sent). */
export type ProxyRpcReturnType = {
  status: 200 | 204 | 400 | 502 | 503
  body: RpcResponse | RpcResponse[] | undefined
}

/**
 * Answers a JSON-RPC request or batch: allowed methods go to the chain's upstream (one upstream
 * call per HTTP request, with ids rewritten and restored so callers' ids are kept exactly),
 * ERC-4337 methods to the chain's bundler when it has one (one call each, in parallel),
 * `localMethods` are answered here, others are refused. Errors: -32600 invalid request or batch,
 * -32601 'Requested RPC call is not allowed', -32602 'Unsupported chain', -32603 upstream
 * unavailable (HTTP 503 when it cannot be reached or times out, 502 when its answer is unusable;
 * in a batch, the worst of its calls).
 *
 * @example
 * const { status, body } = await proxyRpc({
 *   body: { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
 *   upstream: 'http://127.0.0.1:8545',
 *   timeoutMs: 10_000,
 * }) // { status: 200, body: { jsonrpc: '2.0', id: 1, result: '0x7a69' } }
 */
export async function proxyRpc({
  body,
  upstream,
  timeoutMs,
  allowedMethods = ALLOWED_RPC_METHODS,
  bundler,
  localMethods = {},
  fetch: doFetch = fetch,
}: ProxyRpcParameters): Promise<ProxyRpcReturnType> {
  const batch = Array.isArray(body)
  if (batch && body.length === 0)
    return { status: 400, body: failure(null, -32600, 'Invalid request: empty batch') }
  if (batch && body.length > MAX_BATCH_SIZE)
    return {
      status: 400,
      body: failure(null, -32600, `Invalid request: batch larger than ${MAX_BATCH_SIZE}`),
    }
  const entries: unknown[] = batch ? body : [body]
  // `undefined` marks a notification (no id): it gets no response.
  const answers: (RpcResponse | undefined)[] = []
  const forward: { index: number; request: RpcRequest }[] = []

  entries.forEach((entry, index) => {
    const parsed = RpcRequest.safeParse(entry)
    if (!parsed.success) {
      answers[index] = failure(idOf(entry), -32600, 'Invalid request')
      return
    }
    const request = parsed.data
    const id = request.id
    if (!upstream) answers[index] = respond(id, failure(id ?? null, -32602, 'Unsupported chain'))
    else if (!allowedMethods.has(request.method))
      answers[index] = respond(
        id,
        failure(id ?? null, RPC_NOT_ALLOWED.code, RPC_NOT_ALLOWED.message),
      )
    else forward.push({ index, request })
  })

  // Three ways out: answered here, one call each to the bundler, one call for the rest upstream.
  // The first two cost a call each: past MAX_SEPARATE_CALLS of them the batch's rest is refused.
  const isLocal = (method: string) => Object.hasOwn(localMethods, method)
  const separate = forward.filter(
    ({ request }) =>
      isLocal(request.method) || (bundler !== undefined && BUNDLER_RPC_METHODS.has(request.method)),
  )
  for (const { index, request } of separate.slice(MAX_SEPARATE_CALLS))
    answers[index] = respond(
      request.id,
      failure(
        request.id ?? null,
        -32005,
        `Limit exceeded: at most ${MAX_SEPARATE_CALLS} bundler and paymaster calls per request`,
      ),
    )
  const allowed = separate.slice(0, MAX_SEPARATE_CALLS)
  const local = allowed.filter(({ request }) => isLocal(request.method))
  const toBundler = allowed.filter(({ request }) => !isLocal(request.method))
  const apart = new Set(separate)
  const toUpstream = forward.filter((entry) => !apart.has(entry))
  const outcomes = await Promise.all([
    ...local.map(async (entry) => ({
      status: 200 as const,
      entries: [entry],
      responses: [await callLocal(localMethods[entry.request.method]!, entry.request)],
    })),
    ...toBundler.map(async (entry) => ({
      entries: [entry],
      ...(await callUpstream(bundler!, [entry], false, timeoutMs, doFetch)),
    })),
    ...(toUpstream.length > 0 && upstream
      ? [
          callUpstream(upstream, toUpstream, batch, timeoutMs, doFetch).then((outcome) => ({
            entries: toUpstream,
            ...outcome,
          })),
        ]
      : []),
  ])
  let status: ProxyRpcReturnType['status'] = 200
  for (const outcome of outcomes) {
    if (outcome.status === 503 || (outcome.status === 502 && status === 200))
      status = outcome.status
    outcome.entries.forEach(({ index, request }, position) => {
      answers[index] = respond(request.id, withId(outcome.responses[position]!, request.id ?? null))
    })
  }

  if (!batch) {
    const answer = answers[0]
    return answer
      ? { status, body: answer }
      : { status: status === 200 ? 204 : status, body: undefined }
  }
  const list = answers.filter((answer): answer is RpcResponse => answer !== undefined)
  return list.length
    ? { status, body: list }
    : { status: status === 200 ? 204 : status, body: undefined }
}

async function callLocal(method: LocalRpcMethod, request: RpcRequest): Promise<RpcResponse> {
  try {
    return { jsonrpc: '2.0', id: null, result: (await method(request.params)) ?? null }
  } catch (error) {
    // Anything else is a fault of ours: it propagates to the app's error handler.
    if (!(error instanceof RpcMethodError)) throw error
    return failure(null, error.code, error.message, error.data)
  }
}

async function callUpstream(
  upstream: string,
  forward: { request: RpcRequest }[],
  batch: boolean,
  timeoutMs: number,
  doFetch: typeof fetch,
): Promise<{ status: 200 | 502 | 503; responses: RpcResponse[] }> {
  const outgoing = forward.map(({ request }, position) => ({
    jsonrpc: '2.0' as const,
    id: position,
    method: request.method,
    ...(request.params === undefined ? {} : { params: request.params }),
  }))
  const fail = (status: 502 | 503, message: string) => ({
    status,
    responses: outgoing.map(() => failure(null, -32603, message)),
  })
  let text: string
  try {
    const response = await doFetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(batch ? outgoing : outgoing[0]),
      signal: AbortSignal.timeout(timeoutMs),
    })
    text = await response.text()
    if (!response.ok) return fail(502, `Upstream RPC answered HTTP ${response.status}`)
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError'
    return fail(503, timedOut ? 'Upstream RPC timed out' : 'Upstream RPC unavailable')
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return fail(502, 'Upstream RPC answered with invalid JSON')
  }
  const byId = new Map<number, RpcResponse>()
  for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
    const response = UpstreamResponse.safeParse(item)
    if (!response.success) continue
    const { id, error, result } = response.data
    byId.set(
      id,
      error
        ? failure(id, error.code, error.message, error.data)
        : { jsonrpc: '2.0', id, result: result ?? null },
    )
  }
  if (byId.size === 0) return fail(502, 'Upstream RPC answered without JSON-RPC responses')
  return {
    status: 200,
    responses: outgoing.map(
      (request) => byId.get(request.id) ?? failure(null, -32603, 'Upstream RPC sent no response'),
    ),
  }
}

function failure(
  id: string | number | null,
  code: number,
  message: string,
  data?: unknown,
): RpcResponse {
  return {
    jsonrpc: '2.0',
    id,
    error: data === undefined ? { code, message } : { code, message, data },
  }
}

function withId(response: RpcResponse, id: string | number | null): RpcResponse {
  return { ...response, id }
}

/** Notifications (no `id` member) get no response. */
function respond(id: RpcRequest['id'], response: RpcResponse): RpcResponse | undefined {
  return id === undefined ? undefined : response
}

function idOf(entry: unknown): string | number | null {
  const id = (entry as { id?: unknown } | null)?.id
  return typeof id === 'string' || typeof id === 'number' ? id : null
}
