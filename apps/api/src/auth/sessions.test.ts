import { afterEach, describe, expect, test, vi } from 'vitest'
import { createTestDatabase, DRIVERS, type TestDatabase } from '../../test/databases.js'
import type { Db } from '../db/Db.js'
import { migrate, migrations } from '../db/migrations.js'
import { openDatabase } from '../db/openDatabase.js'
import { createProject } from '../projects/createProject.js'
import { createSession, findSession, SESSION_IDLE_MS, SESSION_MAX_MS } from './sessions.js'

let db: Db | undefined
let target: TestDatabase | undefined
afterEach(async () => {
  vi.useRealTimers()
  await db?.close()
  await target?.cleanup()
  db = undefined
  target = undefined
})

const START = Date.UTC(2030, 0, 1)
const HOUR = 60 * 60_000

/** Freezes `Date` (only) at `at`. */
function setNow(at: number) {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(at)
}

async function open(driver: (typeof DRIVERS)[number], migrateAll = true): Promise<Db> {
  target = await createTestDatabase(driver)
  db = await openDatabase({ url: target.url, migrate: migrateAll })
  return db
}

async function addUser(db: Db): Promise<void> {
  await createProject(db, { id: 'p' })
  await db.execute(
    "INSERT INTO auth_users (id, project_id, email, created_at) VALUES ('u', 'p', 'a@b.test', 0)",
  )
}

async function storedExpiry(db: Db): Promise<number[]> {
  const rows = await db.query<{ expires_at: number }>(
    'SELECT expires_at FROM auth_sessions ORDER BY created_at',
  )
  return rows.map((row) => Number(row.expires_at))
}

describe.each(DRIVERS)('sessions on %s', (driver) => {
  test('a use slides the stored expiry by the idle limit, written at most once a minute, capped at 30 days', async () => {
    const db = await open(driver)
    await addUser(db)
    setNow(START)
    const token = await createSession(db, { projectId: 'p', userId: 'u', deviceId: 'd' })
    expect(await storedExpiry(db)).toEqual([START + SESSION_IDLE_MS])

    setNow(START + 60_000)
    expect(await findSession(db, 'p', token)).toMatchObject({ userId: 'u', createdAt: START })
    expect(await storedExpiry(db)).toEqual([START + SESSION_IDLE_MS])
    setNow(START + 60_001)
    await findSession(db, 'p', token)
    expect(await storedExpiry(db)).toEqual([START + 60_001 + SESSION_IDLE_MS])

    // Used every 23 hours up to the cap: the expiry never passes 30 days after the sign-in.
    for (let at = START + 23 * HOUR; at < START + SESSION_MAX_MS; at += 23 * HOUR) {
      setNow(at)
      expect(await findSession(db, 'p', token)).toBeDefined()
    }
    expect(await storedExpiry(db)).toEqual([START + SESSION_MAX_MS])
    setNow(START + SESSION_MAX_MS)
    expect(await findSession(db, 'p', token)).toBeUndefined()
  })

  test('migration 5: sessions made under the fixed 30 days count their idle limit from sign-in', async () => {
    const db = await open(driver, false)
    await migrate(
      db,
      migrations.filter((m) => m.version < 5),
    )
    await addUser(db)
    setNow(START)
    const session = (token: string, createdAt: number) =>
      db.execute(
        `INSERT INTO auth_sessions (token_hash, project_id, user_id, device_id, created_at, expires_at)
         VALUES (?, 'p', 'u', 'd', ?, ?)`,
        [token, createdAt, createdAt + SESSION_MAX_MS],
      )
    await session('old', START - 2 * SESSION_IDLE_MS)
    await session('young', START - HOUR)
    expect((await migrate(db)).applied).toContain(5)
    expect(await storedExpiry(db)).toEqual([
      START - SESSION_IDLE_MS,
      START - HOUR + SESSION_IDLE_MS,
    ])
  })
})
