/**
 * ID tokens of the social logins, checked against each identity provider's own keys (OpenID
 * discovery, then its JWKS): issuer one of the configured ones, audience that issuer's client id,
 * a good signature, not expired, and issued recently. The API that ran the login sees the token
 * too, but cannot use it here without the wallet frame's key (see `proof.ts`).
 */
import { createRemoteJWKSet, decodeJwt, errors, type JWTPayload, jwtVerify } from 'jose'

/** An identity provider the service trusts: its issuer URL and the client id of our app there. */
export type TrustedIssuer = { issuer: string; clientId: string }

/** The claims a verified ID token yields. */
export type VerifiedIdToken = {
  issuer: string
  subject: string
  nonce: string | null
  email: string | null
  /** A key for the replay cache (`jti`, else the nonce, else the token's signature). */
  id: string
}

/** Why an ID token was refused. */
export type IdTokenProblem =
  | 'malformed'
  | 'issuer'
  | 'audience'
  | 'signature'
  | 'expired'
  | 'stale'
  | 'claims'

/** An ID token that is not acceptable; `reason` says which check failed, `message` in words. */
export class InvalidIdTokenError extends Error {
  override name = 'InvalidIdTokenError' as const
  constructor(
    readonly reason: IdTokenProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** The identity provider's discovery document or keys could not be read. */
export class IssuerUnavailableError extends Error {
  override name = 'IssuerUnavailableError' as const
}

/** Options of {@link createIdTokenVerifier}. */
export type CreateIdTokenVerifierParameters = {
  issuers: readonly TrustedIssuer[]
  now?: () => number
  /** Fetch for discovery (tests). */
  fetch?: typeof fetch
}

/**
 * A verifier of ID tokens from the trusted issuers. Discovery (`<issuer>/.well-known/openid-configuration`)
 * is read once per issuer and its JWKS cached (refetched when a token names an unknown key); a
 * failure is retried on the next token.
 *
 * @example
 * const verify = createIdTokenVerifier({ issuers: [{ issuer, clientId }] })
 * const claims = await verify(idToken, { maxAgeSeconds: 600 })
 */
export function createIdTokenVerifier(parameters: CreateIdTokenVerifierParameters) {
  const { issuers, now = Date.now, fetch: doFetch = fetch } = parameters
  const keySets = new Map<string, Promise<ReturnType<typeof createRemoteJWKSet>>>()
  const keysOf = (issuer: string) => {
    let found = keySets.get(issuer)
    if (!found) {
      found = (async () => {
        const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`
        let document: { jwks_uri?: unknown; issuer?: unknown }
        try {
          const response = await doFetch(url, { signal: AbortSignal.timeout(10_000) })
          if (!response.ok) throw new Error(`it answered ${response.status}`)
          document = (await response.json()) as typeof document
        } catch (cause) {
          throw new IssuerUnavailableError(
            `The identity provider ${issuer} cannot be reached (${(cause as Error).message})`,
            { cause },
          )
        }
        if (document.issuer !== issuer || typeof document.jwks_uri !== 'string')
          throw new IssuerUnavailableError(
            `The discovery document of ${issuer} does not name that issuer or its keys`,
          )
        return createRemoteJWKSet(new URL(document.jwks_uri), { timeoutDuration: 10_000 })
      })()
      keySets.set(issuer, found)
      found.catch(() => keySets.delete(issuer))
    }
    return found
  }
  return async (token: string, options: { maxAgeSeconds: number }): Promise<VerifiedIdToken> => {
    let unverified: JWTPayload
    try {
      unverified = decodeJwt(token)
    } catch {
      throw new InvalidIdTokenError('malformed', 'The ID token is not a JWT')
    }
    const trusted = issuers.find((entry) => entry.issuer === unverified.iss)
    if (!trusted)
      throw new InvalidIdTokenError(
        'issuer',
        `The ID token comes from an issuer not trusted here (${String(unverified.iss)})`,
      )
    let payload: JWTPayload
    try {
      ;({ payload } = await jwtVerify(token, await keysOf(trusted.issuer), {
        issuer: trusted.issuer,
        audience: trusted.clientId,
        algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
        currentDate: new Date(now()),
        maxTokenAge: options.maxAgeSeconds,
        // The provider's clock and ours may differ a little.
        clockTolerance: 30,
        requiredClaims: ['sub', 'iat', 'exp'],
      }))
    } catch (cause) {
      if (cause instanceof IssuerUnavailableError) throw cause
      throw refusal(cause, options.maxAgeSeconds)
    }
    // OpenID Connect Core §3.1.3.7: with several audiences, the authorized party must be us.
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== trusted.clientId)
      throw new InvalidIdTokenError(
        'audience',
        'The ID token was issued to another client (azp) as well as this one',
      )
    const text = (value: unknown) => (typeof value === 'string' && value ? value : null)
    if (!text(payload.sub)) throw new InvalidIdTokenError('claims', 'The ID token has no subject')
    return {
      issuer: trusted.issuer,
      subject: payload.sub as string,
      nonce: text(payload.nonce),
      email: text(payload.email)?.toLowerCase() ?? null,
      id: text(payload.jti) ?? text(payload.nonce) ?? token.split('.')[2] ?? token,
    }
  }
}

function refusal(cause: unknown, maxAgeSeconds: number): Error {
  if (cause instanceof errors.JWTExpired)
    return cause.claim === 'iat'
      ? new InvalidIdTokenError(
          'stale',
          `The ID token is older than ${maxAgeSeconds / 60} minutes: sign in again`,
          { cause },
        )
      : new InvalidIdTokenError('expired', 'The ID token has expired', { cause })
  if (cause instanceof errors.JWTClaimValidationFailed) {
    if (cause.claim === 'aud')
      return new InvalidIdTokenError('audience', 'The ID token was issued to another client', {
        cause,
      })
    if (cause.claim === 'iss')
      return new InvalidIdTokenError('issuer', 'The ID token names another issuer', { cause })
    return new InvalidIdTokenError(
      'claims',
      `The ID token's claims are not valid: ${cause.message}`,
      {
        cause,
      },
    )
  }
  if (
    cause instanceof errors.JWSSignatureVerificationFailed ||
    cause instanceof errors.JWKSNoMatchingKey ||
    cause instanceof errors.JWKSMultipleMatchingKeys ||
    cause instanceof errors.JOSEAlgNotAllowed ||
    cause instanceof errors.JWSInvalid ||
    cause instanceof errors.JWTInvalid
  )
    return new InvalidIdTokenError(
      'signature',
      "The ID token's signature is not the identity provider's",
      { cause },
    )
  // Anything else is the keys' endpoint failing (timeout, network, an unusable JWKS).
  return new IssuerUnavailableError(
    `The identity provider's keys cannot be read (${(cause as Error).message})`,
    { cause },
  )
}

/** The verifier type. */
export type IdTokenVerifier = ReturnType<typeof createIdTokenVerifier>
