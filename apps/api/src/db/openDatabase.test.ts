import { afterEach, describe, expect, test } from 'vitest'
import { createTestDatabase, DRIVERS, type TestDatabase } from '../../test/databases.js'
import type { Db } from './Db.js'
import { migrate, migrations } from './migrations.js'
import { openDatabase, UnsupportedDatabaseUrlError } from './openDatabase.js'

describe.each(DRIVERS)('database on %s', (driver) => {
  const opened: Db[] = []
  let target: TestDatabase | undefined

  const open = async () => {
    target ??= await createTestDatabase(driver)
    const db = await openDatabase({ url: target.url })
    opened.push(db)
    return db
  }

  afterEach(async () => {
    for (const db of opened.splice(0)) await db.close()
    await target?.cleanup()
    target = undefined
  })

  test('applies migrations once, records them, and re-running is a no-op', async () => {
    const db = await open()
    expect(db.dialect).toBe(driver)
    const rows = await db.query<{ version: number; name: string }>(
      'SELECT version, name FROM schema_migrations ORDER BY version',
    )
    expect(rows.map((row) => Number(row.version))).toEqual(migrations.map((m) => m.version))
    expect(await migrate(db)).toEqual({ applied: [] })

    const again = await open() // a second process opening the same database
    expect(await again.query('SELECT version FROM schema_migrations')).toHaveLength(
      migrations.length,
    )
  })

  test('concurrent openers of a fresh database all succeed', async () => {
    target = await createTestDatabase(driver)
    const dbs = await Promise.all([open(), open(), open()])
    const [first] = dbs
    expect(await first!.query('SELECT version FROM schema_migrations')).toHaveLength(
      migrations.length,
    )
  })

  test('binds ? parameters, returns plain rows and BIGINTs as numbers', async () => {
    const db = await open()
    const now = 1_763_000_000_123
    const { rowsAffected } = await db.execute(
      'INSERT INTO projects (id, name, created_at, features) VALUES (?, ?, ?, ?)',
      ['p1', "it's ? quoted", now, '{}'],
    )
    expect(rowsAffected).toBe(1)
    const rows = await db.query<{ id: string; name: string; created_at: number }>(
      "SELECT id, name, created_at FROM projects WHERE id = ? AND name <> '?'",
      ['p1'],
    )
    expect(rows).toEqual([{ id: 'p1', name: "it's ? quoted", created_at: now }])
  })

  test('commits a transaction that resolves and rolls back one that throws', async () => {
    const db = await open()
    await db.transaction(async (tx) => {
      await tx.execute('INSERT INTO projects (id, name, created_at) VALUES (?, ?, ?)', [
        'a',
        'A',
        1,
      ])
    })
    await expect(
      db.transaction(async (tx) => {
        await tx.execute('INSERT INTO projects (id, name, created_at) VALUES (?, ?, ?)', [
          'b',
          'B',
          2,
        ])
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    const ids = await db.query<{ id: string }>('SELECT id FROM projects ORDER BY id')
    expect(ids.map((row) => row.id)).toEqual(['a'])
  })

  test('ON CONFLICT DO NOTHING reports zero rows affected', async () => {
    const db = await open()
    const insert =
      'INSERT INTO projects (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING'
    expect(await db.execute(insert, ['x', 'X', 1])).toEqual({ rowsAffected: 1 })
    expect(await db.execute(insert, ['x', 'X', 1])).toEqual({ rowsAffected: 0 })
  })
})

describe('sqlite specifics', () => {
  test('a file database uses the WAL journal so the CLI and the API can share it', async () => {
    const target = await createTestDatabase('sqlite')
    const db = await openDatabase({ url: target.url })
    const [row] = await db.query<{ journal_mode: string }>('PRAGMA journal_mode')
    expect(row?.journal_mode).toBe('wal')
    await db.close()
    await target.cleanup()
  })

  test('an in-memory database queues queries behind an open transaction', async () => {
    const db = await openDatabase({ url: ':memory:' })
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const tx = db.transaction(async (t) => {
      await t.execute('INSERT INTO projects (id, name, created_at) VALUES (?, ?, ?)', ['m', 'M', 1])
      await held
    })
    const read = db.query<{ id: string }>('SELECT id FROM projects')
    release()
    await tx
    expect((await read).map((row) => row.id)).toEqual(['m'])
    await db.close()
  })

  test('refuses a URL no driver handles', async () => {
    await expect(openDatabase({ url: 'mysql://u:secret@db/x' })).rejects.toThrow(
      UnsupportedDatabaseUrlError,
    )
    await expect(openDatabase({ url: 'mysql://u:secret@db/x' })).rejects.not.toThrow(/secret/)
  })
})
