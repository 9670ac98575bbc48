import { DEMO_PROJECT_ID } from '@porthole/shared'
import { afterEach, describe, expect, test } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../test/databases.js'
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
