/** Random secrets and their stored digests. */
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'

/**
 * A random 32-byte secret, base64url (43 characters): session tokens, approval tokens, result codes.
 *
 * @example
 * const token = randomToken() // 'q3J…' (43 characters)
 */
export function randomToken(): string {
  return randomBytes(32).toString('base64url')
}

/**
 * The stored form of a random token: its SHA-256, hex.
 *
 * @example
 * await db.execute('DELETE FROM auth_sessions WHERE token_hash = ?', [hashToken(token)])
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/**
 * A 6-digit one-time code from the crypto RNG.
 *
 * @example
 * randomCode() // '042917'
 */
export function randomCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0')
}

/**
 * The stored form of a one-time code: an HMAC under a key the database does not hold (a plain
 * hash of six digits would be reversed in a millisecond), bound to what the code is for.
 *
 * @example
 * hashCode(keys.codeKey, ['login', projectId, email], '042917')
 */
export function hashCode(key: Buffer, context: readonly string[], code: string): string {
  return createHmac('sha256', key)
    .update([...context, code].join('\n'), 'utf8')
    .digest('hex')
}

/**
 * Compares two hex digests in constant time.
 *
 * @example
 * sameDigest(row.code_hash, hashCode(key, context, code))
 */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex')
  const right = Buffer.from(b, 'hex')
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right)
}
