/**
 * The frame side's early handshake (issue 26), for a frame's small early script (an `async`
 * module that runs as soon as it arrives, before the frame's own code): {@link announce} posts
 * `ready` to the parent at once and keeps what the parent sends back; the frame's code takes it
 * with {@link takeHandshake} and hands it to `Child.listen` as `announced`, which checks each
 * message as if it had just come. The parent's `hello` is thus waiting when the frame's code has
 * run, instead of one parent round trip later.
 *
 * If that code never takes the handshake (its script failed to load, or threw before starting),
 * the parent would see `ready` and then wait its whole handshake timeout (20 s). Instead the
 * early script refuses the parent's `hello` with the error the frame was given, as soon as a
 * script of the page fails to load, or {@link START_GRACE_MS} after the page's load event.
 *
 * It imports nothing, so the early scripts' chunks stay small and alone (a test checks that its
 * namespace and version are the protocol's).
 */

/** The protocol's `NS` and `VERSION` (constants.ts), repeated here so that this file imports nothing. */
export const ANNOUNCE_NS = 'porthole'
export const ANNOUNCE_VERSION = 1

/**
 * How long after the page's load event the frame's code has to take the handshake: module
 * scripts have all run by the load event, so this leaves room only for a slow start (the SDK's
 * own load diagnosis waited 3 s after the frame's load too).
 */
export const START_GRACE_MS = 3000

/** The error object a refused `hello` is acked with (an EIP-1193 / JSON-RPC error). */
export type NotStarted = { code: number; message: string; data?: unknown }

/** The handshake begun here: `ready` posted to the parent, its messages kept. */
let handshake:
  | { origin: string; received: MessageEvent[]; failed: boolean; stop(): void }
  | undefined

/**
 * Posts `ready` to the parent window at exactly `origin` and keeps what that window, from that
 * origin, sends back, until the frame's code takes it ({@link takeHandshake}). When the frame's
 * code does not start (see the module comment), each `hello` kept or still to come is acked with
 * `notStarted` on its port. Once per page; nothing outside a frame.
 *
 * @example
 * announce('https://dapp.example', { code: 4100, message: 'Network Error - Could not load the modal' })
 */
export function announce(origin: string, notStarted: NotStarted): void {
  if (handshake || typeof window === 'undefined' || window.parent === window) return
  const received: MessageEvent[] = []
  const refuse = (event: MessageEvent) => {
    const nonce = helloNonce(event.data)
    const port = event.ports?.[0]
    if (nonce === undefined || !port) return
    port.postMessage(
      JSON.stringify({
        ns: ANNOUNCE_NS,
        v: ANNOUNCE_VERSION,
        kind: 'ack',
        nonce,
        error: notStarted,
      }),
    )
    port.close()
  }
  const keep = (event: MessageEvent) => {
    if (event.source !== window.parent || event.origin !== origin) return
    if (begun.failed) refuse(event)
    else received.push(event)
  }
  const fail = () => {
    if (handshake !== begun || begun.failed) return
    begun.failed = true
    for (const event of received.splice(0)) refuse(event)
  }
  // A script of this page that fails to load (the app's, or one of its modules): its element
  // gets the `error` event, which does not bubble, so it is caught on the way down.
  const onError = (event: Event) => {
    if (typeof HTMLScriptElement !== 'undefined' && event.target instanceof HTMLScriptElement)
      fail()
  }
  let timer: ReturnType<typeof setTimeout> | undefined
  const onLoad = () => {
    timer = setTimeout(fail, START_GRACE_MS)
  }
  addEventListener('message', keep)
  addEventListener('error', onError, true)
  if (document.readyState === 'complete') onLoad()
  else addEventListener('load', onLoad, { once: true })
  const begun = {
    origin,
    received,
    failed: false,
    stop: () => {
      removeEventListener('message', keep)
      removeEventListener('error', onError, true)
      removeEventListener('load', onLoad)
      clearTimeout(timer)
    },
  }
  handshake = begun
  window.parent.postMessage(
    JSON.stringify({ ns: ANNOUNCE_NS, v: ANNOUNCE_VERSION, kind: 'ready' }),
    origin,
  )
}

/**
 * Ends the handshake begun here (once) and gives what the parent sent meanwhile, for
 * `Child.listen`'s `announced`. `undefined` when none was begun with `origin`, or the early script
 * already refused it (then `Child.listen` posts `ready` itself, and the parent starts over).
 *
 * @example
 * Child.listen({ parentOrigin, …, announced: takeHandshake(parentOrigin) })
 */
export function takeHandshake(origin: string): { received: readonly MessageEvent[] } | undefined {
  const taken = handshake
  handshake = undefined
  taken?.stop()
  return taken && taken.origin === origin && !taken.failed
    ? { received: taken.received }
    : undefined
}

/** The nonce of a protocol `hello` in `data` (the JSON text the parent posts), else `undefined`. */
function helloNonce(data: unknown): string | undefined {
  if (typeof data !== 'string') return undefined
  try {
    const message = JSON.parse(data)
    return message?.ns === ANNOUNCE_NS &&
      message.kind === 'hello' &&
      typeof message.nonce === 'string'
      ? message.nonce
      : undefined
  } catch {
    // Not JSON: not a hello, nothing to refuse (Child.listen would drop it too).
    return undefined
  }
}
