/**
 * A typed, validated request/response + event channel over one `MessagePort` (DESIGN §2).
 * Both ends use it: messages travel as JSON text, are size-capped, validated, paired by id,
 * and ids must strictly increase (a replayed id is dropped).
 */
import { LIVENESS, MAX_MESSAGE_SIZE, NS, VERSION } from './constants.js'
import {
  DisconnectedError,
  fromErrorObject,
  InvalidParamsError,
  MethodNotFoundError,
  type ProviderRpcError,
  ResourceUnavailableError,
  toErrorObject,
  UserRejectedRequestError,
} from './errors.js'
import type { Envelope } from './schemas.js'
import type { Contract, Validator } from './types.js'

/** Context given to a request handler. */
export type HandlerContext = { id: number; signal: AbortSignal }

/** Handlers for the requests a side receives. */
export type Handlers<In extends Contract> = {
  [M in keyof In['requests']]?: (
    params: In['requests'][M]['params'],
    context: HandlerContext,
  ) => In['requests'][M]['result'] | Promise<In['requests'][M]['result']>
}

/** Options of one outbound request. */
export type RequestOptions = {
  /** Milliseconds before the request rejects; omit for requests that wait on a user. */
  timeout?: number | undefined
  /** Aborting it sends `cancel` and rejects at once. */
  signal?: AbortSignal | undefined
}

/** Parameters of {@link create}. */
export type CreateParameters<In extends Contract> = {
  port: MessagePort
  validator: Validator
  handlers?: Handlers<In>
  /** Called once when the channel closes, with the reason. */
  onClose?: (error: ProviderRpcError) => void
  /** Logs dropped messages to the console. */
  debug?: boolean
}

/** A live channel: send requests and events of `Out`, receive those of `In`. */
export type Channel<Out extends Contract, In extends Contract> = {
  request<M extends keyof Out['requests'] & string>(
    method: M,
    params: Out['requests'][M]['params'],
    options?: RequestOptions,
  ): Promise<Out['requests'][M]['result']>
  emit<T extends keyof Out['events'] & string>(topic: T, data: Out['events'][T]): void
  on<T extends keyof In['events'] & string>(
    topic: T,
    listener: (data: In['events'][T]) => void,
  ): () => void
  /** Round-trips a ping; rejects when no pong comes back in time. */
  ping(timeout?: number): Promise<void>
  /** Rejects everything pending with `error` (default 4900) and closes the port. */
  close(error?: ProviderRpcError): void
  readonly closed: boolean
}

type Pending = {
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
  timer: ReturnType<typeof setTimeout> | undefined
}

/**
 * Opens a channel on a port whose other end has completed the handshake.
 *
 * @example
 * const channel = Channel.create<HostToModal, ModalToHost>({ port, validator })
 * const result = await channel.request('switchNetwork', { caipNetworkId: 'eip155:1' })
 */
