/**
 * Farcaster owners: the service checks a Sign In With Farcaster message itself — a Porthole login
 * for the project asked about (its `Request ID`), naming one site as domain and URI, fresh,
 * signed by the address the IdRegistry names as the fid's custody (read from the chain here,
 * never taken from the API) — so the identity is `farcaster:<fid>:<custody address>`: a share
 * sealed for one custody address opens for no other, after a transfer or a Farcaster recovery
 * of the fid too. For a decrypt the message's nonce must name the device key that signs the
 * request (its RFC 7638 thumbprint as hex), as an ID token's nonce does for social users.
 */
import {
  type CustodyReader,
  FarcasterSignInError,
  type FarcasterSignInReason,
  farcasterNonceOf,
  siteOfFarcasterRequest,
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
  /** The project whose share is sealed or opened: the message must be its Porthole login. */
  projectId: string
  /** The oldest accepted `Issued At`, in seconds. */
  maxAgeSeconds: number
  check: FarcasterCheck
  now: number
}

/** A verified Farcaster owner: the sign-in, and the site it named. */
export type VerifyFarcasterOwnerReturnType = VerifyFarcasterSignInReturnType & {
  /** The site (origin) the message named as its domain and URI, which the user approved. */
  site: string
}

/**
 * Checks a Farcaster owner's message and signature: a Porthole login for `projectId` (its
 * `Request ID`), naming one site (domain its host, URI its origin and `/`), the IdRegistry's
 * chain, not expired, issued within `maxAgeSeconds`, signed by the fid's custody address. Throws
 * `InvalidFarcasterSignInError` or `RegistryUnavailableError`.
 *
 * @example
 * const { fid, custody, site } = await verifyFarcasterOwner({ message, signature, projectId, maxAgeSeconds: 600, check, now: Date.now() })
 */
export async function verifyFarcasterOwner(
  parameters: VerifyFarcasterOwnerParameters,
): Promise<VerifyFarcasterOwnerReturnType> {
  // EIP-4361's first word is the domain, and the URI has its own line; the full check below
  // reads the whole message exactly.
  const domain = /^([^\s/]+) wants you to sign in /.exec(parameters.message)?.[1]
  const uri = /\nURI: ([^\n]+)\n/.exec(parameters.message)?.[1]
  const site = domain && uri ? siteOfFarcasterRequest({ domain, siweUri: uri }) : undefined
  if (!site || uri !== `${site}/`)
    throw new InvalidFarcasterSignInError(
      'domain',
      `The Farcaster message names no site (domain ${domain ?? 'none'}, URI ${uri ?? 'none'})`,
    )
  try {
    const signIn = await verifyFarcasterSignIn({
      message: parameters.message,
      signature: parameters.signature,
      domain: domain as string,
      uri,
      projectId: parameters.projectId,
      chainId: parameters.check.chainId,
      maxAgeMs: parameters.maxAgeSeconds * 1000,
      now: parameters.now,
      custodyOf: parameters.check.custodyOf,
    })
    return { ...signIn, site }
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
 * The identity a Farcaster owner's shares are sealed for: the fid and its custody address.
 *
 * @example
 * farcasterIdentity(1234, '0xAbC…') // 'farcaster:1234:0xabc…'
 */
export const farcasterIdentity = (fid: number, custody: string) =>
  `farcaster:${fid}:${custody.toLowerCase()}`

/**
 * The identity of shares sealed before the custody address was part of it (the fid alone): they
 * still open for the fid's current custody; the wallet frame seals a new share for the custody
 * address at its next sign-in on a device that holds the wallet.
 *
 * @example
 * legacyFarcasterIdentity(1234) // 'farcaster:1234'
 */
export const legacyFarcasterIdentity = (fid: number) => `farcaster:${fid}`

/**
 * The nonce a decrypt's Farcaster message must carry for this device key thumbprint.
 *
 * @example
 * nonceForKey(thumbprint(publicKey)) // 64 hex digits
 */
export const nonceForKey = (thumbprint: string) => farcasterNonceOf(thumbprint)
