import { DEMO_PROJECT_ID } from '@porthole/shared'
import { afterEach, describe, expect, test } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../test/databases.js'
import type { Db } from '../db/Db.js'
import { openDatabase } from '../db/openDatabase.js'
import { type StartApiParameters, type StartApiReturnType, startApi } from '../server.js'

// The attacker's side of POST /e (issue 25 audit): a stranger with the demo project's public id
// floods the analytics endpoint from one client, over real HTTP, with the API's default rate
// limit. What reaches the operator's database must stay within a bound the README states.
describe('analytics storage a stranger can fill', () => {
  let api: StartApiReturnType | undefined
  let target: TestDatabase | undefined
  let db: Db | undefined
  afterEach(async () => {
    await api?.close()
    await db?.close()
    await target?.cleanup()
    api = target = db = undefined
  })

  const start = async (overrides: Partial<StartApiParameters> = {}) => {
    target = await createTestDatabase('sqlite')
    api = await startApi({ port: 0, databaseUrl: target.url, ...overrides })
    db = await openDatabase({ url: target.url })
    return api.url
  }

  /** One tracked event whose properties make its JSON body `bytes` long. */
  const eventOf = (i: number, bytes: number) => {
    const base = {
      eventId: `flood-${i}-${Math.random().toString(36).slice(2)}`,
      url: 'https://victim.example/checkout',
      domain: 'victim.example',
      timestamp: Date.now(),
      props: { type: 'track', event: 'SEND_SUCCESS', properties: { pad: '' } },
    }
    base.props.properties.pad = 's'.repeat(Math.max(0, bytes - JSON.stringify(base).length))
    return JSON.stringify(base)
  }

  const post = (url: string, body: string) =>
    fetch(`${url}/e?projectId=${DEMO_PROJECT_ID}&st=attack&sv=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://attacker.example' },
      body,
    })

  /** Rows and bytes (url, domain, props) the flood left in the database. */
  const stored = async () => {
    const [row] = await (db as Db).query<{ n: number | bigint; bytes: number | bigint | null }>(
      'SELECT COUNT(*) AS n, SUM(LENGTH(url) + LENGTH(domain) + LENGTH(props)) AS bytes FROM analytics_events',
    )
    return { rows: Number(row?.n ?? 0), bytes: Number(row?.bytes ?? 0) }
  }

  test('200 events of 60 KB from one client store nothing: the body is at most 8 KiB', async () => {
    const url = await start()
    const started = performance.now()
    const statuses: number[] = []
    for (let i = 0; i < 200; i++) statuses.push((await post(url, eventOf(i, 60_000))).status)
    const { rows, bytes } = await stored()
    console.log(
      `flood of 200 × 60 KB: ${rows} rows, ${(bytes / 2 ** 20).toFixed(1)} MiB stored in ${((performance.now() - started) / 1000).toFixed(1)} s; answers ${[...new Set(statuses)].join(', ')}`,
    )
    expect(statuses.every((status) => status === 413)).toBe(true)
    expect(bytes).toBe(0)
  })

  test('a flood of the largest events a project accepts stores at most its daily cap', async () => {
    const url = await start({ analytics: { dailyCap: 50, retentionDays: 30 } })
    const statuses: number[] = []
    for (let i = 0; i < 200; i++) statuses.push((await post(url, eventOf(i, 8_000))).status)
    const { rows, bytes } = await stored()
    console.log(`flood of 200 × 8 KB, cap 50: ${rows} rows, ${bytes} bytes stored`)
    expect(statuses.every((status) => status === 204)).toBe(true)
    expect(rows).toBe(50)
    expect(bytes).toBeLessThanOrEqual(50 * 8 * 1024)
  })

  test('events past the retention period are deleted, newer ones kept', async () => {
    const url = await start()
    const day = 86_400_000
    const insert = (id: string, receivedAt: number) =>
      (db as Db).execute(
        `INSERT INTO analytics_events
           (id, project_id, event_id, url, domain, timestamp, props, sdk_type, sdk_version, received_at)
         VALUES (?, ?, ?, 'https://a.example', 'a.example', ?, '{}', NULL, NULL, ?)`,
        [id, DEMO_PROJECT_ID, id, receivedAt, receivedAt],
      )
    await insert('old', Date.now() - 31 * day)
    await insert('recent', Date.now() - 29 * day)
    expect((await post(url, eventOf(0, 500))).status).toBe(204)
    await expect
      .poll(async () =>
        (await (db as Db).query<{ id: string }>('SELECT id FROM analytics_events ORDER BY id')).map(
          (row) => row.id,
        ),
      )
      .not.toContain('old')
    const ids = (
      await (db as Db).query<{ event_id: string }>('SELECT event_id FROM analytics_events')
    ).map((row) => row.event_id)
    expect(ids).toContain('recent')
    expect(ids).toHaveLength(2)
  })
})
