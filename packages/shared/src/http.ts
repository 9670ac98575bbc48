/**
 * The HTTP helper of spec §7: GET/POST/PUT/DELETE with a JSON body, blob GET, query params
 * appended (a clientId when configured), and any non-OK status thrown as
 * 'HTTP status code: {status}'.
 */
import { BaseError } from '@porthole/protocol'

/** A non-OK HTTP answer; `status` tells 429 from 5xx from 403. */
export class HttpError extends BaseError {
  override name = 'HttpError'
  readonly status: number
  readonly body: unknown
  constructor(status: number, body: unknown) {
    super(`HTTP status code: ${status}`)
    this.status = status
    this.body = body
  }
}

/** Query values; `undefined` entries are left out, arrays are joined with commas. */
export type Query = Record<string, string | number | boolean | readonly string[] | undefined>

/** Parameters of {@link createHttpClient}. */
export type HttpClientParameters = {
  baseUrl: string
  /** Added to every request's query (project id, sdk type and version). */
  query?: Query
  clientId?: string
  fetch?: typeof fetch
  /**
   * A fresh request id per call, sent as `rid` (the API logs it and answers it in
   * `X-Request-Id`): a query parameter, because an `X-Request-Id` header would cost every
   * cross-origin GET a CORS preflight.
   */
  requestId?: () => string
}

/**
 * Creates the helper bound to a base URL.
 *
 * @example
 * const http = createHttpClient({ baseUrl: 'http://127.0.0.1:4300', query: { projectId } })
 * const { data } = await http.get<{ data: unknown[] }>('/getWallets', { page: 1 })
 */
export function createHttpClient(parameters: HttpClientParameters) {
  const { baseUrl, clientId } = parameters
  const doFetch = parameters.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args))

  const url = (path: string, query: Query = {}) => {
    const target = new URL(path, `${baseUrl.replace(/\/$/, '')}/`)
    const all: Query = { ...parameters.query, ...query, ...(clientId ? { clientId } : {}) }
    for (const [key, value] of Object.entries(all)) {
      if (value === undefined) continue
      target.searchParams.set(key, Array.isArray(value) ? value.join(',') : String(value))
    }
    return target.href
  }

  const send = async (method: string, path: string, query?: Query, body?: unknown) => {
    const rid = parameters.requestId?.()
    const response = await doFetch(url(path, rid ? { ...query, rid } : query), {
      method,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    })
    if (!response.ok) {
      let payload: unknown
      try {
        payload = await response.json()
      } catch {}
      throw new HttpError(response.status, payload)
    }
    return response
  }
  const json = async <T>(response: Response) =>
    response.status === 204 ? (undefined as T) : ((await response.json()) as T)

  return {
    url,
    get: async <T>(path: string, query?: Query) => json<T>(await send('GET', path, query)),
    post: async <T>(path: string, body: unknown, query?: Query) =>
      json<T>(await send('POST', path, query, body)),
    put: async <T>(path: string, body: unknown, query?: Query) =>
      json<T>(await send('PUT', path, query, body)),
    delete: async <T>(path: string, query?: Query) => json<T>(await send('DELETE', path, query)),
    getBlob: async (path: string, query?: Query) => (await send('GET', path, query)).blob(),
  }
}

/** The HTTP helper's type. */
export type HttpClient = ReturnType<typeof createHttpClient>
