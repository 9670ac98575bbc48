import type { MiddlewareHandler } from 'hono'
import { routePath } from 'hono/route'
import type { Logger } from '../fleet/logger.js'
import { requestIdOf } from '../fleet/logger.js'
import type { ApiMetrics } from '../fleet/metrics.js'
import type { AppEnv } from './AppEnv.js'

/** Options of {@link observe}. */
export type ObserveParameters = {
  metrics?: ApiMetrics | undefined
  log: Logger
  /** True while draining: answers then close their connection (`Connection: close`). */
  draining?: (() => boolean) | undefined
}

/**
 * The first middleware: gives each request its id (the caller's `X-Request-Id`, else the `rid`
 * query parameter, else a new one; answered in `X-Request-Id`), then counts it in the metrics by
 * route pattern (never the raw path: addresses would explode the series and leak into
 * dashboards) and logs one line `{ reqId, method, route, status, ms }`. Health and metrics
 * scrapes are counted but not logged.
 *
 * @example
 * app.use('*', observe({ metrics, log }))
 */
export function observe({ metrics, log, draining }: ObserveParameters): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now()
    const reqId = requestIdOf(c.req.header('x-request-id') ?? c.req.query('rid'))
    c.set('requestId', reqId)
    await next()
    const seconds = (performance.now() - started) / 1000
    const status = c.res.status
    const route = routeLabel(c)
    c.res.headers.set('X-Request-Id', reqId)
    if (draining?.()) c.res.headers.set('Connection', 'close')
    metrics?.observeRequest(c.req.method, route, status, seconds)
    if (route === '/healthz' || route === '/readyz' || route === '/metrics') return
    const line = {
      reqId,
      method: c.req.method,
      route,
      status,
      ms: Math.round(seconds * 10_000) / 10,
    }
    if (status >= 500) log.warn(line, 'request')
    else log.info(line, 'request')
  }
}

/** The pattern of the route that answered (`/v1/account/:address/balance`), or `unmatched`. */
function routeLabel(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string {
  const path = routePath(c)
  return !path || path === '*' || path === '/*' ? 'unmatched' : path
}
