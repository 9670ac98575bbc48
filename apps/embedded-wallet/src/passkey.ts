/**
 * A recovery share sealed under a factor only the user holds: the PRF secret of a passkey of
 * this wallet (WebAuthn's `prf` extension). The secret never leaves this frame; the sealed share
 * is stored by the API, which cannot open it, nor can the recovery key service. The ceremonies
 * run in this frame (the modal and the SDK delegate `publickey-credentials-*`). On Porthole's
 * wallet origin the relying party is that origin's host, so no host page can ask for these
 * passkeys; on a project's custom wallet domain (issue 18) it is the frame's own site, the
 * dapp's (`app.example` for `wallet.app.example`), so the passkey is the dapp's: pages of that
 * site can ask for it too, as they control its DNS anyway.
 */
import { BaseError, UserRejectedRequestError } from '@porthole/protocol'
import { base64url } from './recovery.js'

const encoder = new TextEncoder()

/** The PRF input: fixed, so the same passkey always gives the same secret. */
async function prfSalt(): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(
    await crypto.subtle.digest('SHA-256', encoder.encode('porthole-recovery:passkey:v1')),
  )
}

const fromBase64url = (text: string) =>
  Uint8Array.from(atob(text.replaceAll('-', '+').replaceAll('_', '/')), (c) => c.charCodeAt(0))

type PrfResults = { prf?: { enabled?: boolean; results?: { first?: ArrayBuffer } } }

/**
 * The relying party id of this wallet's passkeys: the `passkeyRpId` the hosting writes into the
 * page's configuration on a custom wallet domain (the frame's site), when it is this host or a
 * parent domain of it; otherwise `undefined`, and the browser uses this origin's host.
 *
 * @example
 * // on http://wallet.app.localhost:4200, configured with passkeyRpId 'app.localhost'
 * passkeyRpId() // 'app.localhost'
 */
export function passkeyRpId(
  doc: Pick<Document, 'querySelector'> = document,
  hostname: string = location.hostname,
): string | undefined {
  let id: unknown
  try {
    const content = doc.querySelector('meta[name="porthole-config"]')?.getAttribute('content')
    id = content ? (JSON.parse(content) as { passkeyRpId?: unknown }).passkeyRpId : undefined
  } catch {
    return undefined
  }
  if (typeof id !== 'string' || !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(id)) return undefined
  return hostname === id || hostname.endsWith(`.${id}`) ? id : undefined
}

/** The passkey has no PRF (or the browser does not pass it on). */
export class PasskeyUnsupportedError extends BaseError {
  override name = 'PasskeyUnsupportedError' as const
  constructor() {
    super('This passkey cannot protect a wallet: it has no PRF support')
  }
}

function refused(error: unknown): never {
  if (error instanceof DOMException && error.name === 'NotAllowedError')
    throw new UserRejectedRequestError('The passkey request was cancelled')
  throw new BaseError('The passkey request failed', { cause: error })
}

/**
 * Reads the PRF secret of an existing passkey of this origin.
 *
 * @example
 * const secret = await usePasskey(credentialId)
 */
export async function usePasskey(credentialId: string): Promise<Uint8Array> {
  const rpId = passkeyRpId()
  const assertion = (await navigator.credentials
    .get({
      publicKey: {
        ...(rpId ? { rpId } : {}),
        challenge: crypto.getRandomValues(new Uint8Array(32)),
        allowCredentials: [{ type: 'public-key', id: fromBase64url(credentialId) }],
        userVerification: 'required',
        extensions: {
          prf: { eval: { first: await prfSalt() } },
        } as AuthenticationExtensionsClientInputs,
      },
    })
    .catch(refused)) as PublicKeyCredential | null
  const first = (assertion?.getClientExtensionResults() as PrfResults | undefined)?.prf?.results
    ?.first
  if (!first) throw new PasskeyUnsupportedError()
  return new Uint8Array(first)
}

/**
 * Creates a passkey for this wallet and returns its id and PRF secret (asking it once more when
 * the authenticator gives the secret only on use).
 *
 * @example
 * const { credentialId, secret } = await createPasskey({ userId, name: 'ada@example.com' })
 */
export async function createPasskey(user: {
  userId: string
  name: string
}): Promise<{ credentialId: string; secret: Uint8Array }> {
  const rpId = passkeyRpId()
  const credential = (await navigator.credentials
    .create({
      publicKey: {
        rp: { name: 'Porthole wallet', ...(rpId ? { id: rpId } : {}) },
        user: {
          id: encoder.encode(user.userId).slice(0, 64),
          name: user.name,
          displayName: user.name,
        },
        challenge: crypto.getRandomValues(new Uint8Array(32)),
        pubKeyCredParams: [
          { type: 'public-key', alg: -7 },
          { type: 'public-key', alg: -257 },
        ],
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
        extensions: {
          prf: { eval: { first: await prfSalt() } },
        } as AuthenticationExtensionsClientInputs,
      },
    })
    .catch(refused)) as PublicKeyCredential | null
  if (!credential) throw new UserRejectedRequestError('The passkey request was cancelled')
  const credentialId = base64url(credential.rawId)
  const prf = (credential.getClientExtensionResults() as PrfResults).prf
  if (prf?.enabled === false) throw new PasskeyUnsupportedError()
  const first = prf?.results?.first
  return {
    credentialId,
    secret: first ? new Uint8Array(first) : await usePasskey(credentialId),
  }
}

/** What a sealed share is bound to: the project and the wallet. */
export type SealBinding = { projectId: string; address: string }

async function sealKey(secret: Uint8Array): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', new Uint8Array(secret), 'HKDF', false, [
    'deriveKey',
  ])
  return crypto.subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: new Uint8Array(0),
      info: encoder.encode('porthole-recovery:passkey-seal:v1'),
    },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  )
}

const aad = ({ projectId, address }: SealBinding) =>
  encoder.encode(`porthole-passkey:v1:${projectId}:${address.toLowerCase()}`)

/**
 * Seals a share (base64) under a PRF secret: version byte 1 ‖ 12-byte IV ‖ AES-GCM ciphertext,
 * base64, bound to the project and wallet.
 *
 * @example
 * const ciphertext = await sealShare(secret, share, { projectId, address })
 */
export async function sealShare(
  secret: Uint8Array,
  share: string,
  binding: SealBinding,
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const body = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: aad(binding) },
    await sealKey(secret),
    encoder.encode(share),
  )
  const out = new Uint8Array(1 + iv.length + body.byteLength)
  out.set([1])
  out.set(iv, 1)
  out.set(new Uint8Array(body), 13)
  return btoa(String.fromCharCode(...out))
}

/**
 * Opens what {@link sealShare} made; throws when the passkey, project or wallet differ.
 *
 * @example
 * const share = await openShare(secret, ciphertext, { projectId, address })
 */
export async function openShare(
  secret: Uint8Array,
  ciphertext: string,
  binding: SealBinding,
): Promise<string> {
  const data = Uint8Array.from(atob(ciphertext), (c) => c.charCodeAt(0))
  if (data[0] !== 1 || data.length < 13 + 16) throw new BaseError('Unknown sealed share format')
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: data.subarray(1, 13), additionalData: aad(binding) },
      await sealKey(secret),
      data.subarray(13),
    )
    return new TextDecoder().decode(plain)
  } catch (cause) {
    throw new BaseError('This passkey does not open this wallet', { cause })
  }
}
