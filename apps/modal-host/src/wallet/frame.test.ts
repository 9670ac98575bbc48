import { beforeEach, expect, test, vi } from 'vitest'

// The wallet frame's edges are faked: the DOM node, the handshake (`Parent.connect`) and the
// runtime settings. How its failures surface as the spec's alerts runs for real.
type Handshake = {
  hello: unknown
  onChannel(channel: unknown): void
  onError(error: unknown): void
}
const handshake = vi.hoisted(() => ({ run: (_parameters: Handshake) => {}, stopped: 0 }))
vi.mock('@porthole/protocol', async (original) => ({
  ...(await original<typeof import('@porthole/protocol')>()),
  Parent: {
    connect: (parameters: Parameters<typeof handshake.run>[0]) => {
      queueMicrotask(() => handshake.run(parameters))
      return () => {
        handshake.stopped++
      }
    },
  },
}))
vi.mock('../runtime.js', () => ({
  runtime: {
    walletUrl: 'http://wallet.test',
    projectId: 'porthole-demo',
    hostOrigin: 'http://localhost:4000',
  },
  SDK_TYPE: 'porthole',
  SDK_VERSION: '0.1.0',
}))
vi.mock('../actions/analytics.js', () => ({ reportError: () => {} }))
// The page's early requests (early.ts reads the page's location as it loads): none here.
vi.mock('../early.js', () => ({ takeEarly: () => undefined }))

const nodes: { src: string; removed: boolean; isConnected: boolean }[] = []
const node = () => {
  const made = {
    setAttribute() {},
    remove() {
      made.removed = true
      made.isConnected = false
    },
    hidden: true,
    src: '',
    removed: false,
    isConnected: true,
  }
  nodes.push(made)
  return made
}
vi.stubGlobal('document', {
  createElement: node,
  body: { append() {} },
  getElementById: () => null,
})

async function load() {
  vi.resetModules()
  const Frame = await import('./frame.js')
  const { store } = await import('../store/store.js')
  return { Frame, store }
}

beforeEach(() => {
  handshake.run = () => {}
  handshake.stopped = 0
  nodes.length = 0
})

test("a login request that times out shows 'Embedded Wallet Request Timed Out'", async () => {
  handshake.run = ({ onChannel }) =>
    onChannel({
      on: (event: string, listener: (data: unknown) => void) => {
        if (event === 'ready') listener({ isConnected: false })
      },
      request: async () => {
        // What the channel rejects with when its timeout passes.
        throw Object.assign(new Error('Request timed out after 120000 ms: connectEmail'), {
          code: -32603,
          data: { timeout: 120_000 },
        })
      },
    })
  const { Frame, store } = await load()
  const error = await Frame.walletRequest('connectEmail', { email: 'a@b.test' } as never).catch(
    (e: unknown) => e,
  )
  expect(error).toMatchObject({ message: 'Embedded Wallet Request Timed Out' })
  expect(store.getState().alert).toEqual({
    code: -32002,
    message: 'Embedded Wallet Request Timed Out',
    fatal: false,
  })
})

test("a request after the frame left the document: 'W3mFrame: iframe is not set' (4900); the next request makes a new frame", async () => {
  // Unit test: no host or user can remove a node of the modal's own document; this is the state
  // a crashed or removed frame leaves (a browser extension, a bug of ours). The e2e test
  // errors.spec.ts removes it from the page for real.
  const asked: string[] = []
  handshake.run = ({ onChannel }) =>
    onChannel({
      on: (event: string, listener: (data: unknown) => void) => {
        if (event === 'ready') listener({ isConnected: false })
      },
      request: async (method: string) => {
        asked.push(method)
        return {}
      },
    })
  const { Frame } = await load()
  await Frame.walletRequest('signOut', {} as never)
  expect(nodes).toHaveLength(1)
  ;(nodes[0] as { isConnected: boolean }).isConnected = false
  await expect(Frame.walletRequest('signOut', {} as never)).rejects.toMatchObject({
    code: 4900,
    message: 'W3mFrame: iframe is not set',
  })
  expect(asked).toEqual(['signOut'])
  await Frame.walletRequest('signOut', {} as never)
  expect(nodes).toHaveLength(2)
  expect(asked).toEqual(['signOut', 'signOut'])
})

test('a request refused for another reason raises no alert', async () => {
  handshake.run = ({ onChannel }) =>
    onChannel({
      on: (event: string, listener: (data: unknown) => void) => {
        if (event === 'ready') listener({ isConnected: false })
      },
      request: async () => {
        throw Object.assign(new Error('Invalid code'), { code: -32602 })
      },
    })
  const { Frame, store } = await load()
  await expect(Frame.walletRequest('connectOtp', { otp: '000000' } as never)).rejects.toThrow(
    'Invalid code',
  )
  expect(store.getState().alert).toBeNull()
})

test("the wallet refusing this site in its handshake shows 'Unverified Domain'", async () => {
  handshake.run = ({ onError }) =>
    onError(Object.assign(new Error('Invalid Project ID'), { code: 4100 }))
  const { Frame, store } = await load()
  await expect(Frame.walletFrame()).rejects.toThrow('Invalid Project ID')
  expect(store.getState().alert).toEqual({ code: 4100, message: 'Unverified Domain', fatal: false })
})

