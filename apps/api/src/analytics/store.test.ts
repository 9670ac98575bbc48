import { afterEach, describe, expect, test } from 'vitest'
import { DRIVERS, openTestDatabase } from '../../test/databases.js'
import type { Db } from '../db/Db.js'
import { deleteOldEvents, type StoredEvent, storedToday, storeEvent } from './store.js'

const DAY = 86_400_000
const NOON = Date.UTC(2026, 4, 10, 12)

const event = (eventId: string, projectId = 'shop'): StoredEvent => ({
  projectId,
  eventId,
  url: 'https://shop.example',
  domain: 'shop.example',
  timestamp: NOON,
  props: '{"type":"track","event":"MODAL_OPEN"}',
  sdkType: 'appkit',
  sdkVersion: '1',
})

describe.each(DRIVERS)('the analytics store on %s', (driver) => {
  let db: Db | undefined
  afterEach(async () => {
    await db?.close()
    db = undefined
  })

  test('counts stored events per project and UTC day; a duplicate counts nothing; past the cap nothing is stored', async () => {
    db = await openTestDatabase(driver)
    expect(await storeEvent(db, event('a'), { dailyCap: 2, now: NOON })).toBe('stored')
    expect(await storeEvent(db, event('a'), { dailyCap: 2, now: NOON })).toBe('duplicate')
    expect(await storeEvent(db, event('b'), { dailyCap: 2, now: NOON })).toBe('stored')
    expect(await storeEvent(db, event('c'), { dailyCap: 2, now: NOON })).toBe('capped')
    // Another project has its own count; the next UTC day starts again.
    expect(await storeEvent(db, event('c', 'other'), { dailyCap: 2, now: NOON })).toBe('stored')
    expect(await storeEvent(db, event('c'), { dailyCap: 2, now: NOON + DAY })).toBe('stored')
    const rows = await db.query<{ event_id: string }>(
      "SELECT event_id FROM analytics_events WHERE project_id = 'shop' ORDER BY event_id",
    )
    expect(rows.map((row) => row.event_id)).toEqual(['a', 'b', 'c'])
    expect(await storedToday(db, { projectId: 'shop', now: NOON })).toBe(2)
  })

  test('40 events at once against a cap of 25 store exactly 25', async () => {
    db = await openTestDatabase(driver)
    const open = db
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        storeEvent(open, event(`e${i}`), { dailyCap: 25, now: NOON }),
      ),
    )
    expect(results.filter((result) => result === 'stored')).toHaveLength(25)
    expect(results.filter((result) => result === 'capped')).toHaveLength(15)
    const [row] = await db.query<{ n: number | bigint }>(
      'SELECT COUNT(*) AS n FROM analytics_events',
    )
    expect(Number(row?.n)).toBe(25)
  })

  test('the retention deletes events older than its days and counts before yesterday', async () => {
    db = await openTestDatabase(driver)
    await storeEvent(db, event('old'), { dailyCap: 10, now: NOON - 31 * DAY })
    await storeEvent(db, event('kept'), { dailyCap: 10, now: NOON - 29 * DAY })
    await storeEvent(db, event('yesterday'), { dailyCap: 10, now: NOON - DAY })
    expect(await deleteOldEvents(db, { retentionDays: 30, now: NOON })).toEqual({
      events: 1,
      counts: 2,
    })
    const rows = await db.query<{ event_id: string }>(
      'SELECT event_id FROM analytics_events ORDER BY event_id',
    )
    expect(rows.map((row) => row.event_id)).toEqual(['kept', 'yesterday'])
    expect(await storedToday(db, { projectId: 'shop', now: NOON - DAY })).toBe(1)
  })
})
