import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { NS, VERSION } from './constants.js'
import * as Parent from './Parent.js'
import type { Validator } from './types.js'

const HOST = 'https://dapp.test'
const FRAME = 'https://modal.test'
const NOT_STARTED = { code: 4100, message: 'Network Error - Could not load the modal' }

class FakeScript {}

/**
 * A frame page for announce.ts beside a real `Parent.connect` in the host: the frame's global
 * listeners (message, load, error), what it posted to its parent, its load and script errors.
 */
function pageInFrame() {
  const listeners = new Map<string, Set<(event: unknown) => void>>()
  const on = (type: string) => listeners.get(type) ?? listeners.set(type, new Set()).get(type)!
  const emit = (type: string, event: unknown) => {
    for (const listener of [...on(type)]) listener(event)
  }
  const host = new EventTarget()
  const frame = {
    postMessage(data: string, options: { targetOrigin: string; transfer?: MessagePort[] }) {
      if (options.targetOrigin === FRAME)
        queueMicrotask(() =>
          emit('message', { data, origin: HOST, source: parent, ports: options.transfer ?? [] }),
        )
    },
  }
  const posted: { data: unknown; origin: string }[] = []
  const parent = {
    postMessage(data: string, origin: string) {
      posted.push({ data, origin })
      if (origin === HOST)
        queueMicrotask(() =>
          host.dispatchEvent(
            Object.assign(new Event('message'), { data, origin: FRAME, source: frame }),
          ),
        )
    },
  }
  vi.stubGlobal('window', { parent })
  vi.stubGlobal('document', { readyState: 'loading' })
  vi.stubGlobal('HTMLScriptElement', FakeScript)
  vi.stubGlobal('addEventListener', (type: string, listener: (event: unknown) => void) =>
    on(type).add(listener),
  )
  vi.stubGlobal('removeEventListener', (type: string, listener: (event: unknown) => void) =>
    on(type).delete(listener),
  )
  /** The host page: a real Parent.connect for the frame (its window is `frame`). */
  const connectHost = () => {
    const onError = vi.fn()
    const onChannel = vi.fn()
    const stop = (() => {
      vi.stubGlobal('window', Object.assign(host, { parent }))
      try {
        return Parent.connect({
          frame: { contentWindow: frame } as unknown as HTMLIFrameElement,
          origin: FRAME,
          hello: { projectId: 'p1' },
          // No channel opens in these tests: nothing is validated.
          validator: {} as Validator,
          onChannel,
          onError,
        })
      } finally {
        vi.stubGlobal('window', { parent })
      }
    })()
    stops.push(() => {
      vi.stubGlobal('window', host)
      stop()
    })
    return { onError, onChannel }
  }
  return { posted, emit, listeners: on, connectHost }
}

const stops: (() => void)[] = []
beforeEach(() => vi.resetModules())
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const load = () => import('./announce.js')

test("the announce constants are the protocol's", async () => {
  const { ANNOUNCE_NS, ANNOUNCE_VERSION } = await load()
  expect([ANNOUNCE_NS, ANNOUNCE_VERSION]).toEqual([NS, VERSION])
})

test('the frame code that starts takes the hello and is never refused', async () => {
  vi.useFakeTimers()
  const page = pageInFrame()
  const host = page.connectHost()
  const { announce, takeHandshake, START_GRACE_MS } = await load()
  announce(HOST, NOT_STARTED)
  expect(page.posted).toEqual([
    { data: JSON.stringify({ ns: NS, v: VERSION, kind: 'ready' }), origin: HOST },
  ])
  await vi.advanceTimersByTimeAsync(0)
  const taken = takeHandshake(HOST)
  expect(taken?.received.map((event) => JSON.parse(event.data).kind)).toEqual(['hello'])
  // Taken: every listener is gone, and the grace after the load event refuses nothing.
  for (const type of ['message', 'error', 'load']) expect(page.listeners(type).size).toBe(0)
  page.emit('load', {})
  await vi.advanceTimersByTimeAsync(START_GRACE_MS * 2)
  expect(host.onError).not.toHaveBeenCalled()
})

test("the frame code that never starts: the host's hello is refused with the frame's error 3 s after the load event", async () => {
  vi.useFakeTimers()
  const page = pageInFrame()
  const host = page.connectHost()
  const { announce, takeHandshake, START_GRACE_MS } = await load()
  announce(HOST, NOT_STARTED)
  await vi.advanceTimersByTimeAsync(0)
  page.emit('load', {})
  await vi.advanceTimersByTimeAsync(START_GRACE_MS - 1)
  expect(host.onError).not.toHaveBeenCalled()
  await vi.advanceTimersByTimeAsync(1)
  await vi.waitFor(() => expect(host.onError).toHaveBeenCalledTimes(1))
  const error = host.onError.mock.calls[0]![0]
  expect([error.code, error.message]).toEqual([4100, 'Network Error - Could not load the modal'])
  expect(host.onChannel).not.toHaveBeenCalled()
  // Code that starts after all finds nothing to take: it posts ready itself (the host starts over).
  expect(takeHandshake(HOST)).toBeUndefined()
})

test('a script of the page that fails to load refuses the hello at once, with the data given', async () => {
  const page = pageInFrame()
  const host = page.connectHost()
  const { announce } = await load()
  const notStarted = {
    code: -32002,
    message: 'Network Error',
    data: { reason: 'iframe_load_failed' },
  }
  announce(HOST, notStarted)
  // An image's error is not the app failing.
  page.emit('error', { target: {} })
  await new Promise((resolve) => setTimeout(resolve, 20))
  expect(host.onError).not.toHaveBeenCalled()
  page.emit('error', { target: new FakeScript() })
  await vi.waitFor(() => expect(host.onError).toHaveBeenCalledTimes(1))
  const error = host.onError.mock.calls[0]![0]
  expect([error.code, error.message, error.data]).toEqual([
    -32002,
    'Network Error',
    notStarted.data,
  ])
})

test('a hello that comes after the failure is refused too; messages from elsewhere are not answered', async () => {
  const page = pageInFrame()
  const { announce } = await load()
  announce(HOST, NOT_STARTED)
  page.emit('error', { target: new FakeScript() })
  const answers: string[] = []
  const hello = (origin: string, source: unknown) => {
    const { port1, port2 } = new MessageChannel()
    port1.onmessage = (event) => answers.push(`${origin} ${JSON.parse(event.data).error.message}`)
    const data = JSON.stringify({ ns: NS, v: VERSION, kind: 'hello', nonce: origin })
    page.emit('message', { data, origin, source, ports: [port2] })
    return port1
  }
  const { parent } = globalThis.window as unknown as { parent: unknown }
  const ports = [hello('https://evil.test', parent), hello(HOST, {}), hello(HOST, parent)]
  await vi.waitFor(() => expect(answers).toEqual([`${HOST} ${NOT_STARTED.message}`]))
  for (const port of ports) port.close()
})

test('nothing outside a frame', async () => {
  pageInFrame()
  const parent = { postMessage: vi.fn() }
  const self = { parent }
  Object.assign(self, { parent: self })
  vi.stubGlobal('window', self)
  const { announce, takeHandshake } = await load()
  announce(HOST, NOT_STARTED)
  expect(parent.postMessage).not.toHaveBeenCalled()
  expect(takeHandshake(HOST)).toBeUndefined()
})
