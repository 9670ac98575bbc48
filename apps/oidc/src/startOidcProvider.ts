import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { allowedHosts, endpoints, isAllowedHost, portOf } from '@porthole/shared'
import { OidcPortInUseError, OidcStartError, UnknownSocialProviderError } from './errors.ts'
import { handleInteraction, send } from './internal/interaction.ts'
import { createIssuer, type Issuer, signingKeyOf } from './internal/issuer.ts'
import { errorPage } from './internal/pages.ts'
import {
  clientIdOf,
  clientSecretOf,
  isSocialProvider,
  SOCIAL_PROVIDERS,
  type SocialProvider,
} from './providers.ts'

/**
 * Options of {@link startOidcProvider}.
 *
 * @example
 * const parameters: StartOidcProviderParameters = { port: 0, providers: ['google'] }
 */
export type StartOidcProviderParameters<
  providers extends readonly SocialProvider[] = readonly SocialProvider[],
> = {
  /** Port to listen on; default the port of `endpoints().oidc` (4600). `0` picks a free one. */
  port?: number
  /** Interface to listen on, also the host of the issuer URLs; default `127.0.0.1`. */
  host?: string
  /** Redirect URIs registered for every client; default the API's social callback. */
  redirectUris?: readonly string[]
  /**
   * Origins the redirect URI forwards the browser to (the API's callback sends it on to the
   * wallet frame's origin). Browsers check the login form's `form-action` on every redirect
   * after the submission, so they join it; default the wallet origin of `endpoints()`.
   */
  forwardOrigins?: readonly string[]
  /** Which issuers to run; default all of {@link SOCIAL_PROVIDERS}. */
  providers?: providers
  /**
   * More `Host` header values to answer, e.g. `oidc.internal:4600`. It always answers
   * `<host>:<port>` and, bound to loopback, `localhost`, `127.0.0.1` and `[::1]` on its port;
   * any other `Host` gets 421 before any handler runs (DNS rebinding protection).
   */
  extraHosts?: readonly string[]
}

/**
 * The client a relying party uses at one provider's dev issuer.
 *
 * @example
 * const { issuer, clientId, clientSecret }: OidcClientConfig = oidc.clients.google
 * const config = await client.discovery(new URL(issuer), clientId, clientSecret, undefined, {
 *   execute: [client.allowInsecureRequests],
 * })
 */
export type OidcClientConfig = {
  clientId: string
  clientSecret: string
  /** The issuer URL; discovery is at `<issuer>/.well-known/openid-configuration`. */
  issuer: string
}

/**
 * A running dev OpenID provider.
 *
 * @example
 * const oidc: StartOidcProviderReturnType = await startOidcProvider()
 */
export type StartOidcProviderReturnType<provider extends SocialProvider = SocialProvider> = {
  /** Base URL of the server, e.g. `http://127.0.0.1:4600`. */
  url: string
  /** The issuer URL of a provider, e.g. `http://127.0.0.1:4600/google`. */
  issuer(provider: provider): string
  /** Client id, secret and issuer of every running provider. */
  clients: Record<provider, OidcClientConfig>
  /** Stops listening, drops open connections and forgets every session and account. */
  close(): Promise<void>
}

/**
 * Errors {@link startOidcProvider} can reject with.
 *
 * @example
 * await startOidcProvider().catch((error: StartOidcProviderErrorType) => console.error(error.shortMessage))
 */
export type StartOidcProviderErrorType =
  | OidcStartError
  | OidcPortInUseError
  | UnknownSocialProviderError

/**
 * Starts the local OpenID provider that stands in for the social login providers: one issuer
 * per provider at `http://127.0.0.1:4600/<provider>`, each with its own signing key and one
 * confidential client (`porthole-<provider>`, authorization code + PKCE S256, scopes
 * `openid email profile`) and a login page that asks for an e-mail address, display name
 * and username. Requests whose `Host` is not a name the server is served under get 421 (see
 * `extraHosts`).
 *
 * @example
 * const oidc = await startOidcProvider({ port: 0, providers: ['google', 'github'] })
 * oidc.issuer('google') // 'http://127.0.0.1:39123/google'
 * oidc.clients.github // { clientId: 'porthole-github', clientSecret: 'porthole-github-secret', issuer: '…/github' }
 * await oidc.close()
 */
export async function startOidcProvider<
  const providers extends readonly SocialProvider[] = typeof SOCIAL_PROVIDERS,
