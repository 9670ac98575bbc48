import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { bearer, DEVICE_A, DEVICE_B } from '../../test/auth.js'
import { DRIVERS } from '../../test/databases.js'
import { signInAtProvider, startTestOidc, type TestOidc } from '../../test/oidc.js'
import {
  createTestApp,
  PROJECT_ID,
  PUBLIC_URL,
  type TestApp,
  WALLET_ORIGIN,
} from '../../test/testApp.js'
import { addProjectDomain } from '../projects/addProjectDomain.js'
import { createProject } from '../projects/createProject.js'
import { setProjectFeatures } from '../projects/setProjectFeatures.js'

const REDIRECT_URI = `${PUBLIC_URL}/auth/v1/social/callback`
/** The nonce a wallet frame sends: the thumbprint of a key it holds (any 43 base64url here). */
const NONCE = 'n0nce-of-the-wallet-frame-key-thumbprint-01'
let oidc: TestOidc
let t: TestApp

beforeAll(async () => {
  // oidc-provider warns about its development defaults (Node 20, in-memory adapter, keys).
  vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  vi.spyOn(console, 'info').mockImplementation(() => undefined)
  oidc = await startTestOidc(['google', 'github'], REDIRECT_URI)
})
afterAll(async () => {
  vi.restoreAllMocks()
  await oidc.close()
})
afterEach(async () => {
  await t?.close()
})

/** Runs the popup: start → provider login → API callback; answers the callback's redirect. */
async function popup(
  provider: string,
  login: string,
  deviceId = DEVICE_A,
  headers: Record<string, string> = {},
): Promise<URL> {
  const start = await t.post('/auth/v1/social/start', { provider, deviceId, nonce: NONCE }, headers)
  expect(start.status).toBe(200)
  const { uri } = await start.json()
  const callback = await signInAtProvider(uri, login, PUBLIC_URL)
  const response = await t.app.request(`${callback.pathname}${callback.search}`)
  expect(response.status).toBe(302)
  expect(response.headers.get('referrer-policy')).toBe('no-referrer')
  return new URL(response.headers.get('location')!)
}

/** The session of a popup's result. */
async function exchange(location: URL, deviceId = DEVICE_A) {
  const result = location.searchParams.get('result')
  expect(result, location.href).toMatch(/^[A-Za-z0-9_-]{43}$/)
  return t.post('/auth/v1/social/exchange', { result, deviceId })
}

