import { afterEach, describe, expect, test, vi } from 'vitest'
import { z } from 'zod'
import type * as Channel from './Channel.js'
import * as Child from './Child.js'
import { NS, VERSION } from './constants.js'
import { DisconnectedError, UnauthorizedError } from './errors.js'
import * as Parent from './Parent.js'
import type { InferContract } from './types.js'
import { fromContract } from './validators.js'

const HOST = 'http://localhost:4000'
const FRAME = 'http://127.0.0.1:4100'

const FrameApi = {
  requests: {
    hang: { params: z.object({}), result: z.null() },
    add: { params: z.object({ a: z.number(), b: z.number() }), result: z.number() },
  },
  events: {},
} as const
type FrameApi = InferContract<typeof FrameApi>
const HostApi = {
  requests: { whoami: { params: z.object({}), result: z.string() } },
  events: {},
} as const
type HostApi = InferContract<typeof HostApi>

/** Two fake windows that post to each other with browser origin semantics. */
function world() {
  const hostWindow = new EventTarget()
  const frameWindow = new EventTarget()
  const targets: string[] = []
  const deliver = (
    to: EventTarget,
    data: unknown,
    origin: string,
    source: unknown,
    ports: MessagePort[] = [],
  ) =>
    queueMicrotask(() =>
      to.dispatchEvent(Object.assign(new Event('message'), { data, origin, source, ports })),
    )
  // What the host sees as the frame's window, and what the frame sees as its parent.
  const frameProxy = {
    postMessage(data: unknown, options: { targetOrigin: string; transfer?: MessagePort[] }) {
      targets.push(options.targetOrigin)
      if (options.targetOrigin === FRAME)
        deliver(frameWindow, data, HOST, hostProxy, options.transfer)
    },
  }
  const hostProxy = {
    postMessage(data: unknown, targetOrigin: string) {
      targets.push(targetOrigin)
      if (targetOrigin === HOST) deliver(hostWindow, data, FRAME, frameProxy)
    },
  }
  const as = <T>(win: EventTarget, fn: () => T): T => {
    ;(globalThis as { window?: unknown }).window = win
    return fn()
  }
  /** Sends a raw message to `to` as if from `origin`/`source`. */
  const inject = (
    to: EventTarget,
    data: unknown,
    origin: string,
    source: unknown,
    ports?: MessagePort[],
  ) => deliver(to, data, origin, source, ports)
  return { hostWindow, frameWindow, frameProxy, hostProxy, targets, as, inject }
}

const stops: (() => void)[] = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})
const tick = () => new Promise((r) => setTimeout(r, 10))

function connectHost(
  w: ReturnType<typeof world>,
  extra: Partial<Parent.ConnectParameters<HostApi>> = {},
) {
  const channels: Channel.Channel<FrameApi, HostApi>[] = []
  const onError = vi.fn()
  const stop = w.as(w.hostWindow, () =>
    Parent.connect<FrameApi, HostApi>({
      frame: { contentWindow: w.frameProxy } as unknown as HTMLIFrameElement,
      origin: FRAME,
      hello: { projectId: 'p1', config: { networks: ['eip155:1'] } },
      validator: fromContract(HostApi),
      handlers: { whoami: () => 'host' },
      onChannel: (c) => channels.push(c as unknown as Channel.Channel<FrameApi, HostApi>),
      onError,
      ...extra,
    }),
  )
  stops.push(stop)
  return { channels, onError }
}

function startFrame(
  w: ReturnType<typeof world>,
  accept?: Child.ListenParameters<FrameApi>['accept'],
  announced?: Child.ListenParameters<FrameApi>['announced'],
) {
  const channels: Channel.Channel<HostApi, FrameApi>[] = []
  const hellos: unknown[] = []
  const stop = w.as(w.frameWindow, () =>
    Child.listen<HostApi, FrameApi>({
      parentOrigin: HOST,
      parent: w.hostProxy as unknown as Window,
      validator: fromContract(FrameApi),
      handlers: { hang: () => new Promise(() => {}), add: ({ a, b }) => a + b },
      ...(accept ? { accept } : {}),
      ...(announced ? { announced } : {}),
      onChannel: (c, hello) => {
        channels.push(c as unknown as Channel.Channel<HostApi, FrameApi>)
        hellos.push(hello)
      },
    }),
  )
  stops.push(stop)
  return { channels, hellos }
}

