/** Database entry (`@porthole/api/db`): the `Db` interface, its two drivers and migrations. */
export type { Db, DbExecutor, Dialect, ExecuteResult, SqlValue } from './Db.js'
export { type MigrateReturnType, type Migration, migrate, migrations } from './migrations.js'
export {
  DATABASE_URL_ENV,
  defaultDatabaseUrl,
  type OpenDatabaseParameters,
  openDatabase,
  UnsupportedDatabaseUrlError,
} from './openDatabase.js'
export { toPostgresPlaceholders } from './toPostgresPlaceholders.js'
