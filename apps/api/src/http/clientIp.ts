import type { Context } from 'hono'
import type { AppEnv } from './AppEnv.js'

/**
 * The client's IP address: the socket peer, or the first `X-Forwarded-For` hop when
 * `trustProxy` is set. `'unknown'` when neither is available (in-process `app.request`).
 *
 * @example
 * const ip = clientIp(c, false) // '127.0.0.1'
 */
export function clientIp(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  return (c.env as AppEnv['Bindings'] | undefined)?.incoming?.socket?.remoteAddress ?? 'unknown'
}
