/**
 * The auth key the database never holds: the AES-256 key of the auth shares at rest (from which
 * the OTP hashing key is derived), from configuration (environment) or from a file generated once
 * in `keyDir` (mode 0600). The API signs nothing for the recovery key service: that service checks
 * users itself.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CONFIG_ENV, InvalidConfigError } from '../config.js'

/** File names of the generated keys in `keyDir`. */
export const KEY_FILES = { shareKey: 'api-share.key' } as const

/** The loaded keys. */
export type AuthKeys = {
  /** AES-256-GCM key of the auth shares. */
  shareKey: Buffer
  /** HMAC key of the stored one-time codes (derived from `shareKey`). */
  codeKey: Buffer
}

/** Options of {@link loadAuthKeys}. */
export type LoadAuthKeysParameters = {
  /** Where missing keys are generated. */
  keyDir: string
  /** Base64 of 32 bytes (`PORTHOLE_SHARE_KEY`). */
  shareKey?: string | undefined
}

/**
 * Loads the auth key from the given value, else from `keyDir`, generating the file there on
 * first use (atomically, so concurrent processes agree on one key).
 *
 * @example
 * const keys = loadAuthKeys({ keyDir: '/srv/porthole/.data' })
 */
export function loadAuthKeys({ keyDir, shareKey }: LoadAuthKeysParameters): AuthKeys {
  const shareText =
    shareKey ??
    readOrCreate(join(keyDir, KEY_FILES.shareKey), () => randomBytes(32).toString('base64'))
  const share = Buffer.from(shareText.trim(), 'base64')
  if (share.length !== 32)
    throw new InvalidConfigError(`${CONFIG_ENV.shareKey} must be the base64 of 32 bytes`)
  return {
    shareKey: share,
    codeKey: Buffer.from(hkdfSync('sha256', share, Buffer.alloc(0), 'porthole one-time codes', 32)),
  }
}

/**
 * Encrypts an auth share for storage: AES-256-GCM, the user id as additional data, so a row
 * copied to another user does not decrypt. Format `v1.<iv>.<ciphertext+tag>` (base64).
 *
 * @example
 * const stored = encryptShare(keys.shareKey, 'AQID…', user.id)
 */
export function encryptShare(key: Buffer, share: string, userId: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(userId, 'utf8'))
  const data = Buffer.concat([cipher.update(share, 'utf8'), cipher.final(), cipher.getAuthTag()])
  return `v1.${iv.toString('base64')}.${data.toString('base64')}`
}

/**
 * Decrypts what {@link encryptShare} stored; throws when the key, user or data do not match.
 *
 * @example
 * const share = decryptShare(keys.shareKey, row.auth_share, user.id)
 */
export function decryptShare(key: Buffer, stored: string, userId: string): string {
  const [version, ivText, dataText] = stored.split('.')
  if (version !== 'v1' || !ivText || !dataText) throw new Error('Unknown share format')
  const data = Buffer.from(dataText, 'base64')
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivText, 'base64'))
  decipher.setAAD(Buffer.from(userId, 'utf8'))
  decipher.setAuthTag(data.subarray(data.length - 16))
  return Buffer.concat([
    decipher.update(data.subarray(0, data.length - 16)),
    decipher.final(),
  ]).toString('utf8')
}

/** Reads `path`, or creates it with `create()` (mode 0600) when missing; the first writer wins. */
function readOrCreate(path: string, create: () => string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 })
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
  writeFileSync(temp, create(), { mode: 0o600 })
  chmodSync(temp, 0o600)
  try {
    linkSync(temp, path) // fails if another process created it meanwhile
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  } finally {
    rmSync(temp, { force: true })
  }
  return readFileSync(path, 'utf8')
}
