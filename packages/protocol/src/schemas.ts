/**
 * The envelope every message travels in (DESIGN §2) and the handshake messages. A zod schema
 * and the type inferred from it share one name.
 *
 * Schemas here and in `contracts/` use `zod/mini` (functional API: only what is used is
 * bundled), not classic `zod`, whose methods all hang on the prototypes (issue 26).
 */
import * as z from 'zod/mini'
import { NS } from './constants.js'

// zod/mini loads no locale (every issue would read 'Invalid input'); classic zod loads English
// on its first schema. The modal shows these messages (a refused option names its problem).
z.config(z.locales.en())

/** A message id: a positive integer, strictly increasing per sender and channel. */
export const MessageId = z.number().check(z.int(), z.positive(), z.maximum(Number.MAX_SAFE_INTEGER))
export type MessageId = z.infer<typeof MessageId>

/** Wire form of an error: EIP-1193 / EIP-1474 code, message, optional data. */
export const ErrorObject = z.object({
  code: z.number().check(z.int()),
  message: z.string().check(z.maxLength(2000)),
  data: z.optional(z.unknown()),
})
export type ErrorObject = z.infer<typeof ErrorObject>

const head = { ns: z.literal(NS), v: z.number().check(z.int(), z.positive()) }

/** A request; `params` is checked against the method's schema by the receiver. */
export const RequestMessage = z.object({
  ...head,
  kind: z.literal('req'),
  id: MessageId,
  method: z.string().check(z.minLength(1), z.maxLength(64)),
  params: z.optional(z.unknown()),
})
export type RequestMessage = z.infer<typeof RequestMessage>

/** A reply: the request's id and either `result` or `error` (an error when `error` is set). */
export const ResponseMessage = z
  .object({
    ...head,
    kind: z.literal('res'),
    id: MessageId,
    result: z.optional(z.unknown()),
    error: z.optional(ErrorObject),
  })
  .check(z.refine((m) => m.error === undefined || m.result === undefined, 'both result and error'))
export type ResponseMessage = z.infer<typeof ResponseMessage>

/** A one-way event; `data` is checked against the topic's schema by the receiver. */
export const EventMessage = z.object({
  ...head,
  kind: z.literal('evt'),
  id: MessageId,
  topic: z.string().check(z.minLength(1), z.maxLength(64)),
  data: z.optional(z.unknown()),
})
export type EventMessage = z.infer<typeof EventMessage>

/** Asks the receiver to abandon the request with this id. */
export const CancelMessage = z.object({ ...head, kind: z.literal('cancel'), id: MessageId })
export type CancelMessage = z.infer<typeof CancelMessage>

/** Liveness probe; answered by a `pong` with the same id. */
export const PingMessage = z.object({ ...head, kind: z.literal('ping'), id: MessageId })
export type PingMessage = z.infer<typeof PingMessage>

/** Answer to a `ping`. */
export const PongMessage = z.object({ ...head, kind: z.literal('pong'), id: MessageId })
export type PongMessage = z.infer<typeof PongMessage>

/** Any message on an established port. */
export const Envelope = z.union([
  RequestMessage,
  ResponseMessage,
  EventMessage,
  CancelMessage,
  PingMessage,
  PongMessage,
])
export type Envelope = z.infer<typeof Envelope>

/** Frame → parent, on the window, before any port exists: "I have loaded". */
export const ReadyMessage = z.object({ ...head, kind: z.literal('ready') })
export type ReadyMessage = z.infer<typeof ReadyMessage>

/** Parent → frame, on the window, carrying the transferred port. */
export const HelloMessage = z.object({
  ...head,
  kind: z.literal('hello'),
  nonce: z.string().check(z.minLength(16), z.maxLength(64)),
  versions: z.array(z.number().check(z.int(), z.positive())).check(z.minLength(1), z.maxLength(16)),
  projectId: z.string().check(z.maxLength(128)),
  metadata: z.optional(z.unknown()),
  config: z.optional(z.unknown()),
})
export type HelloMessage = z.infer<typeof HelloMessage>

/** Frame → parent, on the port: the handshake is accepted (`version`) or refused (`error`). */
export const AckMessage = z
  .object({
    ...head,
    kind: z.literal('ack'),
    nonce: z.string(),
    version: z.optional(z.number().check(z.int(), z.positive())),
    error: z.optional(ErrorObject),
  })
  .check(
    z.refine((m) => (m.error === undefined) !== (m.version === undefined), 'version xor error'),
  )
export type AckMessage = z.infer<typeof AckMessage>
