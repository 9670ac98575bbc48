/**
 * The recovery key service, called from this frame only (the API never sees these calls). It
 * seals recovery shares for an owner and opens them only after checking the user itself:
 * - an e-mail user approves the new device from a mail the service sends (its own link), and the
 *   decrypt is signed with a key made here for that approval;
 * - a social user's ID token (checked against the identity provider's keys) carries as nonce the
 *   thumbprint of a key made here before the login, and the decrypt is signed with that key;
 * - a Farcaster user's signed Sign In With Farcaster message (its custody checked on chain by the
 *   service) carries that thumbprint as hex, and the decrypt is signed with that key.
 * Device keys are ECDSA P-256 WebCrypto keys whose private half cannot be read, even here.
 */
import { BaseError } from '@porthole/protocol'
import { farcasterNonceOf } from '@porthole/shared'
import { ApiError } from './api.js'
import type { Runtime } from './runtime.js'

let runtime: Runtime | undefined

/** Binds the client to this page's runtime settings. */
export function configureRecovery(value: Runtime): void {
  runtime = value
}

/** Who a recovery share belongs to. */
export type Owner =
  | { kind: 'email'; email: string }
  | { kind: 'oidc'; idToken: string }
  /** A Sign In With Farcaster message (the service checks the fid's custody on chain). */
  | { kind: 'farcaster'; message: string; signature: string }

/** A device key: its public JWK, its RFC 7638 thumbprint, and the unreadable private key. */
export type DeviceKey = {
  publicJwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string }
  thumbprint: string
  privateKey: CryptoKey
}

/** State of an e-mail device approval. */
export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired' | 'used'

const encoder = new TextEncoder()

/** base64url without padding. */
export function base64url(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)
  return btoa(String.fromCharCode(...view))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '')
}

const sha256 = async (text: string) =>
  base64url(await crypto.subtle.digest('SHA-256', encoder.encode(text)))

/**
 * A new device key. Its thumbprint is the OpenID nonce of a social login, or it is registered
 * with an e-mail approval.
 *
 * @example
 * const key = await createDeviceKey()
 * await Api.startSocial(provider, deviceId, key.thumbprint)
 */
export async function createDeviceKey(): Promise<DeviceKey> {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ])
  const { x, y } = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as {
    x: string
    y: string
  }
  const publicJwk = { kty: 'EC', crv: 'P-256', x, y } as const
  // RFC 7638: the required members in lexicographic order, no spaces.
  const thumbprint = await sha256(JSON.stringify({ crv: 'P-256', kty: 'EC', x, y }))
  return { publicJwk, thumbprint, privateKey: pair.privateKey }
}

/**
 * The proof a decrypt carries: the device key's signature of
 * `porthole-recovery:decrypt:v1\n<binding>\n<base64url(sha256(ciphertext))>`, raw r‖s in base64url.
 *
 * @example
 * const signature = await decryptProof(key, approvalId, ciphertext)
 */
export async function decryptProof(
  key: DeviceKey,
  binding: string,
  ciphertext: string,
): Promise<string> {
  const payload = `porthole-recovery:decrypt:v1\n${binding}\n${await sha256(ciphertext)}`
  return base64url(
    await crypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      key.privateKey,
      encoder.encode(payload),
    ),
  )
}

async function post<T>(path: string, body: unknown): Promise<T> {
  if (!runtime) throw new Error('Recovery used before configuration')
  let response: Response
  try {
    response = await fetch(new URL(path, runtime.recoveryUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: runtime.projectId, ...(body as object) }),
    })
  } catch (cause) {
    throw new BaseError('The recovery service cannot be reached', { cause })
  }
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (!response.ok) throw new ApiError(response.status, json)
  return json as T
}

/**
 * Seals a recovery share (base64) for its owner; the service keeps nothing.
 *
 * @example
 * const ciphertext = await encryptShare({ kind: 'email', email }, share)
 */
export async function encryptShare(owner: Owner, share: string): Promise<string> {
  return (await post<{ ciphertext: string }>('/v1/recovery/encrypt', { owner, share })).ciphertext
}

/**
 * Asks the service to mail the user an approval link for this device (naming the site, browser
 * and IP address).
 *
 * @example
 * const { approvalId } = await startApproval(email, 'https://shop.example', key)
 */
export function startApproval(
  email: string,
  site: string,
  key: DeviceKey,
): Promise<{ approvalId: string; expiresAt: number }> {
  return post('/v1/recovery/approvals', { email, site, devicePublicKey: key.publicJwk })
}

/** Where an approval stands. */
export async function approvalStatus(approvalId: string): Promise<ApprovalStatus> {
  return (await post<{ status: ApprovalStatus }>('/v1/recovery/approvals/status', { approvalId }))
    .status
}

/**
 * Opens the recovery share with an approved e-mail approval (once).
 *
 * @example
 * const share = await decryptWithApproval(ciphertext, approvalId, key)
 */
export async function decryptWithApproval(
  ciphertext: string,
  approvalId: string,
  key: DeviceKey,
): Promise<string> {
  const signature = await decryptProof(key, approvalId, ciphertext)
  return (
    await post<{ share: string }>('/v1/recovery/decrypt', {
      ciphertext,
      proof: { kind: 'email', approvalId, signature },
    })
  ).share
}

/**
 * Opens the recovery share with a fresh ID token whose nonce is this key's thumbprint (once).
 *
 * @example
 * const share = await decryptWithIdToken(ciphertext, idToken, key, site)
 */
export async function decryptWithIdToken(
  ciphertext: string,
  idToken: string,
  key: DeviceKey,
  site: string,
): Promise<string> {
  const signature = await decryptProof(key, key.thumbprint, ciphertext)
  return (
    await post<{ share: string }>('/v1/recovery/decrypt', {
      ...(site ? { site } : {}),
      ciphertext,
      proof: { kind: 'oidc', idToken, publicKey: key.publicJwk, signature },
    })
  ).share
}

/**
 * Opens the recovery share with a fresh Sign In With Farcaster message whose nonce names this key
 * (`farcasterNonceOf(key.thumbprint)`), once.
 *
 * @example
 * const share = await decryptWithFarcaster(ciphertext, { message, signature }, key, site)
 */
export async function decryptWithFarcaster(
  ciphertext: string,
  login: { message: string; signature: string },
  key: DeviceKey,
  site: string,
): Promise<string> {
  const signature = await decryptProof(key, farcasterNonceOf(key.thumbprint), ciphertext)
  return (
    await post<{ share: string }>('/v1/recovery/decrypt', {
      ...(site ? { site } : {}),
      ciphertext,
      proof: {
        kind: 'farcaster',
        message: login.message,
        messageSignature: login.signature,
        publicKey: key.publicJwk,
        signature,
      },
    })
  ).share
}