export function create<Out extends Contract, In extends Contract>(
  parameters: CreateParameters<In>,
): Channel<Out, In> {
  const { port, validator, onClose, debug } = parameters
  const handlers: Record<string, Handlers<In>[string]> = { ...parameters.handlers }
  const listeners = new Map<string, Set<(data: unknown) => void>>()
  const pending = new Map<number, Pending>()
  const inbound = new Map<number, AbortController>()
  const pings = new Map<number, () => void>()
  let lastId = 0
  let lastInbound = 0
  let closed = false
  let liveness: ReturnType<typeof setInterval> | undefined

  const drop = (raw?: unknown) => {
    if (debug) console.warn('[porthole] dropped message', raw)
  }
  const post = (message: Record<string, unknown>) => {
    if (!closed) port.postMessage(JSON.stringify({ ns: NS, v: VERSION, ...message }))
  }
  const settle = (id: number) => {
    const entry = pending.get(id)
    if (!entry) return undefined
    pending.delete(id)
    clearTimeout(entry.timer)
    if (!pending.size) {
      clearInterval(liveness)
      liveness = undefined
    }
    return entry
  }
  const reply = (id: number, outcome: { result: unknown } | { error: unknown }) => {
    inbound.delete(id)
    if ('error' in outcome) post({ kind: 'res', id, error: toErrorObject(outcome.error) })
    else post({ kind: 'res', id, result: outcome.result ?? null })
  }

  const receive = (message: Envelope) => {
    const { kind, id } = message
    if (kind === 'req' || kind === 'evt') {
      if (id <= lastInbound) return drop(message)
      lastInbound = id
    }
    if (kind === 'req') {
      const handler = handlers[message.method]
      const checked = handler && validator.params(message.method, message.params)
      if (!checked)
        return reply(id, { error: new MethodNotFoundError(`Method not found: ${message.method}`) })
      if (!checked.success)
        return reply(id, { error: new InvalidParamsError(`Invalid params for ${message.method}`) })
      const controller = new AbortController()
      inbound.set(id, controller)
      Promise.resolve()
        .then(() => handler(checked.data as never, { id, signal: controller.signal }))
        .then(
          (result) => !controller.signal.aborted && reply(id, { result }),
          (error: unknown) => !controller.signal.aborted && reply(id, { error }),
        )
    } else if (kind === 'res') {
      const entry = settle(id)
      if (!entry) return drop(message)
      if (message.error) entry.reject(fromErrorObject(message.error))
      else entry.resolve(message.result)
    } else if (kind === 'evt') {
      const checked = validator.event(message.topic, message.data)
      if (!checked?.success) return drop(message)
      for (const listener of listeners.get(message.topic) ?? []) {
        try {
          listener(checked.data)
        } catch (error) {
          console.error(error)
        }
      }
    } else if (kind === 'cancel') {
      inbound.get(id)?.abort(new UserRejectedRequestError('Request was aborted'))
      inbound.delete(id)
    } else if (kind === 'ping') {
      post({ kind: 'pong', id })
    } else {
      pings.get(id)?.()
    }
  }

  port.onmessage = (event: MessageEvent) => {
    if (closed) return
    const message = validator.envelope(parseText(event.data))
    if (!message) return drop(event.data)
    receive(message)
  }

  const ping = (timeout = LIVENESS.timeout) =>
    new Promise<void>((resolve, reject) => {
      const id = ++lastId
      const timer = setTimeout(() => {
        pings.delete(id)
        reject(new ResourceUnavailableError('Ping timed out'))
      }, timeout)
      pings.set(id, () => {
        pings.delete(id)
        clearTimeout(timer)
        resolve()
      })
      post({ kind: 'ping', id })
    })

  const close = (error: ProviderRpcError = new DisconnectedError('Disconnected')) => {
    if (closed) return
    closed = true
    clearInterval(liveness)
    for (const id of [...pending.keys()]) settle(id)?.reject(error)
    for (const controller of inbound.values()) controller.abort(error)
    inbound.clear()
    port.onmessage = null
    port.close()
    onClose?.(error)
  }

  return {
    get closed() {
      return closed
    },
    request(method, params, options = {}) {
      const { timeout, signal } = options
      if (closed) return Promise.reject(new DisconnectedError('Disconnected'))
      if (signal?.aborted) return Promise.reject(abortReason(signal))
      return new Promise((resolve, reject) => {
        const id = ++lastId
        const cancel = (error: unknown) => {
          if (!settle(id)) return
          post({ kind: 'cancel', id })
          reject(error)
        }
        pending.set(id, {
          resolve,
          reject,
          timer:
            timeout === undefined
              ? undefined
              : setTimeout(
                  () =>
                    cancel(
                      new ResourceUnavailableError(
                        `Request timed out after ${timeout} ms: ${method}`,
                        { data: { timeout } },
                      ),
                    ),
                  timeout,
                ),
        })
        signal?.addEventListener('abort', () => cancel(abortReason(signal)), { once: true })
        // While anything is pending, probe the other side: requests that wait on a user
        // have no timeout of their own, and a frame that died must not leave them hanging.
        if (!liveness)
          liveness = setInterval(() => {
            ping().catch(() => close(new DisconnectedError('Frame stopped responding')))
          }, LIVENESS.interval)
        post({ kind: 'req', id, method, params })
      }) as never
    },
    emit(topic, data) {
      post({ kind: 'evt', id: ++lastId, topic, data })
    },
    on(topic, listener) {
      const set = listeners.get(topic) ?? new Set()
      listeners.set(topic, set)
      set.add(listener as (data: unknown) => void)
      return () => set.delete(listener as (data: unknown) => void)
    },
    ping,
    close,
  }
}

/**
 * Parses a JSON text message of bounded size; anything else (objects, oversized text, bad
 * JSON) gives `undefined`.
 *
 * @example
 * const message = parseText(event.data)
 */
export function parseText(data: unknown): unknown {
  if (typeof data !== 'string' || data.length > MAX_MESSAGE_SIZE) return undefined
  try {
    return JSON.parse(data)
  } catch {
    return undefined
  }
}

function abortReason(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason
  return reason instanceof Error && reason.name !== 'AbortError'
    ? reason
    : new UserRejectedRequestError('Request was aborted')
}
