import { fileURLToPath } from 'node:url'
import type { Db } from './Db.js'
import { migrate } from './migrations.js'
import { openPostgres } from './openPostgres.js'
import { openSqlite } from './openSqlite.js'

/** Repository root (apps/api/src/db → four levels up), with a trailing slash. */
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url))

/** The environment variable that selects the database. */
export const DATABASE_URL_ENV = 'PORTHOLE_DATABASE_URL'

/**
 * The database URL: `PORTHOLE_DATABASE_URL` when set, else `file:<repo root>/.data/porthole.db`.
 *
 * @example
 * defaultDatabaseUrl({}) // 'file:/work/main/.data/porthole.db'
 */
export function defaultDatabaseUrl(env: Record<string, string | undefined> = process.env): string {
  return env[DATABASE_URL_ENV] || `file:${REPO_ROOT}.data/porthole.db`
}

/** Options for {@link openDatabase}. */
export type OpenDatabaseParameters = {
  /** `file:…`, `:memory:`, `postgres://…` or `postgresql://…`; default {@link defaultDatabaseUrl}. */
  url?: string
  /** Apply pending migrations (default true). */
  migrate?: boolean
}

/** Thrown for a URL no driver handles. */
export class UnsupportedDatabaseUrlError extends Error {
  override name = 'UnsupportedDatabaseUrlError' as const
  constructor(url: string) {
    super(
      `Unsupported database URL: ${redactUrl(url)} (use file:, :memory:, postgres:// or postgresql://)`,
    )
  }
}

/**
 * Hides the credentials of a database URL, for logs and error messages.
 *
 * @example
 * redactUrl('postgres://u:secret@db/porthole') // 'postgres://***@db/porthole'
 */
export function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@')
}

/**
 * Opens the database named by `url` with the matching driver and applies pending migrations.
 *
 * @example
 * const db = await openDatabase({ url: ':memory:' })
 * const projects = await db.query('SELECT id FROM projects')
 * await db.close()
 */
export async function openDatabase(parameters: OpenDatabaseParameters = {}): Promise<Db> {
  const url = parameters.url ?? defaultDatabaseUrl()
  let db: Db
  if (/^postgres(ql)?:\/\//i.test(url)) db = await openPostgres({ url })
  else if (url === ':memory:' || url.startsWith('file:')) db = await openSqlite(url)
  else throw new UnsupportedDatabaseUrlError(url)
  if (parameters.migrate !== false) {
    try {
      await migrate(db)
    } catch (error) {
      await db.close()
      throw error
    }
  }
  return db
}
