import { request as httpRequest } from 'node:http'
import { endpoints } from '@porthole/shared'
import * as client from 'openid-client'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Browser, parseLoginForm } from '../test/browser.ts'
import { OidcPortInUseError, UnknownSocialProviderError } from './errors.ts'
import type { SocialProvider } from './providers.ts'
import { type StartOidcProviderReturnType, startOidcProvider } from './startOidcProvider.ts'
import { subjectOf } from './subject.ts'

const REDIRECT_URI = `${endpoints().api}/auth/v1/social/callback`
const PROVIDERS = ['google', 'discord'] as const

let oidc: StartOidcProviderReturnType<(typeof PROVIDERS)[number]>
let startupMs = 0

beforeAll(async () => {
  const started = performance.now()
  oidc = await startOidcProvider({ port: 0, providers: PROVIDERS })
  startupMs = performance.now() - started
  console.info(`dev OpenID provider (2 issuers) started in ${Math.round(startupMs)} ms`)
})

afterAll(async () => {
  await oidc?.close()
})

/** A relying party configured as the API does it (secret in HTTP Basic), over plain HTTP. */
async function relyingParty(provider: (typeof PROVIDERS)[number], secret?: string) {
  const { issuer, clientId, clientSecret } = oidc.clients[provider]
  return client.discovery(
    new URL(issuer),
    clientId,
    undefined,
    client.ClientSecretBasic(secret ?? clientSecret),
    { execute: [client.allowInsecureRequests] },
  )
}

/** Starts an authorization request: the URL the popup opens and the checks to keep. */
async function authorize(config: client.Configuration, extra: Record<string, string> = {}) {
  const codeVerifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const nonce = client.randomNonce()
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  })
  return { url, codeVerifier, state, nonce }
}

type Login = { email: string; name?: string; username?: string }

/** The whole browser side: open the page, fill the form, submit, land on the redirect URI. */
async function signIn(provider: (typeof PROVIDERS)[number], login: Login, browser = new Browser()) {
  const config = await relyingParty(provider)
  const request = await authorize(config)
  const page = await browser.navigate(request.url.href, { stopAt: REDIRECT_URI })
  expect(page.final?.status).toBe(200)
  const form = parseLoginForm(page.final?.body ?? '', page.final?.url ?? '')
  const body = new URLSearchParams({ ...form.fields, ...definedOnly(login) })
  const submitted = await browser.navigate(form.action, {
    method: 'POST',
    body,
    stopAt: REDIRECT_URI,
  })
  if (!submitted.stoppedAt)
    throw new Error(`Did not reach the redirect URI: ${submitted.final?.body}`)
  const tokens = await client.authorizationCodeGrant(config, submitted.stoppedAt, {
    pkceCodeVerifier: request.codeVerifier,
    expectedState: request.state,
    expectedNonce: request.nonce,
  })
  const claims = tokens.claims()
  if (!claims) throw new Error('No id_token')
  const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub)
  return { claims, userinfo, browser, callback: submitted.stoppedAt }
}

function definedOnly(login: Login): Record<string, string> {
  return Object.fromEntries(Object.entries(login).filter(([, value]) => value !== undefined))
}

