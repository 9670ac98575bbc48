/**
 * Parent side of the handshake (DESIGN §2): wait for the frame's `ready`, accepted only from
 * that frame's window and exact origin, answer `hello` with a transferred `MessagePort`, and
 * open a {@link Channel} when the frame `ack`s on the port. A later `ready` from the same frame
 * (it reloaded) starts over; the old channel rejects its pending requests with 4900.
 * zod-free, so the SDK can carry it.
 */
import * as Channel from './Channel.js'
import { parseText } from './Channel.js'
import { NS, SUPPORTED_VERSIONS, TIMEOUTS, VERSION } from './constants.js'
import { DisconnectedError, fromErrorObject, type ProviderRpcError } from './errors.js'
import { isReady, parseAck } from './guards/envelope.js'
import type { Contract, Validator } from './types.js'

/** The fields of `hello` the parent chooses. */
export type HelloFields = { projectId: string; metadata?: unknown; config?: unknown }

/** Parameters of {@link connect}. */
export type ConnectParameters<In extends Contract> = {
  /** The frame to talk to; only its window is listened to. */
  frame: HTMLIFrameElement
  /** The frame's exact origin, e.g. `http://127.0.0.1:4100`. */
  origin: string
  /**
   * What `hello` carries besides the protocol fields; a function is asked at each `ready`, so a
   * hello reflects the host's state when the frame loaded (or reloaded).
   */
  hello: HelloFields | (() => HelloFields)
  validator: Validator
  handlers?: Channel.Handlers<In>
  /** Called with each new channel (first load and every reload). */
  onChannel: (channel: Channel.Channel<Contract, In>) => void
  /** Called when the frame refuses the handshake or does not `ack` in time. */
  onError: (error: ProviderRpcError) => void
  /** Called when the frame's `ready` arrives (before the `ack`). */
  onReady?: () => void
  /** Called when a channel closes (frame reload, liveness failure, {@link stop}). */
  onClose?: (error: ProviderRpcError) => void
  debug?: boolean
}

/**
 * Starts listening for the frame's handshake; returns a function that stops and closes.
 * Call it before the frame starts loading so its `ready` is not missed.
 *
 * @example
 * const stop = Parent.connect({ frame, origin, hello: { projectId }, validator, onChannel, onError })
 */
export function connect<Out extends Contract, In extends Contract>(
  parameters: ConnectParameters<In>,
): () => void {
  const { frame, origin, hello, validator, handlers, onChannel, onError, onReady, onClose, debug } =
    parameters
  let channel: Channel.Channel<Out, In> | undefined
  let pendingPort: MessagePort | undefined

  const onMessage = (event: MessageEvent) => {
    if (event.source !== frame.contentWindow || event.origin !== origin) return
    if (!isReady(parseText(event.data))) return
    onReady?.()
    channel?.close(new DisconnectedError('Frame reloaded'))
    pendingPort?.close()
    const nonce = crypto.randomUUID()
    const { port1, port2 } = new MessageChannel()
    pendingPort = port1
    const timer = setTimeout(() => {
      port1.close()
      onError(new DisconnectedError('Handshake timed out'))
    }, TIMEOUTS.handshake)
    port1.onmessage = (reply) => {
      const ack = parseAck(parseText(reply.data))
      if (!ack || ack.nonce !== nonce) return
      clearTimeout(timer)
      pendingPort = undefined
      if (ack.error) {
        port1.close()
        return onError(fromErrorObject(ack.error))
      }
      channel = Channel.create<Out, In>({
        port: port1,
        validator,
        handlers: handlers ?? {},
        debug: !!debug,
        ...(onClose && { onClose }),
      })
      onChannel(channel as unknown as Channel.Channel<Contract, In>)
    }
    const target = event.source as Window
    const message = {
      ns: NS,
      v: VERSION,
      kind: 'hello',
      nonce,
      versions: SUPPORTED_VERSIONS,
      ...(typeof hello === 'function' ? hello() : hello),
    }
    target.postMessage(JSON.stringify(message), { targetOrigin: origin, transfer: [port2] })
  }

  window.addEventListener('message', onMessage)
  return () => {
    window.removeEventListener('message', onMessage)
    pendingPort?.close()
    channel?.close(new DisconnectedError('Disconnected'))
  }
}
