import type { MiddlewareHandler } from 'hono'
import { ApiError } from '../errors.js'
import type { AppEnv } from './AppEnv.js'

/**
 * CORS for the frame origins only (exact match, never `*`). Origins in `credentialOrigins` (the
 * wallet frame, which sends its session cookie with `credentials: 'include'`) also get
 * `Access-Control-Allow-Credentials: true`. A preflight from another origin is refused with 403
 * `ORIGIN_NOT_ALLOWED`; other responses to it carry no `Access-Control-*` headers, so the
 * browser withholds them.
 *
 * @example
 * app.use('*', cors(['http://127.0.0.1:4100', 'http://127.0.0.1:4200'], ['http://127.0.0.1:4200']))
 */
export function cors(
  origins: readonly string[],
  credentialOrigins: readonly string[] = [],
): MiddlewareHandler<AppEnv> {
  const allowed = new Set(origins)
  const withCredentials = new Set(credentialOrigins.filter((origin) => allowed.has(origin)))
  return async (c, next) => {
    const origin = c.req.header('origin')
    const ok = origin !== undefined && allowed.has(origin)
    const credentials: Record<string, string> =
      ok && withCredentials.has(origin) ? { 'Access-Control-Allow-Credentials': 'true' } : {}
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      if (!ok) throw new ApiError('ORIGIN_NOT_ALLOWED', { headers: { Vary: 'Origin' } })
      return c.body(null, 204, {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, OPTIONS',
        'Access-Control-Allow-Headers': 'Content-Type, Authorization, X-Request-Id',
        'Access-Control-Max-Age': '600',
        ...credentials,
        Vary: 'Origin',
      })
    }
    await next()
    c.res.headers.append('Vary', 'Origin')
    if (ok) {
      c.res.headers.set('Access-Control-Allow-Origin', origin)
      c.res.headers.set('Access-Control-Expose-Headers', 'Retry-After, X-Request-Id')
      for (const [name, value] of Object.entries(credentials)) c.res.headers.set(name, value)
    }
  }
}
