/**
 * The one database interface the API uses. SQL is written once with `?` placeholders and runs
 * unchanged on both drivers (embedded SQLite through libsql, PostgreSQL through pg).
 */

/** A value bound to a `?` placeholder. */
export type SqlValue = string | number | bigint | boolean | null | Uint8Array

/** Which engine sits behind a {@link Db}. */
export type Dialect = 'sqlite' | 'postgres'

/** What `execute` reports. */
export type ExecuteResult = { rowsAffected: number }

/** Runs statements; both a {@link Db} and an open transaction are executors. */
export type DbExecutor = {
  readonly dialect: Dialect
  /**
   * Runs a reading statement and returns its rows as plain objects keyed by column name.
   * Use `execute` for writes: on SQLite, writes take turns on a process-wide lock and reads do not.
   *
   * @example
   * const rows = await db.query<{ id: string }>('SELECT id FROM projects WHERE name = ?', ['Demo'])
   */
  query<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<T[]>
  /**
   * Runs a statement that returns no rows and reports how many rows it changed.
   *
   * @example
   * const { rowsAffected } = await db.execute('DELETE FROM projects WHERE id = ?', [id])
   */
  execute(sql: string, params?: readonly SqlValue[]): Promise<ExecuteResult>
}

/** An open database: an executor plus transactions and shutdown. */
export type Db = DbExecutor & {
  /**
   * Runs `fn` inside one write transaction: committed when `fn` resolves, rolled back when it
   * throws (the error is rethrown).
   *
   * @example
   * await db.transaction(async (tx) => {
   *   await tx.execute('INSERT INTO projects (id, name, created_at) VALUES (?, ?, ?)', [id, name, now])
   * })
   */
  transaction<T>(fn: (tx: DbExecutor) => Promise<T>): Promise<T>
  /** Closes every connection. */
  close(): Promise<void>
}
