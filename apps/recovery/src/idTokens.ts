/**
 * ID tokens of the social logins, checked against each identity provider's own keys (OpenID
 * discovery, then its JWKS): issuer one of the configured ones, audience that issuer's client id,
 * a good signature, not expired, and issued recently. The API that ran the login sees the token
 * too, but cannot use it here without the wallet frame's key (see `proof.ts`).
 */
import { createRemoteJWKSet, decodeJwt, type JWTPayload, jwtVerify } from 'jose'

/** An identity provider the service trusts: its issuer URL and the client id of our app there. */
export type TrustedIssuer = { issuer: string; clientId: string }

/** The claims a verified ID token yields. */
export type VerifiedIdToken = {
  issuer: string
  subject: string
  nonce: string | null
  email: string | null
  /** A key for the replay cache (`jti`, else the nonce, else the raw token's hash). */
  id: string
}

/** An ID token that is not acceptable; `message` says why. */
export class InvalidIdTokenError extends Error {
  override name = 'InvalidIdTokenError' as const
}

/** Options of {@link createIdTokenVerifier}. */
export type CreateIdTokenVerifierParameters = {
  issuers: readonly TrustedIssuer[]
  now?: () => number
  /** Fetch for discovery (tests). */
  fetch?: typeof fetch
}

/**
 * A verifier of ID tokens from the trusted issuers; discovery and keys are fetched once per
 * issuer (a failure is retried on the next token).
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
        const response = await doFetch(url, { signal: AbortSignal.timeout(10_000) })
        if (!response.ok) throw new Error(`Discovery of ${issuer} answered ${response.status}`)
        const { jwks_uri: jwksUri, issuer: named } = (await response.json()) as {
          jwks_uri?: unknown
          issuer?: unknown
        }
        if (named !== issuer || typeof jwksUri !== 'string')
          throw new Error(`Discovery of ${issuer} does not name it or its keys`)
        return createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: 10_000 })
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
      throw new InvalidIdTokenError('The ID token is not a JWT')
    }
    const trusted = issuers.find((entry) => entry.issuer === unverified.iss)
    if (!trusted)
      throw new InvalidIdTokenError('The ID token comes from an issuer not trusted here')
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
      throw new InvalidIdTokenError(`The ID token is not valid: ${(cause as Error).message}`, {
        cause,
      })
    }
    const text = (value: unknown) => (typeof value === 'string' && value ? value : null)
    return {
      issuer: trusted.issuer,
      subject: payload.sub as string,
      nonce: text(payload.nonce),
      email: text(payload.email)?.toLowerCase() ?? null,
      id: text(payload.jti) ?? text(payload.nonce) ?? token.split('.')[2] ?? token,
    }
  }
}

/** The verifier type. */
export type IdTokenVerifier = ReturnType<typeof createIdTokenVerifier>
