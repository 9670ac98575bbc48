/**
 * Structured logs (pino, one JSON object per line on stdout) and the request id that ties a
 * user's action to every line it causes: the host page's SDK names it, the modal sends it with
 * each API call (`X-Request-Id`, or `rid` in the query where a header would cost a CORS
 * preflight), nginx passes it on (or makes one), and the API logs it and answers it.
 */
import { randomUUID } from 'node:crypto'
import { type Logger, pino } from 'pino'

export type { Logger } from 'pino'

/** Environment variables of the logger. */
export const LOG_ENV = {
  /** pino level: fatal, error, warn, info (default), debug, trace or silent. */
  level: 'PORTHOLE_LOG_LEVEL',
  /** This replica's name in every line and metric; default `<hostname>:<pid>`. */
  replica: 'PORTHOLE_REPLICA_ID',
} as const

/**
 * The API's logger: JSON lines with `replica` and ISO `time`, written asynchronously.
 *
 * @example
 * const log = createLogger({ replica: 'api-1' })
 * log.info({ reqId, route, status: 200, ms: 3.1 }, 'request')
 */
export function createLogger({
  replica,
  level = process.env[LOG_ENV.level] || 'info',
  destination = pino.destination({ sync: false }),
}: {
  replica: string
  level?: string
  destination?: pino.DestinationStream
}): Logger {
  return pino(
    {
      level,
      base: { replica },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  )
}

/** A logger that writes nothing (tests, and the in-process API of `npm start`). */
export const silentLogger: Logger = pino({ level: 'silent' })

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * The request id to use: the caller's when it is a plain token of at most 128 characters
 * (letters, digits, `.`, `_`, `:`, `-`), else a new UUID; never text that could forge log lines.
 *
 * @example
 * requestIdOf('ph-3f9c.12') // 'ph-3f9c.12'
 * requestIdOf('a\nb') // a fresh UUID
 */
export function requestIdOf(given: string | undefined | null): string {
  return given && REQUEST_ID.test(given) ? given : randomUUID()
}