describe('startOidcProvider', () => {
  test('runs one issuer per provider, each with its own discovery document and keys', async () => {
    expect(oidc.issuer('google')).toBe(`${oidc.url}/google`)
    expect(oidc.issuer('discord')).toBe(`${oidc.url}/discord`)
    const documents = await Promise.all(
      PROVIDERS.map(async (provider) => {
        const response = await fetch(`${oidc.issuer(provider)}/.well-known/openid-configuration`)
        return (await response.json()) as Record<string, unknown>
      }),
    )
    expect(documents.map((document) => document.issuer)).toEqual([
      oidc.issuer('google'),
      oidc.issuer('discord'),
    ])
    const [google] = documents
    expect(google).toMatchObject({
      authorization_endpoint: `${oidc.issuer('google')}/auth`,
      token_endpoint: `${oidc.issuer('google')}/token`,
      userinfo_endpoint: `${oidc.issuer('google')}/me`,
      jwks_uri: `${oidc.issuer('google')}/jwks`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ['openid', 'email', 'profile'],
    })
    const kids = await Promise.all(
      documents.map(async (document) => {
        const { keys } = (await (await fetch(String(document.jwks_uri))).json()) as {
          keys: { kid: string; d?: string }[]
        }
        expect(keys).toHaveLength(1)
        expect(keys[0]?.d).toBeUndefined()
        return keys[0]?.kid
      }),
    )
    expect(new Set(kids).size).toBe(2)
  })

  test('lists its issuers and client credentials', async () => {
    expect(oidc.clients).toEqual({
      google: {
        clientId: 'porthole-google',
        clientSecret: 'porthole-google-secret',
        issuer: `${oidc.url}/google`,
      },
      discord: {
        clientId: 'porthole-discord',
        clientSecret: 'porthole-discord-secret',
        issuer: `${oidc.url}/discord`,
      },
    })
    const index = await (await fetch(oidc.url)).json()
    expect(index).toEqual({
      issuers: { google: `${oidc.url}/google`, discord: `${oidc.url}/discord` },
    })
  })

  test.each(PROVIDERS)(
    'signs a user in at %s with code + PKCE; claims are in the id token and userinfo',
    async (provider) => {
      const email = `Ada.${provider}@Example.com`
      const { claims, userinfo, callback } = await signIn(provider, {
        email,
        name: 'Ada Lovelace',
        username: 'ada0',
      })
      expect(callback.searchParams.get('iss')).toBe(oidc.issuer(provider))
      const expected = {
        sub: subjectOf(provider, email),
        email,
        email_verified: true,
        name: 'Ada Lovelace',
        preferred_username: 'ada0',
      }
      expect(claims).toMatchObject({
        ...expected,
        iss: oidc.issuer(provider),
        aud: `porthole-${provider}`,
      })
      expect(claims.picture).toBeUndefined()
      expect(userinfo).toEqual(expected)
    },
  )

  test('prefills the form so Continue alone signs in (Discord usernames keep their trailing digit)', async () => {
    const { claims, userinfo } = await signIn('discord', { email: 'dev@example.com' })
    expect(claims).toMatchObject({ name: 'Dev User', preferred_username: 'dev_user0' })
    expect(userinfo.preferred_username).toBe('dev_user0')
  })

  test('keeps sub stable for one e-mail and different across e-mails and providers', async () => {
    const first = await signIn('google', { email: 'grace@example.com' })
    const again = await signIn('google', { email: 'GRACE@example.com', name: 'Grace H.' })
    const other = await signIn('google', { email: 'alan@example.com' })
    const elsewhere = await signIn('discord', { email: 'grace@example.com' })
    expect(again.claims.sub).toBe(first.claims.sub)
    expect(again.userinfo.name).toBe('Grace H.')
    expect(other.claims.sub).not.toBe(first.claims.sub)
    expect(elsewhere.claims.sub).not.toBe(first.claims.sub)
  })

  test('falls back to the e-mail local part for an empty name and username', async () => {
    const { userinfo } = await signIn('google', {
      email: 'lin@example.com',
      name: '',
      username: '',
    })
    expect(userinfo).toMatchObject({ name: 'lin', preferred_username: 'lin' })
  })

  test('asks again on the next authorization in the same browser, so accounts can switch', async () => {
    const browser = new Browser()
    const first = await signIn('google', { email: 'one@example.com' }, browser)
    const second = await signIn('google', { email: 'two@example.com' }, browser)
    expect(second.claims.email).toBe('two@example.com')
    expect(second.claims.sub).not.toBe(first.claims.sub)
  })

  test('Cancel sends error=access_denied to the redirect URI', async () => {
    const config = await relyingParty('google')
    const request = await authorize(config)
    const browser = new Browser()
    const page = await browser.navigate(request.url.href, { stopAt: REDIRECT_URI })
    const form = parseLoginForm(page.final?.body ?? '', page.final?.url ?? '')
    const cancelled = await browser.navigate(form.abortAction, {
      method: 'POST',
      body: new URLSearchParams(form.fields),
      stopAt: REDIRECT_URI,
    })
    expect(cancelled.stoppedAt?.searchParams.get('error')).toBe('access_denied')
    expect(cancelled.stoppedAt?.searchParams.get('state')).toBe(request.state)
    await expect(
      client.authorizationCodeGrant(config, cancelled.stoppedAt as URL, {
        pkceCodeVerifier: request.codeVerifier,
        expectedState: request.state,
      }),
    ).rejects.toMatchObject({ error: 'access_denied' })
  })

  test('refuses an unregistered redirect_uri without redirecting to it', async () => {
    const config = await relyingParty('google')
    const request = await authorize(config, { redirect_uri: 'http://127.0.0.1:4999/steal' })
    const result = await new Browser().navigate(request.url.href, {
      stopAt: 'http://127.0.0.1:4999',
    })
    expect(result.stoppedAt).toBeUndefined()
    expect(result.final?.status).toBe(400)
    expect(result.final?.body).toContain('invalid_redirect_uri')
  })

  test('requires PKCE', async () => {
    const config = await relyingParty('google')
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid email profile',
      state: 'no-pkce',
    })
    const result = await new Browser().navigate(url.href, { stopAt: REDIRECT_URI })
    expect(result.stoppedAt?.searchParams.get('error')).toBe('invalid_request')
    expect(result.stoppedAt?.searchParams.get('error_description')).toMatch(/PKCE/)
  })

  /** Signs in through the browser and returns what the token request needs. */
  async function codeFor(config: client.Configuration) {
    const request = await authorize(config)
    const browser = new Browser()
    const page = await browser.navigate(request.url.href, { stopAt: REDIRECT_URI })
    const form = parseLoginForm(page.final?.body ?? '', page.final?.url ?? '')
    const submitted = await browser.navigate(form.action, {
      method: 'POST',
      body: new URLSearchParams(form.fields),
      stopAt: REDIRECT_URI,
    })
    if (!submitted.stoppedAt?.searchParams.get('code')) throw new Error('No code')
    const checks = {
      pkceCodeVerifier: request.codeVerifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    }
    return { callback: submitted.stoppedAt, checks }
  }

  test('refuses a wrong client secret at the token endpoint', async () => {
    const config = await relyingParty('google', 'wrong')
    const { callback, checks } = await codeFor(config)
    await expect(client.authorizationCodeGrant(config, callback, checks)).rejects.toMatchObject({
      status: 401,
      cause: [{ parameters: { error: 'invalid_client' } }],
    })
  })

  test('also takes the client secret in the request body', async () => {
    const { issuer, clientId, clientSecret } = oidc.clients.google
    const config = await client.discovery(new URL(issuer), clientId, clientSecret, undefined, {
      execute: [client.allowInsecureRequests],
    })
    const { callback, checks } = await codeFor(config)
    const tokens = await client.authorizationCodeGrant(config, callback, checks)
    expect(tokens.claims()?.email).toBe('dev@example.com')
  })

  test('serves a labelled login form under a strict CSP', async () => {
    const config = await relyingParty('google')
    const request = await authorize(config, { login_hint: 'hint@example.com' })
    const page = await new Browser().navigate(request.url.href, { stopAt: REDIRECT_URI })
    const html = page.final?.body ?? ''
    expect(html).toContain('<title>Sign in with Google (Porthole dev provider)</title>')
    const form = parseLoginForm(html, page.final?.url ?? '')
    expect(form.labels).toEqual({ 'E-mail': 'email', 'Display name': 'name', Username: 'username' })
    expect(form.fields).toEqual({
      email: 'hint@example.com',
      name: 'Dev User',
      username: 'devuser',
    })
    expect(html).toMatch(/<button type="submit">Continue<\/button>/)
    expect(html).toMatch(
      /<button type="submit" formaction="[^"]+\/abort" formnovalidate>Cancel<\/button>/,
    )
    expect(html).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/)
    const csp = page.final?.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).toMatch(/style-src 'sha256-[^']+'/)
    // The redirect URI's origin, and the wallet origin the API's callback forwards to.
    expect(csp).toContain(
      `form-action 'self' ${new URL(REDIRECT_URI).origin} http://wallet.localhost:4200;`,
    )
    expect(csp).toContain("frame-ancestors 'none'")
  })

  test('shows the form again with an alert for an invalid e-mail', async () => {
    const config = await relyingParty('google')
    const request = await authorize(config)
    const browser = new Browser()
    const page = await browser.navigate(request.url.href, { stopAt: REDIRECT_URI })
    const form = parseLoginForm(page.final?.body ?? '', page.final?.url ?? '')
    const rejected = await browser.navigate(form.action, {
      method: 'POST',
      body: new URLSearchParams({ ...form.fields, email: 'not-an-address', name: '<b>x</b>' }),
      stopAt: REDIRECT_URI,
    })
    expect(rejected.final?.status).toBe(400)
    expect(rejected.final?.body).toContain('<p role="alert">Enter a valid e-mail address')
    expect(rejected.final?.body).toContain('value="&#60;b&#62;x&#60;/b&#62;"')
    const retried = await browser.navigate(form.action, {
      method: 'POST',
      body: new URLSearchParams({ ...form.fields, email: 'fixed@example.com' }),
      stopAt: REDIRECT_URI,
    })
    expect(retried.stoppedAt?.searchParams.get('code')).toBeTruthy()
  })

  test('sets cookies a browser keeps on plain-HTTP loopback', async () => {
    const { browser } = await signIn('google', { email: 'cookies@example.com' })
    expect(browser.setCookieHeaders.length).toBeGreaterThan(0)
    for (const header of browser.setCookieHeaders) {
      expect(header).toMatch(/^porthole_oidc_google_/)
      expect(header.toLowerCase()).not.toContain('secure')
      expect(header.toLowerCase()).toContain('samesite=lax')
      expect(header.toLowerCase()).toContain('httponly')
    }
    const session = [...browser.cookies.values()].find((cookie) =>
      cookie.name.startsWith('porthole_oidc_google_session'),
    )
    expect(session?.path).toBe('/google')
  })

  test('answers a stale interaction with an explanation', async () => {
    const response = await fetch(`${oidc.issuer('google')}/interaction/unknown-uid`)
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('interaction_expired')
  })

  test('issuer() refuses a provider it does not run', () => {
    expect(() => oidc.issuer('github' as (typeof PROVIDERS)[number])).toThrow(
      UnknownSocialProviderError,
    )
  })

  test('rejects unknown providers and a taken port', async () => {
    await expect(
      startOidcProvider({ port: 0, providers: ['myspace' as SocialProvider] }),
    ).rejects.toBeInstanceOf(UnknownSocialProviderError)
    const port = Number(new URL(oidc.url).port)
    await expect(startOidcProvider({ port, providers: ['apple'] })).rejects.toBeInstanceOf(
      OidcPortInUseError,
    )
  })
})

