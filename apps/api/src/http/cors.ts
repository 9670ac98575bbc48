import type { MiddlewareHandler } from 'hono'
import { ApiError } from '../errors.js'
import type { AppEnv } from './AppEnv.js'

/**
 * CORS for the frame origins only (exact match). A preflight from another origin is refused
 * with 403 `ORIGIN_NOT_ALLOWED`; other responses to it carry no `Access-Control-*` headers,
 * so the browser withholds them.
 *
 * @example
 * app.use('*', cors(['http://127.0.0.1:4100', 'http://127.0.0.1:4200']))
 */
export function cors(origins: readonly string[]): MiddlewareHandler<AppEnv> {
  const allowed = new Set(origins)
  return async (c, next) => {
    const origin = c.req.header('origin')
    const ok = origin !== undefined && allowed.has(origin)
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      if (!ok) throw new ApiError('ORIGIN_NOT_ALLOWED', { headers: { Vary: 'Origin' } })
      return c.body(null, 204, {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
        'Access-Control-Allow-Headers': 'Content-Type',
        'Access-Control-Max-Age': '600',
        Vary: 'Origin',
      })
    }
    await next()
    c.res.headers.append('Vary', 'Origin')
    if (ok) {
      c.res.headers.set('Access-Control-Allow-Origin', origin)
      c.res.headers.set('Access-Control-Expose-Headers', 'Retry-After')
    }
  }
}
