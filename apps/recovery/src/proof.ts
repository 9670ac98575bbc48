/**
 * Proofs that a request comes from the wallet frame that started a recovery: an ECDSA P-256 key
 * the frame made (and cannot export) signs each decrypt. For a social login the key's RFC 7638
 * thumbprint is the OpenID nonce, so the identity provider's ID token names the key; for an
 * e-mail approval the key is registered with the approval. The frame's side is
 * `apps/embedded-wallet/src/recovery.ts`.
 */
import { createHash, webcrypto } from 'node:crypto'
import { z } from 'zod'

/** A P-256 public key as a JWK (only the members that define it). */
export const DevicePublicKey = z.object({
  kty: z.literal('EC'),
  crv: z.literal('P-256'),
  x: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  y: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
})
/** A device public key. */
export type DevicePublicKey = z.infer<typeof DevicePublicKey>

/**
 * The RFC 7638 thumbprint: base64url SHA-256 of the required members in order, no spaces.
 *
 * @example
 * thumbprint({ kty: 'EC', crv: 'P-256', x, y }) // 43 base64url characters
 */
export function thumbprint({ crv, kty, x, y }: DevicePublicKey): string {
  return createHash('sha256').update(JSON.stringify({ crv, kty, x, y })).digest('base64url')
}

/** The first line of every decrypt proof's signed text. */
export const DECRYPT_PROOF_PREFIX = 'porthole-recovery:decrypt:v1'

/**
 * The text (UTF-8) a decrypt's signature covers:
 * `porthole-recovery:decrypt:v1\n<binding>\n<base64url(sha256(ciphertext string))>`, where the
 * binding is the approval id (e-mail) or the ID token's nonce (social), so a signature is good for
 * one ciphertext and one approval or login.
 *
 * @example
 * decryptPayload('approval-id', ciphertext)
 * // 'porthole-recovery:decrypt:v1\napproval-id\n<43 base64url characters>'
 */
export function decryptPayload(binding: string, ciphertext: string): string {
  const digest = createHash('sha256').update(ciphertext, 'utf8').digest('base64url')
  return `${DECRYPT_PROOF_PREFIX}\n${binding}\n${digest}`
}

/**
 * Whether `signature` (base64url of WebCrypto's raw 64-byte r‖s) is the key's signature of
 * `payload`.
 *
 * @example
 * await verifyProof(key, decryptPayload(approvalId, ciphertext), signature) // true
 */
export async function verifyProof(
  key: DevicePublicKey,
  payload: string,
  signature: string,
): Promise<boolean> {
  const raw = Buffer.from(signature, 'base64url')
  if (raw.length !== 64) return false
  try {
    const publicKey = await webcrypto.subtle.importKey(
      'jwk',
      key,
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    )
    return await webcrypto.subtle.verify(
      { name: 'ECDSA', hash: 'SHA-256' },
      publicKey,
      raw,
      new TextEncoder().encode(payload),
    )
  } catch {
    return false
  }
}
