import { afterEach, expect, test, vi } from 'vitest'
import { createMemoryAdapter } from './memoryAdapter.ts'

afterEach(() => {
  vi.useRealTimers()
})

test('stores copies per model and finds them by id and uid', async () => {
  const { factory } = createMemoryAdapter()
  const sessions = factory('Session')
  const payload = { uid: 'u1', accountId: 'a' }
  await sessions.upsert('s1', payload, 60)
  payload.accountId = 'changed'
  expect(await sessions.find('s1')).toEqual({ uid: 'u1', accountId: 'a' })
  expect(await sessions.findByUid('u1')).toEqual({ uid: 'u1', accountId: 'a' })
  expect(await factory('Grant').find('s1')).toBeUndefined()
})

test('forgets entries once they expire', async () => {
  vi.useFakeTimers()
  const { factory } = createMemoryAdapter()
  const codes = factory('AuthorizationCode')
  await codes.upsert('c1', { grantId: 'g' }, 10)
  vi.advanceTimersByTime(9_000)
  expect(await codes.find('c1')).toBeDefined()
  vi.advanceTimersByTime(1_000)
  expect(await codes.find('c1')).toBeUndefined()
})

test('marks consumed entries and revokes everything of a grant', async () => {
  const { factory, clear } = createMemoryAdapter()
  const codes = factory('AuthorizationCode')
  const tokens = factory('AccessToken')
  await codes.upsert('c1', { grantId: 'g1' }, 60)
  await tokens.upsert('t1', { grantId: 'g1' }, 60)
  await tokens.upsert('t2', { grantId: 'g2' }, 60)
  await codes.consume('c1')
  expect((await codes.find('c1'))?.consumed).toEqual(expect.any(Number))
  await tokens.revokeByGrantId('g1')
  expect(await codes.find('c1')).toBeUndefined()
  expect(await tokens.find('t1')).toBeUndefined()
  expect(await tokens.find('t2')).toBeDefined()
  clear()
  expect(await tokens.find('t2')).toBeUndefined()
})
