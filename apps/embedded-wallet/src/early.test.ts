import { afterEach, expect, test, vi } from 'vitest'

const API = 'http://api.test'
const FRAME = 'http://wallet.test/?projectId=p1'

let fetched: { url: string; credentials: RequestCredentials | undefined }[]
const items = new Map<string, string>()

/** A wallet frame page for early.ts: its meta tags, URL, storage and fetch. */
function page(options: { frame?: boolean; apiUrl?: string } = {}) {
  fetched = []
  const content = JSON.stringify({ apiUrl: options.apiUrl ?? API })
  vi.stubGlobal('document', {
    querySelector: (selector: string) =>
      selector === 'meta[name="porthole-config"]'
        ? { getAttribute: () => content }
        : selector === 'meta[name="porthole-early"]' && options.frame !== false
          ? {}
          : null,
  })
  vi.stubGlobal('location', new URL(FRAME))
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => items.set(key, value),
    removeItem: (key: string) => items.delete(key),
  })
  vi.stubGlobal('fetch', async (input: URL, init?: RequestInit) => {
    fetched.push({ url: String(input), credentials: init?.credentials })
    return new Response('{}', { status: 200 })
  })
}

/** Loads early.ts afresh (it starts on import in the frame's page), with a device share or not. */
async function load(withShare: boolean) {
  vi.resetModules()
  // No IndexedDB under Node: the storage keeps the share in memory, per module instance.
  const Storage = await import('./storage.js')
  if (withShare)
    await Storage.saveDeviceShare({
      setId: 's1',
      address: '0x1111111111111111111111111111111111111111',
      share: new Uint8Array([1, 2, 3, 1]),
    })
  return import('./early.js')
}

afterEach(() => {
  vi.unstubAllGlobals()
  items.clear()
})

test('a returning user: the session and the share set are asked with the cookie, taken once', async () => {
  page()
  const taken = (await load(true)).takeEarly()
  expect(taken).toBeDefined()
  expect(await taken?.record).toMatchObject({ setId: 's1' })
  const answers = await taken?.answers
  expect(answers).toBeDefined()
  await Promise.all([answers?.me, answers?.shares])
  expect(fetched.map((f) => new URL(f.url).pathname)).toEqual(['/auth/v1/me', '/auth/v1/shares'])
  for (const { url, credentials } of fetched) {
    expect(Object.fromEntries(new URL(url).searchParams)).toEqual({
      projectId: 'p1',
      st: 'porthole-wallet',
      sv: '0.1.0',
    })
    expect(credentials).toBe('include')
  }
})

test('nothing is asked without a device share, with a sign-out still owed, or outside the frame page', async () => {
  page()
  let taken = (await load(false)).takeEarly()
  expect(await taken?.answers).toBeUndefined()
  items.set('porthole-wallet:logoutPending', '1')
  taken = (await load(true)).takeEarly()
  expect(await taken?.answers).toBeUndefined()
  items.clear()
  page({ frame: false })
  expect((await load(true)).takeEarly()).toBeUndefined()
  expect(fetched).toEqual([])
})

test('what was read early is given once: the next restore reads and asks itself', async () => {
  page()
  const Early = await load(true)
  expect(Early.takeEarly()).toBeDefined()
  expect(Early.takeEarly()).toBeUndefined()
  Early.startEarly()
  expect(Early.takeEarly()).toBeUndefined()
})

test('a share noted in localStorage starts the session check without waiting for IndexedDB; the note follows the share', async () => {
  page()
  let Early = await load(true)
  expect(items.get('porthole-wallet:deviceShare')).toBe(
    '0x1111111111111111111111111111111111111111',
  )
  await Promise.all(Object.values((await Early.takeEarly()?.answers) ?? {}))
  // The next load, whose storage here holds no share (a fresh module): asked on the note alone,
  // not on the record, which then says there is none (the restore stops there) and the note goes.
  fetched = []
  Early = await load(false)
  const taken = Early.takeEarly()
  await Promise.all(Object.values((await taken?.answers) ?? {}))
  expect(fetched.map((f) => new URL(f.url).pathname)).toEqual(['/auth/v1/me', '/auth/v1/shares'])
  expect(await taken?.record).toBeUndefined()
  expect(items.has('porthole-wallet:deviceShare')).toBe(false)
})
