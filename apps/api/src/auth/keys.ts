/**
 * The auth keys the database never holds: the AES-256 key of the auth shares at rest (from which
 * the OTP hashing key is derived) and the Ed25519 key that signs recovery tickets. Each comes from
 * configuration (environment) or from a file generated once in `keyDir` (mode 0600).
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto'
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CONFIG_ENV, InvalidConfigError } from '../config.js'

/** File names of the generated keys in `keyDir`. */
export const KEY_FILES = { shareKey: 'api-share.key', signingKey: 'api-signing.jwk' } as const

/** The public half of the signing key, as published at `/auth/v1/jwks.json`. */
export type PublicJwk = {
  kty: 'OKP'
  crv: 'Ed25519'
  x: string
  kid: string
  alg: 'EdDSA'
  use: 'sig'
}

/** The loaded keys. */
export type AuthKeys = {
  /** AES-256-GCM key of the auth shares. */
  shareKey: Buffer
  /** HMAC key of the stored one-time codes (derived from `shareKey`). */
  codeKey: Buffer
  /** Ed25519 private key of recovery tickets. */
  signingKey: KeyObject
  /** Its public JWK (with `kid`, the RFC 7638 thumbprint). */
  publicJwk: PublicJwk
}

/** Options of {@link loadAuthKeys}. */
export type LoadAuthKeysParameters = {
  /** Where missing keys are generated. */
  keyDir: string
  /** Base64 of 32 bytes (`PORTHOLE_SHARE_KEY`). */
  shareKey?: string | undefined
  /** Ed25519 private JWK as JSON (`PORTHOLE_API_SIGNING_KEY`). */
  signingKey?: string | undefined
}

/**
 * Loads the auth keys from the given values, else from `keyDir`, generating the files there on
 * first use (atomically, so concurrent processes agree on one key).
 *
 * @example
 * const keys = loadAuthKeys({ keyDir: '/srv/porthole/.data' })
 */
export function loadAuthKeys({ keyDir, shareKey, signingKey }: LoadAuthKeysParameters): AuthKeys {
  const shareText =
    shareKey ??
    readOrCreate(join(keyDir, KEY_FILES.shareKey), () => randomBytes(32).toString('base64'))
  const share = Buffer.from(shareText.trim(), 'base64')
  if (share.length !== 32)
    throw new InvalidConfigError(`${CONFIG_ENV.shareKey} must be the base64 of 32 bytes`)

  const jwkText =
    signingKey ??
    readOrCreate(join(keyDir, KEY_FILES.signingKey), () =>
      JSON.stringify(generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' })),
    )
  let privateKey: KeyObject
  try {
    privateKey = createPrivateKey({ key: JSON.parse(jwkText), format: 'jwk' })
  } catch (cause) {
    throw new InvalidConfigError(`${CONFIG_ENV.signingKey} is not a private JWK`, { cause })
  }
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new InvalidConfigError(`${CONFIG_ENV.signingKey} must be an Ed25519 (OKP) key`)
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string }
  const kid = createHash('sha256')
    .update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x }))
    .digest('base64url')
  return {
    shareKey: share,
    codeKey: Buffer.from(hkdfSync('sha256', share, Buffer.alloc(0), 'porthole one-time codes', 32)),
    signingKey: privateKey,
    publicJwk: { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' },
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