describe.each(DRIVERS)('social login on %s', (driver) => {
  const open = () => createTestApp({ auth: { social: oidc.social } }, { driver, catalogue: false })

  test('start answers an authorization URL with PKCE S256, state, nonce and the callback', async () => {
    t = await open()
    const response = await t.post('/auth/v1/social/start', {
      provider: 'google',
      deviceId: DEVICE_A,
      nonce: NONCE,
    })
    const uri = new URL((await response.json()).uri)
    expect(uri.origin).toBe(new URL(oidc.social.google.issuer).origin)
    expect(uri.pathname).toBe('/auth')
    const params = Object.fromEntries(uri.searchParams)
    expect(params).toMatchObject({
      client_id: 'porthole-google',
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: REDIRECT_URI,
      code_challenge_method: 'S256',
    })
    expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(params.state).toBeTruthy()
    // The frame's nonce, not one of the API's: the ID token then proves the frame's login.
    expect(params.nonce).toBe(NONCE)
    const without = await t.post('/auth/v1/social/start', {
      provider: 'google',
      deviceId: DEVICE_A,
    })
    expect(without.status).toBe(400)
    // The verifier stays on the server.
    const [row] = await t.db.query<{ code_verifier: string; project_id: string }>(
      'SELECT code_verifier, project_id FROM auth_social_states WHERE state = ?',
      [params.state!],
    )
    expect(row?.project_id).toBe(PROJECT_ID)
    expect(uri.href).not.toContain(row!.code_verifier)
  })

  test('the full flow signs in; a second login is the same user, another provider a different one', async () => {
    t = await open()
    const location = await popup('google', 'alice')
    expect(`${location.origin}${location.pathname}`).toBe(`${WALLET_ORIGIN}/social-callback.html`)

    const first = await exchange(location)
    expect(first.status).toBe(200)
    expect(first.headers.get('set-cookie')).toMatch(/^porthole_session=[A-Za-z0-9_-]{43}; /)
    const session = await first.json()
    expect(session).toEqual({
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      user: {
        id: expect.any(String),
        email: 'alice@google.test',
        socialProvider: 'google',
        username: 'alice',
        createdAt: expect.any(Number),
        isNew: true,
      },
      recovery: 'automatic',
      idToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
    })
    const claims = JSON.parse(Buffer.from(session.idToken.split('.')[1], 'base64url').toString())
    expect(claims).toMatchObject({ nonce: NONCE, aud: 'porthole-google' })
    expect((await (await t.get('/auth/v1/me', bearer(session.token))).json()).user.id).toBe(
      session.user.id,
    )
    // A result code works once.
    const replay = await exchange(location)
    expect(replay.status).toBe(400)
    expect(await replay.json()).toMatchObject({ code: 'INVALID_RESULT' })

    const again = await (await exchange(await popup('google', 'alice'))).json()
    expect(again.user).toMatchObject({ id: session.user.id, isNew: false })

    const github = await (await exchange(await popup('github', 'alice'))).json()
    expect(github.user).toMatchObject({
      email: 'alice@github.test',
      socialProvider: 'github',
      isNew: true,
    })
    expect(github.user.id).not.toBe(session.user.id)
  })

  test("a wallet on the project's custom domain gets the popup back there; no other origin does", async () => {
    t = await open()
    await addProjectDomain(t.db, {
      projectId: PROJECT_ID,
      modalOrigin: 'https://connect.shop.test',
      walletOrigin: 'https://wallet.shop.test',
    })
    await createProject(t.db, { id: 'other-project', origins: ['https://evil.test'] })
    await addProjectDomain(t.db, {
      projectId: 'other-project',
      modalOrigin: 'https://connect.evil.test',
      walletOrigin: 'https://wallet.evil.test',
    })
    const own = await popup('google', 'ada@example.com', DEVICE_A, {
      origin: 'https://wallet.shop.test',
    })
    expect(own.origin).toBe('https://wallet.shop.test')
    expect(own.pathname).toBe('/social-callback.html')
    expect((await exchange(own)).status).toBe(200)
    // Another project's registered wallet, an unregistered page, or none: Porthole's wallet.
    for (const origin of ['https://wallet.evil.test', 'https://phish.test', undefined]) {
      const location = await popup('google', 'ada@example.com', DEVICE_A, origin ? { origin } : {})
      expect(location.origin).toBe(WALLET_ORIGIN)
    }
  })

  test('a result only works from the device that started the login', async () => {
    t = await open()
    const location = await popup('google', 'bob', DEVICE_A)
    const other = await exchange(location, DEVICE_B)
    expect(other.status).toBe(400)
    expect(await other.json()).toMatchObject({ code: 'INVALID_RESULT' })
    // …and it is used up by the attempt.
    expect((await exchange(location, DEVICE_A)).status).toBe(400)
  })

  test('provider errors, unknown or replayed state land on the wallet page with an error', async () => {
    t = await open()
    const start = await t.post('/auth/v1/social/start', {
      provider: 'google',
      deviceId: DEVICE_A,
      nonce: NONCE,
    })
    const state = new URL((await start.json()).uri).searchParams.get('state')!
    const denied = await t.app.request(
      `/auth/v1/social/callback?error=access_denied&error_description=User%20cancelled&state=${state}`,
    )
    expect(denied.status).toBe(302)
    const deniedAt = new URL(denied.headers.get('location')!)
    expect(`${deniedAt.origin}${deniedAt.pathname}`).toBe(`${WALLET_ORIGIN}/social-callback.html`)
    expect(Object.fromEntries(deniedAt.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'User cancelled',
    })
    // The state was used up by the error.
    const replayed = await t.app.request(`/auth/v1/social/callback?code=x&state=${state}`)
    expect(new URL(replayed.headers.get('location')!).searchParams.get('error')).toBe(
      'invalid_state',
    )
    const unknown = await t.app.request('/auth/v1/social/callback?code=x&state=nope')
    expect(new URL(unknown.headers.get('location')!).searchParams.get('error')).toBe(
      'invalid_state',
    )
  })

  test('a failed code exchange lands on the wallet page with server_error', async () => {
    const reported: unknown[] = []
    t = await createTestApp(
      { auth: { social: oidc.social }, onError: (error) => reported.push(error) },
      { driver, catalogue: false },
    )
    const start = await t.post('/auth/v1/social/start', {
      provider: 'github',
      deviceId: DEVICE_A,
      nonce: NONCE,
    })
    const state = new URL((await start.json()).uri).searchParams.get('state')!
    const response = await t.app.request(
      `/auth/v1/social/callback?code=forged&state=${state}&iss=${encodeURIComponent(oidc.social.github.issuer)}`,
    )
    const location = new URL(response.headers.get('location')!)
    expect(location.searchParams.get('error')).toBe('server_error')
    expect(location.searchParams.get('result')).toBeNull()
    expect(reported).toHaveLength(1)
  })
})

describe('social start errors', () => {
  test('an unknown provider is invalid (spec §5), a disabled one forbidden, an unreachable one 502', async () => {
    const reported: unknown[] = []
    t = await createTestApp(
      { auth: { social: oidc.social }, onError: (error) => reported.push(error) },
      { catalogue: false },
    )
    for (const provider of ['farcaster', 'myspace', '']) {
      const response = await t.post('/auth/v1/social/start', { provider, deviceId: DEVICE_A })
      expect(response.status, provider).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'INVALID_REQUEST' })
    }
    const down = await t.post('/auth/v1/social/start', {
      provider: 'apple',
      deviceId: DEVICE_A,
      nonce: NONCE,
    })
    expect(down.status).toBe(502)
    expect(await down.json()).toEqual({
      code: 'SOCIAL_PROVIDER_UNAVAILABLE',
      message: 'Failed to initiate social connection',
    })
    expect(reported).toHaveLength(1)
    await setProjectFeatures(t.db, { projectId: PROJECT_ID, features: { socials: ['github'] } })
    const disabled = await t.post('/auth/v1/social/start', {
      provider: 'google',
      deviceId: DEVICE_A,
      nonce: NONCE,
    })
    expect(disabled.status).toBe(403)
    expect(await disabled.json()).toMatchObject({ code: 'FEATURE_DISABLED' })
  })
})
