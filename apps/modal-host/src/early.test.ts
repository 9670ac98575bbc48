import { afterEach, beforeEach, expect, test, vi } from 'vitest'

const API = 'http://api.test'
const FRAME = 'http://modal.test/?projectId=p1&origin=https%3A%2F%2Fdapp.test#trace=t1'

type Answers = Record<string, { status: number; body: unknown } | 'network-error'>

let fetched: string[]
let images: string[]

/** A browser page of the modal for early.ts: its meta tag, URL, fetch and Image. */
function page(answers: Answers, apiUrl: string | undefined = API, href = FRAME) {
  fetched = []
  images = []
  const content = apiUrl ? JSON.stringify({ apiUrl }) : '__PORTHOLE_CONFIG__'
  vi.stubGlobal('document', {
    querySelector: (selector: string) =>
      selector === 'meta[name="porthole-config"]' ? { getAttribute: () => content } : null,
  })
  vi.stubGlobal('location', new URL(href))
  vi.stubGlobal('fetch', async (input: string) => {
    fetched.push(input)
    const path = new URL(input).pathname
    const answer = answers[path] ?? { status: 404, body: {} }
    if (answer === 'network-error') throw new TypeError('Failed to fetch')
    return new Response(JSON.stringify(answer.body), { status: answer.status })
  })
  vi.stubGlobal(
    'Image',
    class {
      decoding = ''
      set src(value: string) {
        images.push(value)
      }
    },
  )
}

const wallets = {
  data: ['metamask', 'trust', 'coinbase', 'okx', 'rainbow'].map((id) => ({
    id,
    image_url: `${API}/getWalletImage/${id}?projectId=p1&st=porthole&sv=0.1.0`,
  })),
  count: 5,
}

/** Loads early.ts afresh (it starts on import in a page). */
async function load() {
  vi.resetModules()
  return import('./early.js')
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10))

beforeEach(() => vi.resetModules())
afterEach(() => vi.unstubAllGlobals())

test('on load it asks for the allowlist and the first wallets at once, with request ids of the trace', async () => {
  page({ '/projects/v1/origins': { status: 200, body: { allowedOrigins: [] } } })
  await load()
  expect(fetched).toEqual([
    `${API}/projects/v1/origins?projectId=p1&st=porthole&sv=0.1.0&rid=t1.e1`,
    `${API}/getWallets?projectId=p1&st=porthole&sv=0.1.0&page=1&entries=4&rid=t1.e2`,
  ])
})

test("the app's own request for the same thing takes the early answer once, whatever its request id and parameter order", async () => {
  page({
    '/projects/v1/origins': { status: 200, body: { allowedOrigins: ['https://dapp.test'] } },
    '/getWallets': { status: 200, body: wallets },
  })
  const { takeEarly } = await load()
  const asked = `${API}/projects/v1/origins?st=porthole&projectId=p1&sv=0.1.0&rid=t1.1`
  const first = takeEarly(asked)
  expect(await (await first)?.json()).toEqual({ allowedOrigins: ['https://dapp.test'] })
  expect(takeEarly(asked)).toBeUndefined()
  // Other parameters (a filtered catalogue page) are another request.
  expect(takeEarly(`${API}/getWallets?projectId=p1&st=porthole&sv=0.1.0&page=1&entries=40`)).toBe(
    undefined,
  )
})

test("then it fetches the first wallets' images, which Connect draws; no social logo (they are bundled)", async () => {
  page({
    '/projects/v1/origins': {
      status: 200,
      body: { allowedOrigins: [], features: { socials: ['github', 'google'] } },
    },
    '/getWallets': { status: 200, body: wallets },
  })
  const { takeEarly } = await load()
  await settle()
  expect(images).toEqual(wallets.data.slice(0, 4).map((w) => w.image_url))
  // The app still gets the whole answer (the early script read a copy).
  const answer = await takeEarly(
    `${API}/getWallets?projectId=p1&st=porthole&sv=0.1.0&page=1&entries=4`,
  )
  const body = (await answer?.json()) as typeof wallets | undefined
  expect(body?.data).toHaveLength(5)
})

test('an error answer is handed to the app as it came (its alert), and nothing is preloaded from it', async () => {
  page({
    '/projects/v1/origins': { status: 403, body: { code: 'INVALID_PROJECT_ID' } },
    '/getWallets': { status: 403, body: {} },
  })
  const { takeEarly } = await load()
  await settle()
  expect(images).toEqual([])
  const answer = await takeEarly(`${API}/projects/v1/origins?projectId=p1&st=porthole&sv=0.1.0`)
  expect(answer?.status).toBe(403)
})