>(
  parameters: StartOidcProviderParameters<providers> = {},
): Promise<StartOidcProviderReturnType<providers[number]>> {
  const {
    host = '127.0.0.1',
    port = portOf(endpoints().oidc),
    redirectUris = [`${endpoints().api}/auth/v1/social/callback`],
    forwardOrigins = [new URL(endpoints().wallet).origin],
    providers = SOCIAL_PROVIDERS,
    extraHosts,
  } = parameters
  const names = [...new Set(providers as readonly string[])]
  for (const name of names) if (!isSocialProvider(name)) throw new UnknownSocialProviderError(name)
  if (names.length === 0)
    throw new OidcStartError('Cannot start the dev OpenID provider: no providers')
  if (redirectUris.length === 0)
    throw new OidcStartError('Cannot start the dev OpenID provider: no redirect URIs')
  for (const uri of redirectUris)
    if (!URL.canParse(uri))
      throw new OidcStartError('Cannot start the dev OpenID provider: invalid redirect URI', {
        details: uri,
      })

  const issuers = new Map<string, Issuer>()
  // Set once the port is bound; until then every request is refused.
  let servedHosts: ReadonlySet<string> = new Set()
  const server = createServer((req, res) => {
    // A page that rebinds its own DNS name to loopback must not drive the login pages or read
    // tokens: only the names this server is served under are answered.
    if (!isAllowedHost(req.headers.host, servedHosts))
      return send(
        res,
        421,
        errorPage({
          error: 'misdirected_request',
          description: 'this server does not serve that Host',
        }),
      )
    route(issuers, req, res).catch((error: unknown) => {
      console.error('[oidc]', error)
      if (res.headersSent) res.destroy()
      else send(res, 500, errorPage({ error: 'server_error' }))
    })
  })

  // Keys are generated while the server binds; issuers exist before the first request is read.
  const keys = Promise.all(names.map((name) => signingKeyOf(name as SocialProvider)))
  keys.catch(() => undefined) // awaited below unless listening fails first
  await listen(server, host, port)
  const { port: boundPort } = server.address() as AddressInfo
  servedHosts = allowedHosts({ host, port: boundPort, extraHosts })
  const url = `http://${urlHost(host)}:${boundPort}`
  try {
    const signingKeys = await keys
    names.forEach((name, index) => {
      issuers.set(
        name,
        createIssuer({
          name: name as SocialProvider,
          url: `${url}/${name}`,
          redirectUris,
          forwardOrigins,
          signingKey: signingKeys[index] as NonNullable<(typeof signingKeys)[number]>,
        }),
      )
    })
  } catch (cause) {
    server.close()
    throw new OidcStartError('Cannot start the dev OpenID provider', { cause })
  }

  const issuerOf = (provider: string): Issuer => {
    const issuer = issuers.get(provider)
    if (!issuer) throw new UnknownSocialProviderError(provider)
    return issuer
  }

  return {
    url,
    issuer: (provider) => issuerOf(provider).url,
    clients: Object.fromEntries(
      names.map((name) => [
        name,
        {
          clientId: clientIdOf(name as SocialProvider),
          clientSecret: clientSecretOf(name as SocialProvider),
          issuer: issuerOf(name).url,
        },
      ]),
    ) as Record<providers[number], OidcClientConfig>,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          for (const issuer of issuers.values()) issuer.close()
          if (error) reject(error)
          else resolve()
        })
        server.closeAllConnections()
      }),
  }
}

async function route(
  issuers: Map<string, Issuer>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const target = req.url ?? '/'
  const { pathname } = new URL(target, 'http://oidc.invalid')
  const [, first = '', ...rest] = pathname.split('/')

  if (pathname === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
    const body = JSON.stringify({
      issuers: Object.fromEntries([...issuers].map(([name, issuer]) => [name, issuer.url])),
    })
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    res.end(req.method === 'HEAD' ? undefined : body)
    return
  }

  const issuer = issuers.get(first)
  if (!issuer) return send(res, 404, errorPage({ error: 'not_found' }))

  if (rest[0] === 'interaction') return handleInteraction(issuer, req, res, rest.slice(1).join('/'))

  // Mount the provider at its path the way oidc-provider expects from a framework: the
  // request URL without the prefix, the original one in `originalUrl`.
  const mounted = req as IncomingMessage & { originalUrl?: string; baseUrl?: string }
  mounted.originalUrl = target
  mounted.baseUrl = issuer.path
  req.url = target.slice(issuer.path.length) || '/'
  if (req.url.startsWith('?')) req.url = `/${req.url}`
  issuer.handle(req, res)
}

function listen(server: ReturnType<typeof createServer>, host: string, port: number) {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new OidcPortInUseError(host, port, { cause: error })
          : new OidcStartError(`Cannot start the dev OpenID provider on ${host}:${port}`, {
              cause: error,
            }),
      )
    }
    server.once('error', onError)
    server.listen(port, host, () => {
      server.off('error', onError)
      resolve()
    })
  })
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}
