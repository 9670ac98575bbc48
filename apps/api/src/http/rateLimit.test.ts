import { DEMO_PROJECT_ID } from '@porthole/shared'
import { afterEach, describe, expect, test } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../test/databases.js'
import { createTestApp, PROJECT_ID, type TestApp } from '../../test/testApp.js'
import type { ApiConfigOverrides } from '../config.js'
import type { Db, SqlValue } from '../db/Db.js'
import { openDatabase } from '../db/openDatabase.js'
import { type StartApiReturnType, startApi } from '../server.js'

// The attacker's side: one client, one project's bucket of 3, and every trick that used to earn a
// fresh bucket. Requests go over real HTTP so the socket's peer is what the server sees.
describe('rate limits cannot be dodged', () => {
  let api: StartApiReturnType | undefined
  let target: TestDatabase | undefined
  afterEach(async () => {
    await api?.close()
    await target?.cleanup()
    api = target = undefined
  })

  const start = async (trustProxy: number) => {
    target = await createTestDatabase('sqlite')
    api = await startApi({
      port: 0,
      databaseUrl: target.url,
      rateLimit: { ratePerSecond: 0.01, burst: 3 },
      trustProxy,
    })
    return api.url
  }
  const origins = (url: string, projectId: string, headers: Record<string, string> = {}) =>
    fetch(`${url}/projects/v1/origins?projectId=${encodeURIComponent(projectId)}`, { headers })

  test('respellings of a project id ("shop ", "\\tshop", "shop\\u00a0") are refused and share one bucket', async () => {
    const url = await start(0)
    for (const spelling of [
      `${DEMO_PROJECT_ID} `,
      `\t${DEMO_PROJECT_ID}`,
      `${DEMO_PROJECT_ID}\u00a0`,
    ]) {
      const response = await origins(url, spelling)
      expect(response.status).toBe(403)
      expect(await response.json()).toMatchObject({ code: 'INVALID_PROJECT_ID' })
    }
    // The bucket of malformed ids is now empty: a fourth respelling is limited, not looked up.
    expect((await origins(url, ` ${DEMO_PROJECT_ID}`)).status).toBe(429)
    // The real id has a bucket of its own (three), and no respelling reaches its data.
    for (let i = 0; i < 3; i++) expect((await origins(url, DEMO_PROJECT_ID)).status).toBe(200)
    expect((await origins(url, DEMO_PROJECT_ID)).status).toBe(429)
  })

  test('invented project ids over HTTP earn no fresh buckets: 200 of them, 197 or more are 429', async () => {
    const url = await start(0)
    let limited = 0
    for (let i = 0; i < 200; i++) if ((await origins(url, `made-up-${i}`)).status === 429) limited++
    expect(limited).toBeGreaterThanOrEqual(197)
  })

  test('without a trusted proxy, X-Forwarded-For is ignored: a new forged address gets no new bucket', async () => {
    const url = await start(0)
    for (let i = 0; i < 3; i++)
      expect(
        (await origins(url, DEMO_PROJECT_ID, { 'x-forwarded-for': `203.0.113.${i}` })).status,
      ).toBe(200)
    const forged = await origins(url, DEMO_PROJECT_ID, { 'x-forwarded-for': '198.51.100.1' })
    expect(forged.status).toBe(429)
  })

  test('behind one proxy the client is the entry the proxy appended, not the ones it was sent', async () => {
    const url = await start(1)
    // The proxy appends the client's real address (192.0.2.10) after whatever the client wrote.
    const via = (forged: string) => ({ 'x-forwarded-for': `${forged}, 192.0.2.10` })
    for (let i = 0; i < 3; i++)
      expect((await origins(url, DEMO_PROJECT_ID, via(`203.0.113.${i}`))).status).toBe(200)
    expect((await origins(url, DEMO_PROJECT_ID, via('198.51.100.1'))).status).toBe(429)
    // Another real client behind the same proxy still gets through.
    const other = await origins(url, DEMO_PROJECT_ID, { 'x-forwarded-for': '192.0.2.11' })
    expect(other.status).toBe(200)
  })
})

// Issue 25, finding 9: each made-up, well-formed project id used to earn a fresh bucket and a
// database lookup (200 ids from one client: no 429, 200 queries).
describe('made-up project ids earn no buckets and cost one lookup each at most', () => {
  let t: TestApp | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  /** A test app whose project lookups are counted. */
  const counted = async (config: ApiConfigOverrides) => {
    const db = await openDatabase({ url: ':memory:' })
    const lookups: string[] = []
    const spy: Db = Object.assign(Object.create(db) as Db, {
      query: (sql: string, params?: readonly SqlValue[]) => {
        if (/FROM projects WHERE id = \?/.test(sql)) lookups.push(String(params?.[0]))
        return db.query(sql, params)
      },
    })
    t = await createTestApp(config, { db: spy, catalogue: false })
    const originsOf = (projectId: string) =>
      t!.app.request(`/projects/v1/origins?projectId=${encodeURIComponent(projectId)}`)
    return { lookups, originsOf, close: () => db.close() }
  }

  test('200 invented ids from one client share one bucket: 429 after the burst, no lookup after it', async () => {
    const { lookups, originsOf, close } = await counted({
      rateLimit: { ratePerSecond: 0.01, burst: 3 },
      projectCacheMs: 1000,
    })
    try {
      // Someone used the real project before: it is known, with a bucket of its own.
      expect((await originsOf(PROJECT_ID)).status).toBe(200)
      const statuses: number[] = []
      for (let i = 0; i < 200; i++) statuses.push((await originsOf(`made-up-${i}`)).status)
      // Invented ids share the bucket of ids not known yet (3, one used by the first contact).
      expect(statuses.filter((s) => s === 403).length).toBeLessThanOrEqual(3)
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(197)
      expect(lookups.filter((id) => id.startsWith('made-up-')).length).toBeLessThanOrEqual(3)
      // The flood did not touch the real project's own bucket.
      expect((await originsOf(PROJECT_ID)).status).toBe(200)
    } finally {
      await close()
    }
  })

  test('an unknown id asked again within the negative cache costs no second lookup', async () => {
    const { lookups, originsOf, close } = await counted({ rateLimit: false, projectCacheMs: 1000 })
    try {
      for (let i = 0; i < 50; i++) expect((await originsOf('nobody-has-this')).status).toBe(403)
      expect(lookups.filter((id) => id === 'nobody-has-this')).toHaveLength(1)
    } finally {
      await close()
    }
  })
})