test('a request the network dropped is sent again for the app (without the early request id)', async () => {
  page({ '/projects/v1/origins': 'network-error' })
  const { takeEarly } = await load()
  const answer = takeEarly(`${API}/projects/v1/origins?projectId=p1&st=porthole&sv=0.1.0`)
  await expect(answer).rejects.toThrow('Failed to fetch')
  expect(fetched.filter((url) => url.includes('/projects/v1/origins'))).toEqual([
    `${API}/projects/v1/origins?projectId=p1&st=porthole&sv=0.1.0&rid=t1.e1`,
    `${API}/projects/v1/origins?projectId=p1&st=porthole&sv=0.1.0`,
  ])
})

test('nothing is sent without an API URL in the page or a project id in the frame URL', async () => {
  page({}, undefined)
  await load()
  page({}, API, 'http://modal.test/?origin=https%3A%2F%2Fdapp.test')
  await load()
  expect(fetched).toEqual([])
})

test('the API client takes the early answer for its first allowlist request: one request on the wire', async () => {
  page({ '/projects/v1/origins': { status: 200, body: { allowedOrigins: ['https://dapp.test'] } } })
  await load()
  const { configureApi, getAllowedOrigins } = await import('./api/client.js')
  configureApi(API, 'p1', 't1')
  expect(await getAllowedOrigins()).toEqual(['https://dapp.test'])
  expect(fetched.filter((url) => url.includes('/projects/v1/origins'))).toHaveLength(1)
})

/** A frame window for the handshake: its parent, what was posted there, its message listeners. */
function frameWindow() {
  const posted: { data: unknown; origin: string }[] = []
  const parent = { postMessage: (data: unknown, origin: string) => posted.push({ data, origin }) }
  const listeners = new Set<(event: MessageEvent) => void>()
  vi.stubGlobal('window', { parent })
  vi.stubGlobal('addEventListener', (type: string, listener: (event: MessageEvent) => void) => {
    if (type === 'message') listeners.add(listener)
  })
  vi.stubGlobal('removeEventListener', (type: string, listener: (event: MessageEvent) => void) => {
    if (type === 'message') listeners.delete(listener)
  })
  const send = (source: unknown, origin: string, data: string) => {
    for (const listener of listeners) listener({ source, origin, data } as MessageEvent)
  }
  return { parent, posted, listeners, send }
}

test('on load it posts ready to the exact host origin, once, and keeps only what that parent sends', async () => {
  page({})
  const frame = frameWindow()
  const early = await load()
  expect(frame.posted).toEqual([
    { data: JSON.stringify({ ns: 'porthole', v: 1, kind: 'ready' }), origin: 'https://dapp.test' },
  ])
  early.announce()
  expect(frame.posted).toHaveLength(1)
  frame.send(frame.parent, 'https://dapp.test', 'hello')
  frame.send({}, 'https://dapp.test', 'from another window')
  frame.send(frame.parent, 'https://evil.test', 'from another origin')
  // Taken for another origin: nothing (the app then posts ready itself), and the keeping stops.
  expect(early.takeHandshake('https://evil.test')).toBeUndefined()
  expect(frame.listeners.size).toBe(0)
  expect(early.takeHandshake('https://dapp.test')).toBeUndefined()
})

test('the app takes what the host sent, once; then the early script keeps nothing more', async () => {
  page({})
  const frame = frameWindow()
  const early = await load()
  frame.send(frame.parent, 'https://dapp.test', 'hello')
  const taken = early.takeHandshake('https://dapp.test')
  expect(taken?.received.map((event) => event.data)).toEqual(['hello'])
  expect(frame.listeners.size).toBe(0)
  expect(early.takeHandshake('https://dapp.test')).toBeUndefined()
})

test('no ready without an exact host origin in the frame URL, or outside a frame', async () => {
  for (const href of [
    'http://modal.test/?projectId=p1',
    'http://modal.test/?projectId=p1&origin=https%3A%2F%2Fdapp.test%2Fpath',
    'http://modal.test/?projectId=p1&origin=not-a-url',
  ]) {
    page({}, API, href)
    const frame = frameWindow()
    await load()
    expect(frame.posted).toEqual([])
  }
  page({})
  const frame = frameWindow()
  vi.stubGlobal('window', { parent: undefined })
  ;(globalThis.window as { parent: unknown }).parent = globalThis.window
  await load()
  expect(frame.posted).toEqual([])
})
