/**
 * The relay's auth token (`?auth=` on the socket URL): an EdDSA JWT from
 * `@walletconnect/relay-auth`. `verifyJWT` checks only the signature, so the expiry, the
 * audience (the relay URL the client was configured with) and the issuer are checked here.
 */
import { decodeJWT, verifyJWT } from '@walletconnect/relay-auth'

/**
 * Why a token is refused, or null when it is good.
 *
 * @example
 * const reason = await checkToken(token, ['ws://127.0.0.1:4400']) // null
 */
export async function checkToken(
  token: string | null,
  audiences: readonly string[],
  now = Date.now(),
): Promise<string | null> {
  if (!token) return 'missing auth token'
  let payload: { iss?: unknown; aud?: unknown; exp?: unknown }
  try {
    if (!(await verifyJWT(token))) return 'bad signature'
    payload = decodeJWT(token).payload
  } catch {
    return 'malformed token'
  }
  if (typeof payload.iss !== 'string' || !payload.iss.startsWith('did:key:')) return 'bad issuer'
  if (typeof payload.exp !== 'number' || payload.exp * 1000 <= now) return 'expired token'
  const aud = typeof payload.aud === 'string' ? payload.aud.replace(/\/+$/, '') : ''
  if (!audiences.includes(aud)) return 'wrong audience'
  return null
}
