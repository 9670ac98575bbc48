import { clientAddress } from '@porthole/shared'
import type { Context } from 'hono'
import type { AppEnv } from './AppEnv.js'

/**
 * The client's IP address: the socket peer, or behind `trustedProxies` proxies the
 * `X-Forwarded-For` entry that many places from the right (entries left of it are the client's
 * own words). `'unknown'` when there is no socket (in-process `app.request`).
 *
 * @example
 * const ip = clientIp(c, 0) // '127.0.0.1'
 */
export function clientIp(c: Context<AppEnv>, trustedProxies: number): string {
  return clientAddress({
    peer: (c.env as AppEnv['Bindings'] | undefined)?.incoming?.socket?.remoteAddress ?? 'unknown',
    forwardedFor: c.req.header('x-forwarded-for'),
    trustedProxies,
  })
}
