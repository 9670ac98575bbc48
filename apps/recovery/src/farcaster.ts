/**
 * Farcaster owners: the service checks a Sign In With Farcaster message itself — made for a
 * wallet origin it serves, fresh, signed by the address the IdRegistry names as the fid's
 * custody (read from the chain here, never taken from the API) — so the identity is
 * `farcaster:<fid>`. For a decrypt the message's nonce must name the device key that signs the
 * request (its RFC 7638 thumbprint as hex), as an ID token's nonce does for social users.
 */
import {
  type CustodyReader,
  FarcasterSignInError,
  type FarcasterSignInReason,
  farcasterNonceOf,
  type VerifyFarcasterSignInReturnType,
  verifyFarcasterSignIn,
} from '@porthole/shared'

/** How Farcaster sign-ins are checked: the IdRegistry's chain and a reader of it. */
export type FarcasterCheck = { chainId: number; custodyOf: CustodyReader }

/** A refused Farcaster message (`reason` as `FarcasterSignInError`'s). */
export class InvalidFarcasterSignInError extends Error {
  override name = 'InvalidFarcasterSignInError' as const
  constructor(
    readonly reason: Exclude<FarcasterSignInReason, 'unavailable'>,
    message: string,
  ) {
    super(message)
  }
}

/** The IdRegistry could not be read. */
export class RegistryUnavailableError extends Error {
  override name = 'RegistryUnavailableError' as const
}

/** Options of {@link verifyFarcasterOwner}. */
export type VerifyFarcasterOwnerParameters = {
  message: string
  signature: `0x${string}`
  /** The wallet origins this service serves: the message must be for one of them. */
  walletOrigins: readonly string[]
  /** The oldest accepted `Issued At`, in seconds. */
  maxAgeSeconds: number
  check: FarcasterCheck
  now: number
}

/**
 * Checks a Farcaster owner's message and signature: for one of the wallet origins (domain its
 * host, URI its origin and `/`), the IdRegistry's chain, not expired, issued within
 * `maxAgeSeconds`, signed by the fid's custody address. Throws `InvalidFarcasterSignInError` or
 * `RegistryUnavailableError`.
 *
 * @example
 * const { fid, nonce } = await verifyFarcasterOwner({ message, signature, walletOrigins, maxAgeSeconds: 600, check, now: Date.now() })
 */
export async function verifyFarcasterOwner(
  parameters: VerifyFarcasterOwnerParameters,
): Promise<VerifyFarcasterSignInReturnType> {
  // EIP-4361's first word is the domain; the full check below reads the whole message.
  const domain = /^([^\s/]+) wants you to sign in /.exec(parameters.message)?.[1]
  const origin = parameters.walletOrigins.find((o) => new URL(o).host === domain)
  if (!origin)
    throw new InvalidFarcasterSignInError(
      'domain',
      `The Farcaster message is for ${domain ?? 'no domain'}, not a wallet this service serves`,
    )
  try {
    return await verifyFarcasterSignIn({
      message: parameters.message,
      signature: parameters.signature,
      domain: new URL(origin).host,
      uri: `${origin}/`,
      chainId: parameters.check.chainId,
      maxAgeMs: parameters.maxAgeSeconds * 1000,
      now: parameters.now,
      custodyOf: parameters.check.custodyOf,
    })
  } catch (error) {
    if (!(error instanceof FarcasterSignInError)) throw error
    if (error.reason === 'unavailable')
      throw new RegistryUnavailableError('The Farcaster IdRegistry cannot be read', {
        cause: error,
      })
    throw new InvalidFarcasterSignInError(error.reason, error.message)
  }
}

/**
 * The identity a Farcaster owner's shares are sealed for.
 *
 * @example
 * farcasterIdentity(1234) // 'farcaster:1234'
 */
export const farcasterIdentity = (fid: number) => `farcaster:${fid}`

/**
 * The nonce a decrypt's Farcaster message must carry for this device key thumbprint.
 *
 * @example
 * nonceForKey(thumbprint(publicKey)) // 64 hex digits
 */
export const nonceForKey = (thumbprint: string) => farcasterNonceOf(thumbprint)
