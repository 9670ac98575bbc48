/**
 * A new user's e-mail sign-in (issue 26, code → connected): the wallet is named to the frame's
 * listener as soon as its key exists, before the share set is stored, so the chain's reads of
 * its account run beside the API's; and the sign-in's own answer names the user, so the
 * `getUser` that follows asks the API again only once that answer is no longer fresh. The API
 * and the recovery service are replaced at their module edges; the key is made and split for
 * real in a stand-in for the signer Worker.
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest'

const edge = vi.hoisted(() => ({
  /** What happened, in order: API calls and the wallet being named. */
  events: [] as string[],
}))
vi.mock('./api.js', async (original) => {
  const real = await original<typeof import('./api.js')>()
  const record =
    <T>(name: string, answer: () => T) =>
    async () => {
      edge.events.push(name)
      return answer()
    }
  return {
    ...real,
    startEmail: record('startEmail', () => ({ action: 'VERIFY_OTP' })),
    verifyEmail: record('verifyEmail', () => ({
      user: { id: 'u1', email: 'ada@example.com', socialProvider: null, username: null },
      recovery: 'automatic',
    })),
    getShares: record('getShares', () => {
      throw new real.ApiError(404, {
        code: 'NOT_FOUND',
        message: 'no shares',
        recovery: 'automatic',
      })
    }),
    putShares: record('putShares', () => ({})),
    me: record('me', () => ({
      user: { id: 'u1', email: 'ada@example.com', socialProvider: null, username: null },
      recovery: 'automatic',
      authenticatedAt: 1,
    })),
  }
})
vi.mock('./recovery.js', async (original) => ({
  ...(await original<typeof import('./recovery.js')>()),
  encryptShare: async () => {
    edge.events.push('encryptShare')
    return 'sealed'
  },
}))
vi.mock('./signer.js', async () => {
  const Keys = await import('./keys.js')
  return {
    startSigner: () => {},
    signer: {
      create: async () => {
        const { address, shares } = await Keys.createKey()
        return { address, shares }
      },
      signShares: async () => `0x${'11'.repeat(65)}`,
      solanaAddress: async () => null,
    },
  }
})

const Session = await import('./session.js')

let named: string[] = []
beforeEach(() => {
  edge.events = []
  named = []
  Session.onWalletNamed((address) => {
    named.push(address)
    edge.events.push('named')
  })
  Session.setSite('https://dapp.example')
})
afterEach(() => {
  vi.useRealTimers()
})

test("a new wallet is named before its share set is stored, and getUser trusts the sign-in's answer while it is fresh", async () => {
  const start = Date.now()
  vi.useFakeTimers({ toFake: ['Date'], now: start })
  expect(await Session.connectEmail('ada@example.com')).toBe('VERIFY_OTP')
  expect(await Session.connectOtp('123456')).toBeNull()
  const user = Session.user()
  expect(user?.email).toBe('ada@example.com')
  expect(named).toEqual([user?.address])
  expect(edge.events).toEqual([
    'startEmail',
    'verifyEmail',
    'getShares',
    'named',
    'encryptShare',
    'putShares',
  ])
  // The sign-in read the user moments ago: no second read.
  await Session.refreshUser()
  expect(edge.events).not.toContain('me')
  // Later (an e-mail changed in another tab shows up), the API is asked again.
  vi.setSystemTime(start + 2_001)
  await Session.refreshUser()
  expect(edge.events.filter((event) => event === 'me')).toHaveLength(1)
  // And it stands for a while again.
  await Session.refreshUser()
  expect(edge.events.filter((event) => event === 'me')).toHaveLength(1)
})
