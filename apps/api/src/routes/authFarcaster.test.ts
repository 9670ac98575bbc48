import { randomBytes } from 'node:crypto'
import { type StartDevnetReturnType, startDevnet } from '@porthole/devnet'
import {
  approveChannel,
  registerFid,
  type StartFarcasterRelayReturnType,
  startFarcasterRelay,
} from '@porthole/farcaster'
import { createFarcasterMessage, parseFarcasterConnectUrl } from '@porthole/shared'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { bearer, DEVICE_A, DEVICE_B } from '../../test/auth.js'
import { DRIVERS } from '../../test/databases.js'
import { createTestApp, PROJECT_ID, type TestApp, WALLET_ORIGIN } from '../../test/testApp.js'
import { type FarcasterConfig, resolveFarcasterConfig } from '../auth/farcaster.js'
import { setProjectFeatures } from '../projects/setProjectFeatures.js'

let devnet: StartDevnetReturnType
let relay: StartFarcasterRelayReturnType
let config: FarcasterConfig
let t: TestApp

beforeAll(async () => {
  ;[devnet, relay] = await Promise.all([
    startDevnet({ port: 0, silent: true }),
    startFarcasterRelay({ port: 0, host: '127.0.0.1' }),
  ])
  config = resolveFarcasterConfig(
    { PORTHOLE_FARCASTER_URL: relay.url },
    { walletUrl: WALLET_ORIGIN, upstreams: { 'eip155:31337': devnet.rpcUrl }, production: false },
  ) as FarcasterConfig
})
afterAll(async () => {
  await relay?.close()
  await devnet?.stop()
})
afterEach(async () => {
  await t?.close()
  t = undefined as unknown as TestApp
})

/** A wallet frame's nonce: a key thumbprint as 64 hex digits. */
const frameNonce = () => randomBytes(32).toString('hex')

async function start(deviceId = DEVICE_A, nonce = frameNonce()) {
  const response = await t.post('/auth/v1/farcaster/start', { deviceId, nonce })
  expect(response.status).toBe(200)
  return { ...((await response.json()) as { url: string; loginId: string }), nonce }
}

const status = (loginId: string, deviceId = DEVICE_A) =>
  t.post('/auth/v1/farcaster/status', { loginId, deviceId })

/** Answers the channel as a Farcaster wallet would (through the relay). */
const answer = (url: string, privateKey: `0x${string}`, username = 'ada') =>
  approveChannel({ channel: url, privateKey, relayUrl: relay.url, rpcUrl: devnet.rpcUrl, username })

