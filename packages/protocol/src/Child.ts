/**
 * Frame side of the handshake (DESIGN §2): post `ready` to the parent at its exact origin,
 * accept `hello` only from the parent window and that origin, let the app decide (allowlist),
 * then `ack` on the transferred port and open a {@link Channel}.
 */
import * as Channel from './Channel.js'
import { parseText } from './Channel.js'
import { NS, SUPPORTED_VERSIONS, VERSION } from './constants.js'
import { InvalidRequestError, toErrorObject } from './errors.js'
import * as Checks from './guards/toModal.js'
import type { HelloMessage } from './schemas.js'
import type { Contract, Validator } from './types.js'

/** Parameters of {@link listen}. */
export type ListenParameters<In extends Contract> = {
  /** The parent's exact origin; `ready` is posted to it and `hello` accepted only from it. */
  parentOrigin: string
  /** The parent window (default `window.parent`). */
  parent?: Window
  validator: Validator
  handlers?: Channel.Handlers<In>
  /** Decides whether to accept this parent; throw (e.g. 'Origin Not Allowed') to refuse. */
  accept?: (hello: HelloMessage) => void | Promise<void>
  onChannel: (channel: Channel.Channel<Contract, In>, hello: HelloMessage) => void
  onClose?: Channel.CreateParameters<In>['onClose']
  /**
   * The page announced itself before (a small script of the page posted `ready` to the parent at
   * `parentOrigin` and kept the messages that came back, from the parent at that origin): they are
   * handled first, with the same checks, and `ready` is not posted again.
   */
  announced?: { received: readonly MessageEvent[] }
  debug?: boolean
}

/**
 * Announces the frame to its parent and waits for the handshake; returns a stop function.
 *
 * @example
 * Child.listen({ parentOrigin, validator, onChannel: (channel) => channel.emit('state', state) })
 */
export function listen<Out extends Contract, In extends Contract>(
  parameters: ListenParameters<In>,
): () => void {
  const { parentOrigin, validator, handlers, accept, onChannel, onClose, debug } = parameters
  const parent = parameters.parent ?? window.parent
  let channel: Channel.Channel<Out, In> | undefined

  const onMessage = async (event: MessageEvent) => {
    if (event.source !== parent || event.origin !== parentOrigin) return
    const parsed = Checks.HelloMessage.safeParse(parseText(event.data))
    const port = event.ports[0]
    if (!parsed.success || !port) return
    const hello = parsed.data
    const ack = (body: Record<string, unknown>) =>
      port.postMessage(
        JSON.stringify({ ns: NS, v: VERSION, kind: 'ack', nonce: hello.nonce, ...body }),
      )
    const version = Math.max(...hello.versions.filter((v) => SUPPORTED_VERSIONS.includes(v)))
    try {
      if (!Number.isFinite(version)) throw new InvalidRequestError('Unsupported protocol version')
      await accept?.(hello)
    } catch (error) {
      ack({ error: toErrorObject(error) })
      port.close()
      return
    }
    channel?.close()
    channel = Channel.create<Out, In>({
      port,
      validator,
      handlers: handlers ?? {},
      debug: !!debug,
      ...(onClose ? { onClose } : {}),
    })
    ack({ version })
    onChannel(channel as unknown as Channel.Channel<Contract, In>, hello)
  }

  window.addEventListener('message', onMessage)
  if (parameters.announced) for (const event of parameters.announced.received) void onMessage(event)
  else parent.postMessage(JSON.stringify({ ns: NS, v: VERSION, kind: 'ready' }), parentOrigin)
  return () => {
    window.removeEventListener('message', onMessage)
    channel?.close()
  }
}
