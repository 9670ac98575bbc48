import pg from 'pg'
import type { Db, DbExecutor, SqlValue } from './Db.js'
import { toPostgresPlaceholders } from './toPostgresPlaceholders.js'

/** BIGINT (int8) columns hold millisecond timestamps and counts: read them as numbers. */
const INT8_OID = 20

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
}

/** Options for {@link openPostgres}. */
export type OpenPostgresParameters = { url: string; maxConnections?: number }

/**
 * Opens a PostgreSQL pool (`postgres://` or `postgresql://` URL). `?` placeholders are rewritten
 * to `$n` on the way in.
 *
 * @example
 * const db = await openPostgres({ url: 'postgres://porthole@127.0.0.1:5432/porthole' })
 */
export async function openPostgres({
  url,
  maxConnections = 10,
}: OpenPostgresParameters): Promise<Db> {
  // A request never waits long for a connection: while the server is away, queries fail within
  // 2 s (answered 503) and the pool reconnects by itself when it is back.
  const pool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    types,
    connectionTimeoutMillis: 2000,
    keepAlive: true,
  })
  // An idle client that errors (server restart) must not crash the process.
  pool.on('error', () => undefined)
  try {
    await pool.query('SELECT 1')
  } catch (error) {
    await pool.end()
    throw error
  }

  const executor = (client: pg.Pool | pg.PoolClient): DbExecutor => ({
    dialect: 'postgres',
    async query<T>(sql: string, params: readonly SqlValue[] = []) {
      const result = await client.query(toPostgresPlaceholders(sql), [...params])
      return result.rows as T[]
    },
    async execute(sql: string, params: readonly SqlValue[] = []) {
      const result = await client.query(toPostgresPlaceholders(sql), [...params])
      return { rowsAffected: result.rowCount ?? 0 }
    },
  })

  return {
    ...executor(pool),
    async transaction(fn) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await fn(executor(client))
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined)
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}
