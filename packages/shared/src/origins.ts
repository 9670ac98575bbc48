/**
 * Allowed-origin matching with wildcards (spec §5: "Allowed origins support wildcards").
 *
 * A pattern is an origin (`scheme://host[:port]`) where `*` may stand for
 * - a whole leading host label run: `https://*.example.com` matches any subdomain depth of
 *   example.com, not example.com itself;
 * - the port: `http://localhost:*` matches any port (and none).
 * Schemes must match exactly; a bare `*` pattern is refused. Comparison is case-insensitive
 * on scheme and host, and default ports are normalised away.
 */

/** Error thrown for a pattern that is not an allowed-origin pattern. */
export class InvalidOriginPatternError extends Error {
  override name = 'InvalidOriginPatternError'
  constructor(pattern: string) {
    super(`Invalid origin pattern: ${pattern}`)
  }
}

const PATTERN =
  /^(https?):\/\/((?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::(\*|\d{1,5}))?$/i

type Parsed = { scheme: string; host: string; port: string; wildHost: boolean }

function parsePattern(pattern: string): Parsed {
  const match = PATTERN.exec(pattern.trim())
  if (!match) throw new InvalidOriginPatternError(pattern)
  const scheme = match[1]!.toLowerCase()
  let host = match[2]!.toLowerCase()
  const wildHost = host.startsWith('*.')
  if (wildHost) host = host.slice(2)
  const port = normalisePort(scheme, match[3])
  if (port !== '*' && port !== '' && Number(port) > 65535)
    throw new InvalidOriginPatternError(pattern)
  return { scheme, host, port, wildHost }
}

function normalisePort(scheme: string, port: string | undefined): string {
  if (!port) return ''
  if (port === '*') return '*'
  if ((scheme === 'https' && port === '443') || (scheme === 'http' && port === '80')) return ''
  return String(Number(port))
}

/**
 * Normalises an origin pattern (lower case, default port dropped) or throws
 * {@link InvalidOriginPatternError}.
 *
 * @example
 * normaliseOriginPattern('HTTPS://*.Example.com:443') // 'https://*.example.com'
 */
export function normaliseOriginPattern(pattern: string): string {
  const { scheme, host, port, wildHost } = parsePattern(pattern)
  return `${scheme}://${wildHost ? '*.' : ''}${host}${port ? `:${port}` : ''}`
}

/**
 * True when `pattern` is a valid allowed-origin pattern.
 *
 * @example
 * isOriginPattern('http://localhost:*') // true
 */
export function isOriginPattern(pattern: string): boolean {
  try {
    parsePattern(pattern)
    return true
  } catch {
    return false
  }
}

/**
 * True when `origin` (a real origin such as `https://app.example.com`) matches `pattern`.
 * Invalid patterns or origins never match.
 *
 * @example
 * originMatches('https://a.b.example.com', 'https://*.example.com') // true
 */
export function originMatches(origin: string, pattern: string): boolean {
  let p: Parsed
  let o: URL
  try {
    p = parsePattern(pattern)
    o = new URL(origin)
  } catch {
    return false
  }
  if (o.pathname !== '/' || o.search || o.hash || o.username || o.password) return false
  const scheme = o.protocol.slice(0, -1)
  if (scheme !== p.scheme) return false
  const host = o.hostname.toLowerCase()
  if (p.wildHost ? !host.endsWith(`.${p.host}`) : host !== p.host) return false
  if (p.port === '*') return true
  return normalisePort(scheme, o.port) === p.port
}

/**
 * True when `origin` matches any of `patterns`.
 *
 * @example
 * isOriginAllowed('http://localhost:4000', ['http://localhost:4000']) // true
 */
export function isOriginAllowed(origin: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => originMatches(origin, pattern))
}

/**
 * Turns an allowlist into a CSP `frame-ancestors` source list; `'none'` when empty.
 * CSP host sources already support `*.` subdomain and `:*` port wildcards.
 *
 * @example
 * frameAncestors(['http://localhost:4000']) // "frame-ancestors http://localhost:4000"
 */
export function frameAncestors(patterns: readonly string[]): string {
  const valid = patterns.filter(isOriginPattern).map(normaliseOriginPattern)
  return `frame-ancestors ${valid.length ? valid.join(' ') : "'none'"}`
}
