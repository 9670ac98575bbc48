import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { type Client, createClient, type InValue, type ResultSet } from '@libsql/client'
import type { Db, DbExecutor, SqlValue } from './Db.js'

/** How long a connection waits for another writer (the admin CLI, a second API) to finish. */
const BUSY_TIMEOUT_MS = 5000

/**
 * Opens an embedded SQLite database through libsql: `file:<path>` (WAL journal, busy timeout,
 * parent directory created) or `:memory:`.
 *
 * @example
 * const db = await openSqlite('file:/tmp/porthole.db')
 */
export async function openSqlite(url: string): Promise<Db> {
  const memory = isMemoryUrl(url)
  if (!memory) mkdirSync(dirname(filePath(url)), { recursive: true })
  // libsql runs statements synchronously on this thread, so a connection waiting on the busy
  // timeout would block the very event loop the lock holder needs to finish: within this process
  // writes and transactions on one file therefore take turns on an async lock shared by every
  // client of that file. (Other processes, such as the admin CLI, are covered by the busy
  // timeout.) Reads need no turn in WAL mode, except in memory, where the single connection is
  // held by any open transaction.
  const lock = memory ? createLock() : fileLock(filePath(url))
  const client = createClient({ url, timeout: BUSY_TIMEOUT_MS })
  // WAL lets the admin CLI write while a running API reads; the mode is stored in the file.
  if (!memory) await lock(() => client.execute('PRAGMA journal_mode = WAL'))
  const whenReading = <T>(fn: () => Promise<T>): Promise<T> => (memory ? lock(fn) : fn())

  const executor = (
    run: (sql: string, args: InValue[]) => Promise<ResultSet>,
    guard: {
      read: <T>(fn: () => Promise<T>) => Promise<T>
      write: <T>(fn: () => Promise<T>) => Promise<T>
    },
  ): DbExecutor => ({
    dialect: 'sqlite',
    async query<T>(sql: string, params: readonly SqlValue[] = []) {
      return toObjects(await guard.read(() => run(sql, [...params]))) as T[]
    },
    async execute(sql: string, params: readonly SqlValue[] = []) {
      return { rowsAffected: (await guard.write(() => run(sql, [...params]))).rowsAffected }
    },
  })

  const direct = executor((sql, args) => client.execute({ sql, args }), {
    read: whenReading,
    write: lock,
  })
  const inside = <T>(fn: () => Promise<T>) => fn()

  return {
    ...direct,
    transaction: (fn) =>
      lock(async () => {
        const tx = await client.transaction('write')
        try {
          const result = await fn(
            executor((sql, args) => tx.execute({ sql, args }), { read: inside, write: inside }),
          )
          await tx.commit()
          return result
        } catch (error) {
          if (!tx.closed) await tx.rollback()
          throw error
        } finally {
          tx.close()
        }
      }),
    close: async () => closeClient(client),
  }
}

/** True for the URLs libsql treats as an in-memory database. */
export function isMemoryUrl(url: string): boolean {
  return url === ':memory:' || url === 'file::memory:' || url.startsWith('file::memory:?')
}

/**
 * The filesystem path of a `file:` URL (`file:/abs`, `file:///abs`, `file:relative`).
 *
 * @example
 * filePath('file:///tmp/a.db') // '/tmp/a.db'
 */
export function filePath(url: string): string {
  let path = url.replace(/^file:/, '').replace(/\?.*$/, '')
  if (path.startsWith('//')) path = path.slice(2)
  return resolve(decodeURIComponent(path))
}

function toObjects(result: ResultSet): Record<string, unknown>[] {
  return result.rows.map((row) => {
    const object: Record<string, unknown> = {}
    result.columns.forEach((column, index) => {
      object[column] = row[index]
    })
    return object
  })
}

function closeClient(client: Client): void {
  if (!client.closed) client.close()
}

type Lock = <T>(fn: () => Promise<T>) => Promise<T>

const fileLocks = new Map<string, Lock>()

/** The process-wide write lock of one database file. */
function fileLock(path: string): Lock {
  let lock = fileLocks.get(path)
  if (!lock) {
    lock = createLock()
    fileLocks.set(path, lock)
  }
  return lock
}

/** A FIFO mutex: each call runs after the previous one settled. */
function createLock(): Lock {
  let tail: Promise<unknown> = Promise.resolve()
  return (fn) => {
    const run = tail.then(fn, fn)
    tail = run.catch(() => undefined)
    return run
  }
}
