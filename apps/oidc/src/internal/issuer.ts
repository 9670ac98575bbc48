import { generateKeyPair, randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import Provider, { type Configuration, interactionPolicy, type JWK } from 'oidc-provider'
import {
  clientIdOf,
  clientSecretOf,
  SOCIAL_SCOPES,
  type SocialProvider,
  TOKEN_ENDPOINT_AUTH_METHOD,
} from '../providers.ts'
import { createMemoryAdapter } from './memoryAdapter.ts'
import { errorPage } from './pages.ts'

/** The profile a user typed on the login page, kept per subject. */
export type Profile = {
  email: string
  name: string
  username: string
}

/** One provider's issuer: its oidc-provider instance and the accounts signed in so far. */
export type Issuer = {
  name: SocialProvider
  url: string
  /** Path prefix the issuer is mounted at, e.g. `/google`. */
  path: string
  redirectUris: readonly string[]
  /** Origins the redirect URIs forward to (they join the login form's `form-action`). */
  forwardOrigins: readonly string[]
  oidc: Provider
  accounts: Map<string, Profile>
  /** Handles a request whose `url` already has `path` removed. */
  handle: (
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse,
  ) => void
  close(): void
}

const generateRsaKeyPair = promisify(generateKeyPair)

const signingKeys = new Map<SocialProvider, Promise<JWK>>()

/**
 * The provider's RS256 signing key (what clients expect by default) as a private JWK,
 * generated on first use and kept for the life of the process: RSA generation is most of the
 * start-up time, and a server restarted in the same process (tests) keeps its keys, as a
 * real provider does.
 */
export function signingKeyOf(provider: SocialProvider): Promise<JWK> {
  let key = signingKeys.get(provider)
  if (!key) {
    key = generateRsaKeyPair('rsa', { modulusLength: 2048 }).then(({ privateKey }) => ({
      ...(privateKey.export({ format: 'jwk' }) as JWK),
      alg: 'RS256',
      use: 'sig',
      kid: `${provider}-${randomBytes(6).toString('hex')}`,
    }))
    key.catch(() => signingKeys.delete(provider))
    signingKeys.set(provider, key)
  }
  return key
}

/**
 * Creates one provider's issuer at `url` (whose path is where it is mounted), with one
 * confidential client, in-memory state and the given signing key.
 */
export function createIssuer(options: {
  name: SocialProvider
  url: string
  redirectUris: readonly string[]
  forwardOrigins?: readonly string[]
  signingKey: JWK
}): Issuer {
  const { name, url, redirectUris, forwardOrigins = [], signingKey } = options
  const path = new URL(url).pathname.replace(/\/+$/, '')
  const accounts = new Map<string, Profile>()
  const adapter = createMemoryAdapter()

  // Ask who the user is on every authorization request, as an account chooser would: a
  // session left over from an earlier sign-in never decides the account silently.
  const policy = interactionPolicy.base()
  policy
    .get('login')
    ?.checks.add(
      new interactionPolicy.Check(
        'every_authorization',
        'The dev provider asks who you are on every authorization request',
        (ctx) =>
          ctx.oidc.result?.login
            ? interactionPolicy.Check.NO_NEED_TO_PROMPT
            : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    )

  const cookie = { httpOnly: true, sameSite: 'lax', secure: false } as const
  const configuration: Configuration = {
    adapter: adapter.factory,
    clients: [
      {
        client_id: clientIdOf(name),
        client_secret: clientSecretOf(name),
        redirect_uris: [...redirectUris],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: TOKEN_ENDPOINT_AUTH_METHOD,
      },
    ],
    jwks: { keys: [signingKey] },
    // Plain-HTTP loopback: never `Secure`, named per provider (cookies ignore ports, so the
    // API on another port of 127.0.0.1 sees them too), the session one scoped to the issuer.
    cookies: {
      names: {
        session: `porthole_oidc_${name}_session`,
        interaction: `porthole_oidc_${name}_interaction`,
        resume: `porthole_oidc_${name}_resume`,
      },
      long: { ...cookie, path: path || '/' },
      short: cookie,
      keys: [randomBytes(32).toString('base64url')],
    },
    claims: {
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username'],
    },
    scopes: [...SOCIAL_SCOPES],
    responseTypes: ['code'],
    pkce: { required: () => true },
    conformIdTokenClaims: false,
    clientBasedCORS: () => false,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: true },
    },
    interactions: {
      policy,
      url: (_ctx, interaction) => `${path}/interaction/${interaction.uid}`,
    },
    ttl: {
      AccessToken: 60 * 60,
      AuthorizationCode: 10 * 60,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      Session: 60 * 60,
      Grant: 60 * 60,
    },
    findAccount: (_ctx, sub) => {
      const profile = accounts.get(sub)
      if (!profile) return undefined
      return {
        accountId: sub,
        claims: () => ({
          sub,
          email: profile.email,
          email_verified: true,
          name: profile.name,
          preferred_username: profile.username,
        }),
      }
    },
    renderError: (ctx, out) => {
      const page = errorPage({ error: out.error, description: out.error_description })
      ctx.set(page.headers)
      ctx.body = page.html
    },
  }

  const oidc = new Provider(url, configuration)
  oidc.proxy = false
  const callback = oidc.callback()

  return {
    name,
    url,
    path,
    redirectUris,
    forwardOrigins,
    oidc,
    accounts,
    handle: (req, res) => {
      void callback(req, res)
    },
    close: () => {
      adapter.clear()
      accounts.clear()
    },
  }
}