describe.each(DRIVERS)('Farcaster login on %s', (driver) => {
  const open = (farcaster: FarcasterConfig | null = config) =>
    createTestApp({ farcaster }, { driver, catalogue: false })

  test('start opens a relay channel for the wallet app’s domain and URI with the frame’s nonce', async () => {
    t = await open()
    const { url, loginId, nonce } = await start()
    expect(loginId).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const request = parseFarcasterConnectUrl(url)
    expect(request).toMatchObject({ nonce, domain: '127.0.0.1:4200', siweUri: `${WALLET_ORIGIN}/` })
    // The message expires with the login (10 minutes).
    const expires = Date.parse(request?.expirationTime ?? '')
    expect(expires - Date.now()).toBeGreaterThan(9 * 60_000)
    expect(expires - Date.now()).toBeLessThanOrEqual(10 * 60_000)
    // The id the frame polls with is stored hashed only.
    const rows = await t.db.query<{ login_hash: string; project_id: string }>(
      'SELECT login_hash, project_id FROM auth_farcaster_logins',
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]?.project_id).toBe(PROJECT_ID)
    expect(rows[0]?.login_hash).not.toBe(loginId)
    for (const bad of ['short', 'n0nce-of-the-wallet-frame-key-thumbprint-01', undefined])
      expect(
        (await t.post('/auth/v1/farcaster/start', { deviceId: DEVICE_A, nonce: bad })).status,
      ).toBe(400)
  })

  test('pending until the Farcaster wallet answers; then a session for the fid’s user, once', async () => {
    t = await open()
    const privateKey = generatePrivateKey()
    const login = await start()
    const pending = await status(login.loginId)
    expect(pending.status).toBe(200)
    expect(await pending.json()).toEqual({ state: 'pending' })

    const sent = await answer(login.url, privateKey)
    const done = await status(login.loginId)
    expect(done.status).toBe(200)
    expect(done.headers.get('set-cookie')).toMatch(/^porthole_session=[A-Za-z0-9_-]{43}; /)
    const session = await done.json()
    expect(session).toEqual({
      state: 'completed',
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      user: {
        id: expect.any(String),
        email: null,
        socialProvider: 'farcaster',
        username: 'ada',
        createdAt: expect.any(Number),
        isNew: true,
      },
      recovery: 'automatic',
      // What the frame shows the recovery service: the signed message names its key.
      farcaster: { message: sent.message, signature: sent.signature },
    })
    expect(session.farcaster.message).toContain(`Nonce: ${login.nonce}`)
    const me = await (await t.get('/auth/v1/me', bearer(session.token))).json()
    expect(me.user.id).toBe(session.user.id)
    // Used up.
    expect((await status(login.loginId)).status).toBe(400)

    // The same fid later (another device, another site of the project): the same user.
    const again = await start(DEVICE_B)
    await answer(again.url, privateKey, 'ada2')
    const second = await (await status(again.loginId, DEVICE_B)).json()
    expect(second.user).toMatchObject({ id: session.user.id, isNew: false, username: 'ada2' })
    // Another fid: another user.
    const other = await start()
    await answer(other.url, generatePrivateKey())
    const third = await (await status(other.loginId)).json()
    expect(third.user.id).not.toBe(session.user.id)
  })

  test('refuses a message signed by a key that is not the fid’s custody address', async () => {
    t = await open()
    // The victim's fid is registered to the victim's key.
    const victim = generatePrivateKey()
    const fid = await registerFid({ privateKey: victim, rpcUrl: devnet.rpcUrl })
    const login = await start()
    const request = parseFarcasterConnectUrl(login.url)!
    // The attacker signs a well-formed message for that fid with its own key (the relay checks
    // only that the named address signed).
    const attacker = privateKeyToAccount(generatePrivateKey())
    const message = createFarcasterMessage({
      domain: request.domain,
      uri: request.siweUri,
      nonce: request.nonce,
      fid,
      custody: attacker.address,
      chainId: devnet.chainId,
      expirationTime: new Date(request.expirationTime as string),
    })
    const relayed = await fetch(`${relay.url}/v1/channel/authenticate`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${request.channelToken}`,
      },
      body: JSON.stringify({ message, signature: await attacker.signMessage({ message }), fid }),
    })
    expect(relayed.status).toBe(201)
    const refused = await status(login.loginId)
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({
      code: 'INVALID_FARCASTER_SIGN_IN',
      message: 'Failed to connect to farcaster',
      reason: 'custody',
    })
    expect(await t.db.query('SELECT * FROM auth_users')).toHaveLength(0)
    // The login is over.
    expect((await status(login.loginId)).status).toBe(400)
  })

  test('a login polled from another device, or an unknown one, is refused', async () => {
    t = await open()
    const login = await start(DEVICE_A)
    expect((await status(login.loginId, DEVICE_B)).status).toBe(400)
    expect((await status('x'.repeat(43))).status).toBe(400)
    expect((await status(login.loginId, DEVICE_A)).status).toBe(200)
  })

  test('not offered when the project turns farcaster off or it is not configured', async () => {
    t = await open()
    await setProjectFeatures(t.db, { projectId: PROJECT_ID, features: { socials: ['google'] } })
    const off = await t.post('/auth/v1/farcaster/start', {
      deviceId: DEVICE_A,
      nonce: frameNonce(),
    })
    expect(off.status).toBe(403)
    expect((await off.json()).code).toBe('FEATURE_DISABLED')
    await t.close()
    t = await open(null)
    const unconfigured = await t.post('/auth/v1/farcaster/start', {
      deviceId: DEVICE_A,
      nonce: frameNonce(),
    })
    expect(unconfigured.status).toBe(403)
  })

  test('a relay that cannot be reached is 502 Failed to connect to farcaster', async () => {
    t = await open({ ...config, relayUrl: 'http://127.0.0.1:9' })
    const response = await t.post('/auth/v1/farcaster/start', {
      deviceId: DEVICE_A,
      nonce: frameNonce(),
    })
    expect(response.status).toBe(502)
    expect(await response.json()).toMatchObject({
      code: 'FARCASTER_UNAVAILABLE',
      message: 'Failed to connect to farcaster',
    })
  })
})

describe('configuration', () => {
  const upstreams = { 'eip155:31337': 'http://127.0.0.1:8545' }
  test('defaults to the local relay and the devnet IdRegistry', () => {
    expect(
      resolveFarcasterConfig(
        {},
        { walletUrl: 'http://wallet.localhost:4200', upstreams, production: false },
      ),
    ).toMatchObject({
      relayUrl: 'http://127.0.0.1:4800',
      domain: 'wallet.localhost:4200',
      siweUri: 'http://wallet.localhost:4200/',
      network: 'eip155:31337',
      chainId: 31337,
      rpcUrl: 'http://127.0.0.1:8545',
      registry: '0x3eC65bfD8DeF6f6ca505a92d4BD141c8cDd05543',
    })
  })

  test('is off in production unless the relay, network and registry are set', () => {
    const walletUrl = 'https://wallet.example'
    expect(resolveFarcasterConfig({}, { walletUrl, upstreams, production: true })).toBeNull()
    const env = {
      PORTHOLE_FARCASTER_URL: 'https://relay.farcaster.example',
      PORTHOLE_FARCASTER_NETWORK: 'eip155:10',
      PORTHOLE_FARCASTER_ID_REGISTRY: '0x00000000Fc6c5F01Fc30151999387Bb99A9f489b',
    }
    expect(resolveFarcasterConfig(env, { walletUrl, upstreams, production: true })).toBeNull()
    expect(
      resolveFarcasterConfig(env, {
        walletUrl,
        upstreams: { 'eip155:10': 'https://op.example' },
        production: true,
      }),
    ).toMatchObject({ chainId: 10, domain: 'wallet.example', rpcUrl: 'https://op.example' })
  })
})