/** A real HTTP request with any `Host` header, as a DNS-rebinding page's browser sends it. */
function requestWithHost(
  url: string,
  host: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: init.method ?? 'GET', headers: { ...init.headers, host } },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          body += chunk
        })
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, location: res.headers.location }),
        )
      },
    )
    req.on('error', reject)
    req.end(init.body)
  })
}

describe('DNS rebinding', () => {
  const port = () => new URL(oidc.url).port

  test('a page whose name was rebound to loopback gets 421 before any handler runs', async () => {
    const { url } = await authorize(await relyingParty('google'))
    for (const host of [`evil.example:${port()}`, 'attacker.test', `attacker.test:${port()}`]) {
      for (const path of [
        '/',
        '/google/.well-known/openid-configuration',
        '/google/jwks',
        `${url.pathname}${url.search}`,
        '/google/interaction/anything',
      ]) {
        const response = await requestWithHost(`${oidc.url}${path}`, host)
        expect(response.status, `${host} ${path}`).toBe(421)
        expect(response.location, `${host} ${path}`).toBeUndefined()
        expect(response.body, `${host} ${path}`).not.toMatch(/issuer|<form|"keys"/)
      }
      const token = await requestWithHost(`${oidc.url}/google/token`, host, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from('porthole-google:porthole-google-secret').toString('base64')}`,
        },
        body: 'grant_type=authorization_code&code=x&redirect_uri=x&code_verifier=x',
      })
      expect(token.status).toBe(421)
      expect(token.body).not.toContain('invalid_grant')
    }
  })

  test('the loopback names on its port are answered', async () => {
    const path = '/google/.well-known/openid-configuration'
    for (const host of [`127.0.0.1:${port()}`, `localhost:${port()}`, `[::1]:${port()}`]) {
      const response = await requestWithHost(`${oidc.url}${path}`, host)
      expect(response.status, host).toBe(200)
      expect(JSON.parse(response.body).issuer).toBe(oidc.issuer('google'))
    }
    expect((await requestWithHost(`${oidc.url}${path}`, 'localhost:1')).status).toBe(421)
  })

  test('extraHosts adds the names it is served under', async () => {
    const named = await startOidcProvider({
      port: 0,
      providers: ['github'],
      extraHosts: ['oidc.internal:8600'],
    })
    try {
      expect((await requestWithHost(named.url, 'oidc.internal:8600')).status).toBe(200)
      expect((await requestWithHost(named.url, 'oidc.internal.evil.example:8600')).status).toBe(421)
    } finally {
      await named.close()
    }
  })
})
