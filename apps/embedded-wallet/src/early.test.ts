import { afterEach, expect, test, vi } from 'vitest'

const API = 'http://api.test'
const FRAME = 'http://wallet.test/?projectId=p1'

let fetched: { url: string; credentials: RequestCredentials | undefined }[]
const items = new Map<string, string>()

/** A wallet frame page for early.ts: its meta tags, URL, storage and fetch. */
function page(
  options: { frame?: boolean; apiUrl?: string; me?: { status: number; body: unknown } } = {},
) {
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
    const me = new URL(String(input)).pathname === '/auth/v1/me' ? options.me : undefined
    return new Response(JSON.stringify(me?.body ?? {}), { status: me?.status ?? 200 })
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

const OWNER = '0x1111111111111111111111111111111111111111'
const SMART = '0x2222222222222222222222222222222222222222'
const OTHER = '0x3333333333333333333333333333333333333333'
const ME = {
  user: { id: 'u1', email: 'a@ph.test', username: null, socialProvider: null },
  recovery: 'automatic',
  authenticatedAt: 1,
}
/** A restore note as the frame writes it (`storage.ts`), for the device share's wallet. */
const note = (userId = 'u1', owner = OWNER, active = SMART) =>
  JSON.stringify({
    userId,
    user: {
      address: active,
      chainId: 31337,
      accounts: [
        { address: owner, type: 'eoa' },
        { address: SMART, type: 'smartAccount' },
      ],
      preferredAccountType: 'smartAccount',
      smartAccountDeployed: true,
    },
  })

/** The user the early script announces on the next load, with `restoreNote` in storage. */
async function announced(
  restoreNote: string | undefined,
  me = { status: 200, body: ME as unknown },
) {
  page({ me })
  // The last load left a device share (and its note) here.
  const Storage = await import('./storage.js')
  await Storage.saveDeviceShare({ setId: 's1', address: OWNER, share: new Uint8Array([1]) })
  if (restoreNote) items.set('porthole-wallet:restoreNote', restoreNote)
  vi.resetModules()
  const Early = await import('./early.js')
  const user = await Early.noted()
  // The restore still reads the same answer in full.
  const answers = await Early.takeEarly()?.answers
  if (answers) expect(await (await answers.me).json()).toEqual(me.body)
  return user
}

test("a restore note is announced once /auth/v1/me confirms the same user's session: its accounts with the API's fields", async () => {
  expect(await announced(note())).toEqual({
    email: 'a@ph.test',
    userName: null,
    socialProvider: null,
    address: SMART,
    chainId: 31337,
    accounts: [
      { address: OWNER, type: 'eoa' },
      { address: SMART, type: 'smartAccount' },
    ],
    preferredAccountType: 'smartAccount',
    smartAccountDeployed: true,
  })
})

test("nothing is announced for another user's session, a session the API refused, or without a note", async () => {
  expect(await announced(note('u2'))).toBeUndefined()
  expect(
    await announced(note(), { status: 401, body: { message: 'Unauthorized' } }),
  ).toBeUndefined()
  expect(await announced(note(), { status: 200, body: { user: null } })).toBeUndefined()
  expect(await announced(undefined)).toBeUndefined()
})

test("a note that is not the device share's wallet, or malformed, is not announced", async () => {
  // Another owner than the device share's address.
  expect(await announced(note('u1', OTHER, OTHER))).toBeUndefined()
  // An active account that is none of its accounts.
  expect(await announced(note('u1', OWNER, OTHER))).toBeUndefined()
  expect(await announced('{"userId":"u1","user":{"address":"0x1"}}')).toBeUndefined()
  expect(await announced('not json')).toBeUndefined()
})

test('nothing is announced with a sign-out still owed; a device share of another wallet drops the note', async () => {
  page({ me: { status: 200, body: ME } })
  items.set('porthole-wallet:logoutPending', '1')
  items.set('porthole-wallet:restoreNote', note())
  items.set('porthole-wallet:deviceShare', OWNER)
  vi.resetModules()
  expect(await (await import('./early.js')).noted()).toBeUndefined()
  expect(fetched).toEqual([])
  const Storage = await import('./storage.js')
  await Storage.saveDeviceShare({ setId: 's2', address: OTHER, share: new Uint8Array([1]) })
  expect(items.has('porthole-wallet:restoreNote')).toBe(false)
})
