/**
 * The service's master secret and its data folder. The secret is given directly or kept in a key
 * file (64 hex digits) in the service's own data folder — never the API's: the service refuses to
 * start when it finds another service's secret or a database in its folder.
 */

import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** `<repo>/.recovery-data`: the default data folder (the API's is `<repo>/.data`). */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../../../.recovery-data', import.meta.url))
/** The key file's name in the data folder. */
export const KEY_FILE_NAME = 'recovery.key'
/** Default key file. */
export const DEFAULT_KEY_FILE = join(DEFAULT_DATA_DIR, KEY_FILE_NAME)

/** The key file or the given key is not 32 bytes. */
export class InvalidMasterKeyError extends Error {
  override name = 'InvalidMasterKeyError' as const
}

/** Another service's secret (or a database) lies in this service's data folder. */
export class ForeignSecretError extends Error {
  override name = 'ForeignSecretError' as const
}

/** The API's default data folder, `<repo>/.data`: never the recovery service's. */
const API_DATA_DIR = resolve(DEFAULT_DATA_DIR, '../.data')

/** Files that belong to the API (its keys, its database): never beside the recovery key. */
const FOREIGN = [/^api-share\.key$/, /^api-signing\.jwk$/, /\.db(-wal|-shm|-journal)?$/]

/**
 * Throws {@link ForeignSecretError} when `dir` is the API's default folder (`<repo>/.data`) or
 * holds another service's secret (`api-share.key`, `api-signing.jwk`, a `*.db` database): one
 * folder must never be enough to rebuild a key.
 *
 * @example
 * assertOwnFolder('/srv/recovery')
 */
export function assertOwnFolder(dir: string): void {
  if (resolve(dir) === API_DATA_DIR)
    throw new ForeignSecretError(
      `${API_DATA_DIR} is the API's data folder: the recovery key must not lie beside the API's keys (a stolen folder would then rebuild wallets). Give the recovery service a folder of its own (PORTHOLE_RECOVERY_DATA_DIR, default .recovery-data).`,
    )
  if (!existsSync(dir)) return
  const foreign = readdirSync(dir).filter((name) => FOREIGN.some((pattern) => pattern.test(name)))
  if (foreign.length > 0)
    throw new ForeignSecretError(
      `The recovery service's data folder ${dir} holds ${foreign.join(', ')}: another service's secrets must not lie beside the recovery key (a stolen folder would then rebuild wallets). Give the recovery service a folder of its own (PORTHOLE_RECOVERY_DATA_DIR).`,
    )
}

/**
 * Returns `masterKey` if given, else reads `keyFile` (64 hex digits, a trailing newline allowed),
 * creating it with a random key and mode 0600 when it does not exist. The key file's folder must
 * not hold another service's secrets.
 *
 * @example
 * const key = loadMasterKey({ keyFile: '.recovery-data/recovery.key' }) // 32 bytes
 */
export function loadMasterKey(options: { masterKey?: Uint8Array; keyFile?: string }): Buffer {
  if (options.masterKey) {
    if (options.masterKey.length !== 32)
      throw new InvalidMasterKeyError(
        `The recovery master key must be 32 bytes, got ${options.masterKey.length}`,
      )
    return Buffer.from(options.masterKey)
  }
  const file = resolve(options.keyFile ?? DEFAULT_KEY_FILE)
  assertOwnFolder(dirname(file))
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' })
    chmodSync(file, 0o600)
  }
  return parseHexKey(readFileSync(file, 'utf8'), file)
}

/**
 * Parses 64 hex digits (surrounding whitespace ignored) into 32 bytes.
 *
 * @example
 * parseHexKey(process.env.PORTHOLE_RECOVERY_KEY, 'PORTHOLE_RECOVERY_KEY')
 */
export function parseHexKey(text: string, source: string): Buffer {
  const hex = text.trim()
  if (!/^[0-9a-fA-F]{64}$/.test(hex))
    throw new InvalidMasterKeyError(`${source} must hold exactly 64 hex digits (a 32-byte key)`)
  return Buffer.from(hex, 'hex')
}
