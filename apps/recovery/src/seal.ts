/**
 * Encryption of recovery shares: AES-256-GCM under a key derived from the master secret, bound
 * (as associated data) to the project and the owner's identity — an e-mail address or an identity
 * provider's issuer and subject — so a ciphertext opens for nobody else.
 * Layout: version byte 2 ‖ 12-byte IV ‖ ciphertext ‖ 16-byte tag, base64.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

/** The version of the ciphertexts this service makes (v1 ones were bound to API user ids). */
export const SEAL_VERSION = 2
const IV_BYTES = 12
const TAG_BYTES = 16

/** Who a ciphertext belongs to: a project and an identity (`email:…` or `oidc:<iss>|<sub>`). */
export type Owner = { projectId: string; identity: string }

/**
 * The AES key of version 2, derived once from the master secret.
 *
 * @example
 * const key = deriveSealKey(master)
 */
export function deriveSealKey(master: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'porthole-recovery:v2', 32))
}

const aadOf = ({ projectId, identity }: Owner) =>
  Buffer.from(`porthole-recovery:v2:${projectId}:${identity}`, 'utf8')

/**
 * Encrypts a share for its owner.
 *
 * @example
 * const ciphertext = seal(key, 'AQID', { projectId: 'p', identity: 'email:ada@example.com' })
 */
export function seal(key: Buffer, share: string, owner: Owner): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(aadOf(owner))
  const body = Buffer.concat([cipher.update(share, 'utf8'), cipher.final()])
  return Buffer.concat([Buffer.from([SEAL_VERSION]), iv, body, cipher.getAuthTag()]).toString(
    'base64',
  )
}

/** The version byte of a ciphertext, or null when it is too short to be one. */
export function versionOf(ciphertext: string): number | null {
  const data = Buffer.from(ciphertext, 'base64')
  return data.length < 1 + IV_BYTES + TAG_BYTES ? null : (data[0] as number)
}

/**
 * Decrypts what {@link seal} made for the same owner; null when anything does not match.
 *
 * @example
 * open(key, ciphertext, { projectId: 'p', identity: 'email:ada@example.com' }) // 'AQID'
 */
export function open(key: Buffer, ciphertext: string, owner: Owner): string | null {
  const data = Buffer.from(ciphertext, 'base64')
  if (versionOf(ciphertext) !== SEAL_VERSION) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(1, 1 + IV_BYTES))
    decipher.setAAD(aadOf(owner))
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES))
    return Buffer.concat([
      decipher.update(data.subarray(1 + IV_BYTES, data.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8')
  } catch {
    return null
  }
}
