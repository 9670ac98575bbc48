import { afterEach, beforeEach, expect, test } from 'vitest'
import { type FakeApi, startFakeApi } from './internal/fakeApi.ts'
import { createProjectOriginsCache, fetchProjectOrigins } from './projectOrigins.ts'

let api: FakeApi
beforeEach(async () => {
  api = await startFakeApi({ projects: { 'porthole-demo': ['http://localhost:4000'] } })
})
afterEach(() => api.close())

test('reads a known project with the sdk type and version of a static server', async () => {
  expect(await fetchProjectOrigins({ apiUrl: api.url, projectId: 'porthole-demo' })).toEqual({
    status: 'found',
    allowedOrigins: ['http://localhost:4000'],
  })
  expect(api.requests).toEqual(['/projects/v1/origins?projectId=porthole-demo&st=static&sv=1'])
})

test('an unknown or malformed project is unknown; a malformed one never reaches the API', async () => {
  expect(await fetchProjectOrigins({ apiUrl: api.url, projectId: 'nope' })).toEqual({
    status: 'unknown',
  })
  expect(await fetchProjectOrigins({ apiUrl: api.url, projectId: '../x?y=1' })).toEqual({
    status: 'unknown',
  })
  expect(api.requests).toHaveLength(1)
})

test("API errors and an unreachable API are unavailable, with the spec's alert (§8)", async () => {
  api.failWith = 500
  expect(await fetchProjectOrigins({ apiUrl: api.url, projectId: 'porthole-demo' })).toEqual({
    status: 'unavailable',
    reason: 'Server Error',
  })
  api.failWith = 429
  expect(await fetchProjectOrigins({ apiUrl: api.url, projectId: 'porthole-demo' })).toEqual({
    status: 'unavailable',
    reason: 'Rate Limited',
  })
  const closed = api.url
  await api.close()
  api = await startFakeApi()
  expect(await fetchProjectOrigins({ apiUrl: closed, projectId: 'porthole-demo' })).toEqual({
    status: 'unavailable',
    reason: 'Server Error',
  })
})

test('the cache shares one request and sees an allowlist change once the TTL has passed', async () => {
  const cache = createProjectOriginsCache({ apiUrl: api.url, ttlMs: 300 })
  const [a, b] = await Promise.all([cache.get('porthole-demo'), cache.get('porthole-demo')])
  expect(a).toEqual(b)
  expect(api.requests).toHaveLength(1)
  api.projects.set('porthole-demo', ['https://app.example.com'])
  expect(await cache.get('porthole-demo')).toEqual(a)
  await new Promise((resolve) => setTimeout(resolve, 350))
  expect(await cache.get('porthole-demo')).toEqual({
    status: 'found',
    allowedOrigins: ['https://app.example.com'],
  })
  expect(api.requests).toHaveLength(2)
})

test('the cache keeps at most maxEntries projects', async () => {
  const cache = createProjectOriginsCache({ apiUrl: api.url, maxEntries: 2 })
  for (const id of ['a1', 'a2', 'a3', 'a1']) await cache.get(id)
  // a1 was evicted by a3, so it is fetched again.
  expect(api.requests.map((r) => new URL(r, 'http://x').searchParams.get('projectId'))).toEqual([
    'a1',
    'a2',
    'a3',
    'a1',
  ])
})
