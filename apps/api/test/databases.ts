/**
 * Test helpers: fresh databases on both drivers. Each PostgreSQL database is a new schema on
 * the server from the global setup (search_path set through the URL), dropped afterwards.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { inject } from 'vitest'
import type { Db } from '../src/db/Db.js'
import { openDatabase } from '../src/db/openDatabase.js'

/** The drivers every database test runs against. */
export const DRIVERS = ['sqlite', 'postgres'] as const
/** A driver. */
export type Driver = (typeof DRIVERS)[number]

/** A fresh, empty database URL and its cleanup. */
export type TestDatabase = { url: string; cleanup(): Promise<void> }

/**
 * A URL to a new empty database: a SQLite file in a temp dir, or a new PostgreSQL schema.
 * Throws the global setup's message when no PostgreSQL is available.
 */
export async function createTestDatabase(driver: Driver): Promise<TestDatabase> {
  if (driver === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'porthole-sqlite-'))
    return {
      url: `file:${join(dir, 'test.db')}`,
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    }
  }
  const server = inject('postgres')
  if ('error' in server) throw new Error(server.error)
  const schema = `t_${randomBytes(6).toString('hex')}`
  await withClient(server.url, (client) => client.query(`CREATE SCHEMA ${schema}`))
  const url = new URL(server.url)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return {
    url: url.href,
    cleanup: async () => {
      await withClient(server.url, (client) => client.query(`DROP SCHEMA ${schema} CASCADE`))
    },
  }
}

/** Opens a fresh migrated database; `close()` also removes it. */
export async function openTestDatabase(driver: Driver): Promise<Db> {
  const target = await createTestDatabase(driver)
  const db = await openDatabase({ url: target.url })
  return {
    ...db,
    close: async () => {
      await db.close()
      await target.cleanup()
    },
  }
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}