describe('handshake', () => {
  test('completes and carries requests both ways on the port', async () => {
    const w = world()
    const host = connectHost(w)
    const frame = startFrame(w)
    await vi.waitFor(() => expect(host.channels).toHaveLength(1))
    expect(frame.hellos[0]).toMatchObject({ projectId: 'p1', config: { networks: ['eip155:1'] } })
    expect(await host.channels[0]!.request('add', { a: 2, b: 3 })).toBe(5)
    expect(await frame.channels[0]!.request('whoami', {})).toBe('host')
  })

  test('a hello given as a function is asked at each ready: a reloaded frame hears the host as it is then', async () => {
    const w = world()
    let opened = 0
    const host = connectHost(w, {
      hello: () => ({
        projectId: 'p1',
        config: { networks: ['eip155:1'], opening: { n: opened } },
      }),
    })
    const first = startFrame(w)
    await vi.waitFor(() => expect(host.channels).toHaveLength(1))
    opened = 1
    const second = startFrame(w)
    await vi.waitFor(() => expect(host.channels).toHaveLength(2))
    expect(first.hellos[0]).toMatchObject({ config: { opening: { n: 0 } } })
    expect(second.hellos[0]).toMatchObject({ config: { opening: { n: 1 } } })
  })

  test('a frame that announced itself early (a script posted ready and kept the hello) completes with what it kept, posting ready once', async () => {
    const w = world()
    const host = connectHost(w)
    // The early script: ready posted, the parent's messages kept.
    const received: MessageEvent[] = []
    const keep = (event: Event) => {
      const message = event as MessageEvent
      if (message.source === w.hostProxy && message.origin === HOST) received.push(message)
    }
    w.frameWindow.addEventListener('message', keep)
    w.hostProxy.postMessage(JSON.stringify({ ns: NS, v: VERSION, kind: 'ready' }), HOST)
    // A stranger's hello is kept out by the early script; one that slips in is refused below.
    const { port2: strangerPort } = new MessageChannel()
    w.inject(
      w.frameWindow,
      JSON.stringify({
        ns: NS,
        v: VERSION,
        kind: 'hello',
        nonce: 'n'.repeat(32),
        versions: [1],
        projectId: 'p1',
      }),
      'http://evil.example',
      w.hostProxy,
      [strangerPort],
    )
    await tick()
    w.frameWindow.removeEventListener('message', keep)
    expect(received).toHaveLength(1)
    const forged = Object.assign(new Event('message'), {
      data: JSON.stringify({
        ns: NS,
        v: VERSION,
        kind: 'hello',
        nonce: 'm'.repeat(32),
        versions: [1],
        projectId: 'p1',
      }),
      origin: 'http://evil.example',
      source: w.hostProxy,
      ports: [strangerPort],
    }) as unknown as MessageEvent
    const { channels } = startFrame(w, undefined, { received: [forged, ...received] })
    await vi.waitFor(() => expect(host.channels).toHaveLength(1))
    expect(channels).toHaveLength(1)
    expect(await host.channels[0]!.request('add', { a: 2, b: 3 })).toBe(5)
    // One ready in all (the early one).
    expect(w.targets.filter((t) => t === HOST)).toHaveLength(1)
  })

  test('never posts to "*": every window message names an exact origin', async () => {
    const w = world()
    const host = connectHost(w)
    startFrame(w)
    await vi.waitFor(() => expect(host.channels).toHaveLength(1))
    expect(w.targets.length).toBeGreaterThan(0)
    expect(w.targets.every((t) => t === HOST || t === FRAME)).toBe(true)
  })

  test('ignores a ready from another origin or another window', async () => {
    const w = world()
    const host = connectHost(w)
    const ready = JSON.stringify({ ns: NS, v: VERSION, kind: 'ready' })
    w.inject(w.hostWindow, ready, 'http://evil.example', w.frameProxy)
    w.inject(w.hostWindow, ready, FRAME, { postMessage: vi.fn() })
    await tick()
    expect(w.targets).toEqual([])
    expect(host.channels).toHaveLength(0)
  })

  test('the frame ignores a hello from another origin or with a malformed body', async () => {
    const w = world()
    const frame = startFrame(w)
    const { port2 } = new MessageChannel()
    const hello = {
      ns: NS,
      v: VERSION,
      kind: 'hello',
      nonce: 'n'.repeat(32),
      versions: [1],
      projectId: 'p',
    }
    w.inject(w.frameWindow, JSON.stringify(hello), 'http://evil.example', w.hostProxy, [port2])
    w.inject(w.frameWindow, JSON.stringify({ ...hello, versions: 'one' }), HOST, w.hostProxy, [
      port2,
    ])
    w.inject(w.frameWindow, JSON.stringify(hello), HOST, w.hostProxy, [])
    await tick()
    expect(frame.channels).toHaveLength(0)
    port2.close()
  })

  test('a refused handshake reaches the parent as a typed error', async () => {
    const w = world()
    const host = connectHost(w)
    startFrame(w, () => {
      throw new UnauthorizedError('Origin Not Allowed')
    })
    await vi.waitFor(() => expect(host.onError).toHaveBeenCalledTimes(1))
    expect(host.channels).toHaveLength(0)
    const error = host.onError.mock.calls[0]![0]
    expect(error).toBeInstanceOf(UnauthorizedError)
    expect(error.message).toBe('Origin Not Allowed')
  })

  test('a frame reload mid-request rejects the pending request with 4900 and reconnects', async () => {
    const w = world()
    const host = connectHost(w)
    startFrame(w)
    await vi.waitFor(() => expect(host.channels).toHaveLength(1))
    const pending = host.channels[0]!.request('hang', {}).catch((e: unknown) => e)
    startFrame(w) // the reloaded frame announces itself again
    const error = await pending
    expect(error).toBeInstanceOf(DisconnectedError)
    expect(error).toMatchObject({ code: 4900 })
    await vi.waitFor(() => expect(host.channels).toHaveLength(2))
    expect(await host.channels[1]!.request('add', { a: 1, b: 1 })).toBe(2)
  })
})
