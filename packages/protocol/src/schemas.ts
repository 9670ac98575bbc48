/**
 * The envelope every message travels in (DESIGN §2) and the handshake messages. A zod schema
 * and the type inferred from it share one name.
 */
import { z } from 'zod'
import { NS } from './constants.js'

/** A message id: a positive integer, strictly increasing per sender and channel. */
export const MessageId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER)
export type MessageId = z.infer<typeof MessageId>

/** Wire form of an error: EIP-1193 / EIP-1474 code, message, optional data. */
export const ErrorObject = z.object({
  code: z.number().int(),
  message: z.string().max(2000),
  data: z.unknown().optional(),
})
export type ErrorObject = z.infer<typeof ErrorObject>

const head = { ns: z.literal(NS), v: z.number().int().positive() }

/** A request; `params` is checked against the method's schema by the receiver. */
export const RequestMessage = z.object({
  ...head,
  kind: z.literal('req'),
  id: MessageId,
  method: z.string().min(1).max(64),
  params: z.unknown().optional(),
})
export type RequestMessage = z.infer<typeof RequestMessage>

/** A reply: the request's id and either `result` or `error` (an error when `error` is set). */
export const ResponseMessage = z
  .object({
    ...head,
    kind: z.literal('res'),
    id: MessageId,
    result: z.unknown().optional(),
    error: ErrorObject.optional(),
  })
  .refine((m) => m.error === undefined || m.result === undefined, 'both result and error')
export type ResponseMessage = z.infer<typeof ResponseMessage>

/** A one-way event; `data` is checked against the topic's schema by the receiver. */
export const EventMessage = z.object({
  ...head,
  kind: z.literal('evt'),
  id: MessageId,
  topic: z.string().min(1).max(64),
  data: z.unknown().optional(),
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
  nonce: z.string().min(16).max(64),
  versions: z.array(z.number().int().positive()).min(1).max(16),
  projectId: z.string().max(128),
  metadata: z.unknown().optional(),
  config: z.unknown().optional(),
})
export type HelloMessage = z.infer<typeof HelloMessage>

/** Frame → parent, on the port: the handshake is accepted (`version`) or refused (`error`). */
export const AckMessage = z
  .object({
    ...head,
    kind: z.literal('ack'),
    nonce: z.string(),
    version: z.number().int().positive().optional(),
    error: ErrorObject.optional(),
  })
  .refine((m) => (m.error === undefined) !== (m.version === undefined), 'version xor error')
export type AckMessage = z.infer<typeof AckMessage>
