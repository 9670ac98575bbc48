/**
 * `Host` header checks for the local development servers (mail catcher, local OpenID
 * provider). A page on an attacker's domain can point its DNS name at 127.0.0.1 after it has
 * loaded (DNS rebinding): its scripts then reach a loopback server as "same origin" and read
 * every answer, but the browser still sends the attacker's name in `Host`. A server that
 * answers only the names it is really served under gives such a page nothing.
 */

/** Options of {@link allowedHosts}. */
export type AllowedHostsParameters = {
  /** The interface the server listens on, e.g. `127.0.0.1`, `::1`, `localhost`, `0.0.0.0`. */
  host: string
  /** The port it listens on (the bound one, not `0`). */
  port: number
  /** More `Host` values to answer, exactly as clients send them, e.g. `mail.internal:4500`. */
  extraHosts?: readonly string[] | undefined
}

const WILDCARD = new Set(['', '0.0.0.0', '::', '[::]'])

/**
 * The `Host` header values a server on `host:port` answers: `host:port` itself and, when it is
 * bound to loopback (or to every interface), `localhost:port`, `127.0.0.1:port` and
 * `[::1]:port`; plus `extraHosts`. On port 80 the names without a port count too. Values are
 * lower-case.
 *
 * @example
 * allowedHosts({ host: '127.0.0.1', port: 4500 })
 * // Set { '127.0.0.1:4500', 'localhost:4500', '[::1]:4500' }
 */
export function allowedHosts(parameters: AllowedHostsParameters): ReadonlySet<string> {
  const host = parameters.host.toLowerCase().replace(/^\[|\]$/g, '')
  const { port } = parameters
  const names = new Set<string>()
  const add = (name: string) => {
    names.add(`${name}:${port}`)
    if (port === 80) names.add(name)
  }
  if (!WILDCARD.has(host)) add(host.includes(':') ? `[${host}]` : host)
  if (WILDCARD.has(host) || isLoopbackHost(host))
    for (const name of ['localhost', '127.0.0.1', '[::1]']) add(name)
  for (const extra of parameters.extraHosts ?? []) names.add(extra.toLowerCase())
  return names
}

/**
 * True when a request's `Host` header is one of `allowed` (compared case-insensitively). A
 * missing header is refused.
 *
 * @example
 * const allowed = allowedHosts({ host: '127.0.0.1', port: 4500 })
 * isAllowedHost('localhost:4500', allowed) // true
 * isAllowedHost('attacker.test:4500', allowed) // false
 */
export function isAllowedHost(
  hostHeader: string | undefined,
  allowed: ReadonlySet<string>,
): boolean {
  return hostHeader !== undefined && allowed.has(hostHeader.toLowerCase())
}

/**
 * True for `localhost` and the loopback addresses (`127.0.0.0/8`, `::1`).
 *
 * @example
 * isLoopbackHost('127.0.0.1') // true
 * isLoopbackHost('192.168.1.2') // false
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '')
  return (
    name === 'localhost' ||
    name === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) ||
    /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  )
}
