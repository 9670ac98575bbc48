/**
 * zod-free checks for the envelope and handshake messages, for builds that cannot carry zod
 * (the SDK's size budget). `guards.test.ts` keeps them equal to the zod schemas.
 */
import { NS } from '../constants.js'
import type { AckMessage, Envelope, ReadyMessage } from '../schemas.js'

/** True for a plain object (not null, not an array). */
export const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x)

/** True for a string of at most `max` (and at least `min`) characters. */
export const isText = (x: unknown, max: number, min = 0): x is string =>
  typeof x === 'string' && x.length <= max && x.length >= min

const isId = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) > 0

const isErrorObject = (x: unknown) =>
  isObject(x) && Number.isSafeInteger(x.code) && isText(x.message, 2000)

const head = (x: unknown): x is Record<string, unknown> =>
  isObject(x) && x.ns === NS && Number.isSafeInteger(x.v) && (x.v as number) > 0

// Unknown keys are ignored, as the zod schemas strip them; only required fields are checked.
const shapes: Record<string, (x: Record<string, unknown>) => boolean> = {
  req: (x) => isText(x.method, 64, 1),
  res: (x) => x.error === undefined || (x.result === undefined && isErrorObject(x.error)),
  evt: (x) => isText(x.topic, 64, 1),
  cancel: () => true,
  ping: () => true,
  pong: () => true,
}

/**
 * Returns the message when it is a well-formed envelope, else `undefined`.
 *
 * @example
 * const message = parseEnvelope(JSON.parse(text))
 */
export function parseEnvelope(x: unknown): Envelope | undefined {
  if (!head(x) || !isId(x.id)) return undefined
  const shape = Object.hasOwn(shapes, x.kind as string) ? shapes[x.kind as string] : undefined
  return shape?.(x) ? (x as Envelope) : undefined
}

/**
 * True for a handshake `ready` message.
 *
 * @example
 * if (isReady(message)) startHandshake()
 */
export function isReady(x: unknown): x is ReadyMessage {
  return head(x) && x.kind === 'ready'
}

/**
 * Returns the message when it is a handshake `ack` (accepted or refused), else `undefined`.
 *
 * @example
 * const ack = parseAck(JSON.parse(text))
 */
export function parseAck(x: unknown): AckMessage | undefined {
  if (!head(x) || x.kind !== 'ack' || typeof x.nonce !== 'string') return undefined
  const ok =
    x.error === undefined
      ? Number.isSafeInteger(x.version) && (x.version as number) > 0
      : x.version === undefined && isErrorObject(x.error)
  return ok ? (x as AckMessage) : undefined
}
