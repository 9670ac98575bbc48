/**
 * A returning user's restore (issue 26): the frame names the user as soon as the API confirmed
 * the session and its share set names this device's wallet, before the key is rebuilt — and never
 * when the API no longer knows the session. The API is replaced at its module edge; the device
 * share is stored for real (this origin's storage, in memory under Node) and the key is split and
 * rebuilt for real, in a stand-in for the signer Worker whose rebuild the test holds back.
 */
import { bytesToHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { beforeEach, expect, test, vi } from 'vitest'
import type { StoredDeviceShare } from './storage.js'

const api = vi.hoisted(() => ({
  me: vi.fn(),
  getShares: vi.fn(),
  pendingLogout: false,
  logout: vi.fn(async () => {}),
}))
vi.mock('./api.js', async (original) => ({
  ...(await original<typeof import('./api.js')>()),
  me: api.me,
  getShares: api.getShares,
  hasPendingLogout: () => api.pendingLogout,
  logout: api.logout,
}))
/** The signer Worker: rebuilds with the real key code, once `release` is called. */
const worker = vi.hoisted(() => ({
  rebuilds: 0,
  release: () => {},
  held: Promise.resolve(),
  fail: false,
  solana: null as string | null,
}))
vi.mock('./signer.js', async () => {
  const Keys = await import('./keys.js')
  const { privateKeyToAccount } = await import('viem/accounts')
  const { bytesToHex } = await import('viem')
  return {
    startSigner: () => {},
    signer: {
      async restore(a: Uint8Array, b: Uint8Array) {
        worker.rebuilds++
        await worker.held
        if (worker.fail) throw new Error('The share does not decrypt to a point of this set')
        const { key } = await Keys.rebuildKey(a, b)
        worker.solana = Keys.solanaKeyOf(key).address
        return privateKeyToAccount(bytesToHex(key)).address
      },
      solanaAddress: async () => worker.solana,
    },
  }
})

const Keys = await import('./keys.js')
const Api = await import('./api.js')
const Storage = await import('./storage.js')
const Session = await import('./session.js')

const USER = { id: 'u1', email: 'ada@example.com', socialProvider: null, username: null }

/** A wallet whose device share this device holds (stored as a sign-in stores it). */
async function wallet(options: { solana?: boolean } = {}) {
  const { key, shares } = await Keys.createKey()
  const [device, auth] = shares as [Uint8Array, Uint8Array]
  const address = privateKeyToAccount(bytesToHex(key)).address
  const solanaAddress = Keys.solanaKeyOf(key).address
  await Storage.saveDeviceShare({
    setId: 'set-1',
    address,
    ...(options.solana === false ? {} : { solanaAddress }),
    share: new Uint8Array(device),
  })
  const stored = {
    setId: 'set-1',
    deviceX: Keys.xOf(device),
    address: address.toLowerCase(),
    authShare: Api.toBase64(auth),
    recovery: { kind: 'automatic' as const, ciphertext: null },
    policy: 'automatic' as const,
  }
  return { address, solanaAddress, stored }
}

/** Holds the signer's rebuild until the returned function is called. */
function holdRebuild(): () => void {
  let release = () => {}
  worker.held = new Promise<void>((resolve) => {
    release = resolve
  })
  return release
}

const settled = async <T>(promise: Promise<T>) => {
  let done = false
  void promise.then(() => {
    done = true
  })
  await new Promise((resolve) => setTimeout(resolve, 20))
  return done
}

beforeEach(async () => {
  await Storage.clearDeviceShare()
  worker.rebuilds = 0
  worker.fail = false
  worker.solana = null
  worker.held = Promise.resolve()
  api.pendingLogout = false
  api.me.mockReset()
  api.getShares.mockReset()
  api.logout.mockClear()
})

test('names the user once the API confirmed the session and its shares, before the key is rebuilt', async () => {
  const { address, solanaAddress, stored } = await wallet()
  api.me.mockResolvedValue({ user: USER, recovery: 'automatic', authenticatedAt: 1 })
  api.getShares.mockResolvedValue(stored)
  const release = holdRebuild()
  const restoring = Session.restore()
  expect(await restoring.owner).toBe(address)
  expect(await restoring.confirmed).toMatchObject({
    email: 'ada@example.com',
    address,
    accounts: [{ address, type: 'eoa' }],
    solanaAddress,
  })
  // The key is still being rebuilt: nothing acts as the user yet.
  expect(await settled(restoring.done)).toBe(false)
  expect(Session.user()).toBeNull()
  release()
  expect(await restoring.done).toMatchObject({ address, solanaAddress })
  expect(Session.user()).toMatchObject({ address })
})

test('a session the API no longer knows is never named, and no key is rebuilt', async () => {
  await wallet()
  api.me.mockRejectedValue(new Api.ApiError(401, { code: 'UNAUTHORIZED', message: 'no session' }))
  api.getShares.mockRejectedValue(
    new Api.ApiError(401, { code: 'UNAUTHORIZED', message: 'no session' }),
  )
  const restoring = Session.restore()
  expect(await restoring.confirmed).toBeNull()
  expect(await restoring.done).toBeNull()
  expect(worker.rebuilds).toBe(0)
  expect(Session.user()).toBeNull()
})

test('a sign-out the API did not hear is finished, never restored', async () => {
  await wallet()
  api.pendingLogout = true
  const restoring = Session.restore()
  expect(await restoring.confirmed).toBeNull()
  expect(api.logout).toHaveBeenCalledTimes(1)
  expect(api.me).not.toHaveBeenCalled()
})

test("shares of another wallet are not named early: the rebuild decides (here, this device's share fails)", async () => {
  const { stored } = await wallet()
  const other = await Keys.createKey()
  api.me.mockResolvedValue({ user: USER, recovery: 'automatic', authenticatedAt: 1 })
  api.getShares.mockResolvedValue({
    ...stored,
    address: privateKeyToAccount(bytesToHex(other.key)).address.toLowerCase(),
    authShare: Api.toBase64(other.shares[1] as Uint8Array),
  })
  const release = holdRebuild()
  const restoring = Session.restore()
  expect(await settled(restoring.confirmed)).toBe(false)
  release()
  expect(await restoring.confirmed).toBeNull()
  expect(await restoring.done).toBeNull()
})

test('a share stored before the Solana address was kept waits for the key, then is stored with it', async () => {
  const { address, solanaAddress, stored } = await wallet({ solana: false })
  api.me.mockResolvedValue({ user: USER, recovery: 'automatic', authenticatedAt: 1 })
  api.getShares.mockResolvedValue(stored)
  const release = holdRebuild()
  const restoring = Session.restore()
  expect(await settled(restoring.confirmed)).toBe(false)
  release()
  expect(await restoring.confirmed).toMatchObject({ address, solanaAddress })
  expect(await Storage.loadDeviceShare()).toMatchObject({ address, solanaAddress })
})

test('a rebuild that fails after the user was named ends the restore (done is null)', async () => {
  const { address, stored } = await wallet()
  api.me.mockResolvedValue({ user: USER, recovery: 'automatic', authenticatedAt: 1 })
  api.getShares.mockResolvedValue(stored)
  worker.fail = true
  const restoring = Session.restore()
  expect(await restoring.confirmed).toMatchObject({ address })
  expect(await restoring.done).toBeNull()
  expect(Session.user()).toBeNull()
})

test("the share's stored addresses are bound to it: a changed Solana address does not decrypt", async () => {
  const { address, solanaAddress } = await wallet()
  const record = await Storage.readDeviceShare()
  expect(record).toMatchObject({ address, solanaAddress })
  const forged = { ...(record as StoredDeviceShare), solanaAddress: '1'.repeat(32) }
  expect(await Storage.openDeviceShare(forged)).toBeUndefined()
  expect(await Storage.openDeviceShare(record)).toMatchObject({ address, solanaAddress })
})
