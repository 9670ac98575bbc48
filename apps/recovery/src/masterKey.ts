/** The service's master secret: 32 bytes, given directly or kept in a key file (64 hex digits). */

import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

/** Default key file, relative to the working directory. */
export const DEFAULT_KEY_FILE = '.data/recovery.key'

/** The key file or the given key is not 32 bytes. */
export class InvalidMasterKeyError extends Error {
  override name = 'InvalidMasterKeyError'
}

/**
 * Returns `masterKey` if given, else reads `keyFile` (64 hex digits, a trailing newline allowed),
 * creating it with a random key and mode 0600 when it does not exist.
 *
 * @example
 * const key = loadMasterKey({ keyFile: '.data/recovery.key' }) // 32 bytes
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