test("a wallet frame that did not load because its origin refuses this modal or site shows 'Unverified Domain'; one that could not load, the network error", async () => {
  for (const [answer, message, alert] of [
    [{ allowed: false, reason: 'Unverified Domain' }, 'Unverified Domain', 4100],
    [{ allowed: true }, 'Network Error - Could not load embedded wallet', -32002],
  ] as const) {
    // The frame's early script (or its load timer) reports that the app never started.
    handshake.run = ({ onError }) =>
      onError(Object.assign(new Error('load failed'), { data: { reason: 'iframe_load_failed' } }))
    const asked: string[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(url)
        return new Response(JSON.stringify(answer), {
          headers: { 'content-type': 'application/json' },
        })
      }),
    )
    try {
      const { Frame, store } = await load()
      const { configureApi } = await import('../api/client.js')
      configureApi('http://api.test', 'porthole-demo')
      await expect(Frame.walletFrame()).rejects.toThrow(message)
      expect(store.getState().alert).toMatchObject({ code: alert, message, fatal: false })
      const query = new URL(asked[0] as string).searchParams
      expect(Object.fromEntries(query)).toMatchObject({
        kind: 'wallet',
        projectId: 'porthole-demo',
        site: 'http://localhost:4000',
        frameOrigin: 'http://wallet.test',
      })
    } finally {
      vi.unstubAllGlobals()
      vi.stubGlobal('document', {
        createElement: node,
        body: { append() {} },
        getElementById: () => null,
      })
    }
  }
})

test('the user named in ready is known at once; requests still wait for the settle delay', async () => {
  vi.useFakeTimers()
  try {
    const user = { address: '0x0000000000000000000000000000000000000001', email: 'a@b.test' }
    handshake.run = ({ onChannel }) =>
      onChannel({
        on: (event: string, listener: (data: unknown) => void) => {
          if (event === 'ready') listener({ isConnected: true, user })
        },
        request: async () => ({ isConnected: true }),
      })
    const { Frame } = await load()
    let settled = false
    void Frame.walletFrame().then(() => {
      settled = true
    })
    await vi.advanceTimersByTimeAsync(0)
    expect(await Frame.announcedUser()).toEqual(user)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(499)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(settled).toBe(true)
  } finally {
    vi.useRealTimers()
  }
})

test('a frame with no session announces null; one that did not describe its user, undefined', async () => {
  for (const [ready, expected] of [
    [{ isConnected: false }, null],
    [{ isConnected: false, user: null }, null],
    [{ isConnected: true }, undefined],
  ] as const) {
    handshake.run = ({ onChannel }) =>
      onChannel({
        on: (event: string, listener: (data: unknown) => void) => {
          if (event === 'ready') listener(ready)
        },
        request: async () => ({}),
      })
    const { Frame } = await load()
    expect(await Frame.announcedUser()).toBe(expected)
  }
})

test('a frame that fails to load announces undefined (the restore then asks and fails as before)', async () => {
  handshake.run = ({ onError }) =>
    onError(Object.assign(new Error('Invalid Project ID'), { code: 4100 }))
  const { Frame } = await load()
  expect(await Frame.announcedUser()).toBeUndefined()
})

test("a frame made before the host's handshake names no language or metadata; one made after, the host's", async () => {
  const hellos: unknown[] = []
  handshake.run = ({ hello }) => hellos.push(typeof hello === 'function' ? hello() : hello)
  let { Frame, store } = await load()
  store.setState({ config: { ...store.getState().config, locale: 'de' } })
  void Frame.walletFrame()
  await Promise.resolve()
  expect(new URL(nodes[0]?.src ?? '').searchParams.get('locale')).toBeNull()
  expect(new URL(nodes[0]?.src ?? '').searchParams.get('projectId')).toBe('porthole-demo')
  expect(hellos[0]).toEqual({ projectId: 'porthole-demo' })
  ;({ Frame, store } = await load())
  store.setState({ config: { ...store.getState().config, locale: 'de' } })
  Frame.hostConfiguredNow()
  void Frame.walletFrame()
  await Promise.resolve()
  expect(new URL(nodes[1]?.src ?? '').searchParams.get('locale')).toBe('de')
  expect(hellos[1]).toMatchObject({ projectId: 'porthole-demo', metadata: expect.anything() })
})

test('a frame made before a handshake the host then fails is dropped: it announces nothing and raises no load alert', async () => {
  vi.useFakeTimers()
  try {
    const { Frame, store } = await load()
    const announced = Frame.announcedUser()
    Frame.dropWalletFrame()
    expect(await announced).toBeUndefined()
    expect(nodes[0]?.removed).toBe(true)
    expect(handshake.stopped).toBe(1)
    expect(Frame.walletFrameStarted()).toBe(false)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(store.getState().alert).toBeNull()
  } finally {
    vi.useRealTimers()
  }
})
