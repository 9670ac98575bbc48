/**
 * PostgreSQL error classes (SQLSTATE) that mean the server is away or refusing sessions, not
 * that the statement was wrong: 08 connection exception, 57P01–57P03 shutdown / cannot connect
 * now, 53300 too many connections.
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
])
const NETWORK_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|the database system is (starting up|shutting down|in recovery mode)/i

/**
 * Whether `error` (or any error in its `cause` chain) says the database cannot be reached right
 * now: the request may succeed when retried, so the API answers 503 instead of 500.
 *
 * @example
 * isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })) // true
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    if (typeof current !== 'object') return false
    const { code, message, cause } = current as {
      code?: unknown
      message?: unknown
      cause?: unknown
    }
    if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || NETWORK_CODES.has(code)))
      return true
    if (typeof message === 'string' && NETWORK_MESSAGES.test(message)) return true
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailable)) return true
    current = cause
  }
  return false
}
