import { afterEach, describe, expect, test } from 'vitest'
import { DRIVERS, openTestDatabase } from '../../test/databases.js'
import type { Db } from '../db/Db.js'
import { createProject } from '../projects/createProject.js'
import { createCleanup } from './cleanupExpired.js'

let db: Db | undefined
afterEach(async () => {
  await db?.close()
  db = undefined
})

const count = async (table: string) => {
  const [row] = await db!.query<{ n: number }>(
    `SELECT CAST(COUNT(*) AS INTEGER) AS n FROM ${table}`,
  )
  return Number(row?.n)
}

describe.each(DRIVERS)('createCleanup on %s', (driver) => {
  test('deletes expired rows and keeps live ones, codes while locked or cooling down', async () => {
    db = await openTestDatabase(driver)
    await createProject(db, { id: 'p' })
    const now = Date.now()
    await db.execute(
      "INSERT INTO auth_users (id, project_id, email, created_at) VALUES ('u', 'p', 'a@b.test', 0)",
    )
    for (const [hash, expires] of [
      ['old', now - 1],
      ['live', now + 60_000],
    ] as const)
      await db.execute(
        `INSERT INTO auth_sessions (token_hash, project_id, user_id, device_id, created_at, expires_at)
         VALUES (?, 'p', 'u', 'd', 0, ?)`,
        [hash, expires],
      )
    const code = (subject: string, expires: number, sent: number, locked: number | null) =>
      db!.execute(
        `INSERT INTO auth_codes (project_id, purpose, subject, email, expires_at, sent_at, locked_until)
         VALUES ('p', 'login', ?, ?, ?, ?, ?)`,
        [subject, subject, expires, sent, locked],
      )
    await code('gone', now - 1, now - 60_000, null)
    await code('locked', now - 1, now - 60_000, now + 60_000)
    await code('cooling', now - 1, now - 1_000, null)
    await code('live', now + 60_000, now - 60_000, null)

    const errors: unknown[] = []
    const cleanup = createCleanup(db, { onError: (error) => errors.push(error) })
    await cleanup.run()
    expect(await count('auth_sessions')).toBe(1)
    const codes = await db.query<{ subject: string }>(
      'SELECT subject FROM auth_codes ORDER BY subject',
    )
    expect(codes.map((row) => row.subject)).toEqual(['cooling', 'live', 'locked'])
    expect(errors).toEqual([])
  })

  test('maybeRun runs at most once per interval', async () => {
    db = await openTestDatabase(driver)
    let runs = 0
    const counting: Db = {
      ...db,
      execute: async (sql, params) => {
        if (sql.startsWith('DELETE FROM auth_sessions')) runs += 1
        return db!.execute(sql, params)
      },
    }
    const cleanup = createCleanup(counting, { intervalMs: 60_000, onError: () => undefined })
    cleanup.maybeRun()
    cleanup.maybeRun()
    await new Promise((resolve) => setTimeout(resolve, 200))
    cleanup.maybeRun()
    expect(runs).toBe(1)
  })
})
