import { randomBytes } from 'node:crypto'
import { type StartDevnetReturnType, startDevnet } from '@porthole/devnet'
import {
  approveChannel,
  registerFid,
  type StartFarcasterRelayReturnType,
  startFarcasterRelay,
} from '@porthole/farcaster'
import {
  createFarcasterMessage,
  FARCASTER_ID_REGISTRY,
  parseFarcasterConnectUrl,
  sharesDigest,
} from '@porthole/shared'
import { createPublicClient, createWalletClient, http, parseAbi } from 'viem'
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { bearer, DEVICE_A, DEVICE_B } from '../../test/auth.js'
import { DRIVERS } from '../../test/databases.js'
import { createTestApp, PROJECT_ID, type TestApp } from '../../test/testApp.js'
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
    { upstreams: { 'eip155:31337': devnet.rpcUrl }, production: false },
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

/** The site the user is on: one the test project allows. */
const SITE = 'http://localhost:4000'

async function start(deviceId = DEVICE_A, nonce = frameNonce(), site = SITE) {
  const response = await t.post('/auth/v1/farcaster/start', { deviceId, nonce, site })
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

  test('start opens a relay channel naming the site the user is on and the project, with the frame’s nonce', async () => {
    t = await open()
    const { url, loginId, nonce } = await start()
    expect(loginId).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const request = parseFarcasterConnectUrl(url)
    expect(request).toMatchObject({
      nonce,
      domain: 'localhost:4000',
      siweUri: 'http://localhost:4000/',
      requestId: `porthole:${PROJECT_ID}:${PROJECT_ID}`,
    })
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
        (await t.post('/auth/v1/farcaster/start', { deviceId: DEVICE_A, nonce: bad, site: SITE }))
          .status,
      ).toBe(400)
  })

  test('a login can name only a site the project allows (a phishing page cannot pass for it)', async () => {
    t = await open()
    const post = (site: unknown) =>
      t.post('/auth/v1/farcaster/start', { deviceId: DEVICE_A, nonce: frameNonce(), site })
    for (const site of ['https://evil.example', 'http://localhost:4001', 'https://shop.test']) {
      const refused = await post(site)
      expect(refused.status, site).toBe(403)
      expect((await refused.json()).code).toBe('ORIGIN_NOT_ALLOWED')
    }
    // Not an origin, or none: refused before anything else.
    for (const site of [undefined, '', 'localhost:4000', 'http://localhost:4000/', 'javascript:1'])
      expect((await post(site)).status, String(site)).toBe(400)
    // A wildcard pattern of the project allows its subdomains.
    const allowed = await post('https://pay.shop.test')
    expect(allowed.status).toBe(200)
    expect(parseFarcasterConnectUrl((await allowed.json()).url)).toMatchObject({
      domain: 'pay.shop.test',
      siweUri: 'https://pay.shop.test/',
    })
    // No channel was opened for a refused site.
    expect(await t.db.query('SELECT * FROM auth_farcaster_logins')).toHaveLength(1)
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
      requestId: request.requestId,
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
      site: SITE,
    })
    expect(off.status).toBe(403)
    expect((await off.json()).code).toBe('FEATURE_DISABLED')
    await t.close()
    t = await open(null)
    const unconfigured = await t.post('/auth/v1/farcaster/start', {
      deviceId: DEVICE_A,
      nonce: frameNonce(),
      site: SITE,
    })
    expect(unconfigured.status).toBe(403)
  })

  test('a relay that cannot be reached is 502 Failed to connect to farcaster', async () => {
    t = await open({ ...config, relayUrl: 'http://127.0.0.1:9' })
    const response = await t.post('/auth/v1/farcaster/start', {
      deviceId: DEVICE_A,
      nonce: frameNonce(),
      site: SITE,
    })
    expect(response.status).toBe(502)
    expect(await response.json()).toMatchObject({
      code: 'FARCASTER_UNAVAILABLE',
      message: 'Failed to connect to farcaster',
    })
  })
})

/** Moves the fid of `from` to `to`'s address in the devnet's IdRegistry. */
async function transferFid(from: `0x${string}`, to: `0x${string}`) {
  const wallet = createWalletClient({
    account: privateKeyToAccount(from),
    transport: http(devnet.rpcUrl),
  })
  const hash = await wallet.writeContract({
    chain: null,
    address: FARCASTER_ID_REGISTRY,
    abi: parseAbi(['function transfer(address to)']),
    functionName: 'transfer',
    args: [privateKeyToAddress(to)],
  })
  await createPublicClient({
    transport: http(devnet.rpcUrl),
    pollingInterval: 50,
  }).waitForTransactionReceipt({ hash, pollingInterval: 50 })
}

describe.each(DRIVERS)('Farcaster custody on %s', (driver) => {
  const open = () => createTestApp({ farcaster: config }, { driver, catalogue: false })
  const WALLET_KEY = generatePrivateKey()
  const DEVICE_C = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f'

  /** A Farcaster sign-in on `deviceId` with `custodyKey`; the session's bearer header. */
  async function signIn(custodyKey: `0x${string}`, deviceId: string) {
    const login = await start(deviceId)
    await answer(login.url, custodyKey)
    const done = await (await status(login.loginId, deviceId)).json()
    return bearer(done.token as string)
  }

  /** A share set signed by the wallet's key, as the frame commits it. */
  async function shares(replaces: string | null) {
    const account = privateKeyToAccount(WALLET_KEY)
    const body = {
      setId: randomBytes(12).toString('hex'),
      replaces,
      deviceX: 3,
      address: account.address.toLowerCase(),
      authShare: randomBytes(33).toString('base64'),
      recovery: { kind: 'automatic' as const, ciphertext: randomBytes(120).toString('base64') },
    }
    const signature = await account.sign({ hash: sharesDigest({ projectId: PROJECT_ID, ...body }) })
    return { ...body, signature }
  }

  test('after the fid moves, the new custody key gets no recovery share on a new device and is listed as refused; a device holding the wallet confirms the new custody', async () => {
    t = await open()
    const oldKey = generatePrivateKey()
    const newKey = generatePrivateKey()
    const a = await signIn(oldKey, DEVICE_A)
    const first = await shares(null)
    expect((await t.send('PUT', '/auth/v1/shares', first, a)).status).toBe(200)
    const [user] = await t.db.query<{ farcaster_custody: string }>(
      'SELECT farcaster_custody FROM auth_users',
    )
    expect(user?.farcaster_custody).toBe(privateKeyToAddress(oldKey).toLowerCase())
    // The same custody on a new device: the recovery ciphertext, as before.
    const same = await (await t.get('/auth/v1/shares', await signIn(oldKey, DEVICE_C))).json()
    expect(same.recovery).toEqual({ kind: 'automatic', ciphertext: first.recovery.ciphertext })

    await transferFid(oldKey, newKey)
    const b = await signIn(newKey, DEVICE_B)
    const taken = await (await t.get('/auth/v1/shares', b)).json()
    expect(taken.recovery).toEqual({
      kind: 'automatic',
      ciphertext: null,
      custodyChanged: true,
      reseal: true,
    })
    const listed = (await (await t.get('/auth/v1/devices', a)).json()).devices
    expect(listed[0]).toMatchObject({
      kind: 'custody-refused',
      custody: privateKeyToAddress(newKey),
      site: 'http://localhost:4000',
      isNew: true,
    })

    // The owner (who moved the fid) signs in with the new key on a device that holds the
    // wallet: it seals for the new custody, which the wallet then belongs to.
    const a2 = await signIn(newKey, DEVICE_A)
    const held = await (await t.get('/auth/v1/shares', a2)).json()
    expect(held.recovery).toMatchObject({ ciphertext: null, custodyChanged: true, reseal: true })
    const resealed = await shares(held.setId)
    expect((await t.send('PUT', '/auth/v1/shares', resealed, a2)).status).toBe(200)
    const c = await (await t.get('/auth/v1/shares', await signIn(newKey, DEVICE_C))).json()
    expect(c.recovery).toEqual({ kind: 'automatic', ciphertext: resealed.recovery.ciphertext })
  })
})

describe('configuration', () => {
  const upstreams = { 'eip155:31337': 'http://127.0.0.1:8545' }
  test('defaults to the local relay and the devnet IdRegistry', () => {
    expect(resolveFarcasterConfig({}, { upstreams, production: false })).toMatchObject({
      relayUrl: 'http://127.0.0.1:4800',
      network: 'eip155:31337',
      chainId: 31337,
      rpcUrl: 'http://127.0.0.1:8545',
      registry: '0x3eC65bfD8DeF6f6ca505a92d4BD141c8cDd05543',
    })
  })

  test('is off in production unless the relay, network and registry are set', () => {
    expect(resolveFarcasterConfig({}, { upstreams, production: true })).toBeNull()
    const env = {
      PORTHOLE_FARCASTER_URL: 'https://relay.farcaster.example',
      PORTHOLE_FARCASTER_NETWORK: 'eip155:10',
      PORTHOLE_FARCASTER_ID_REGISTRY: '0x00000000Fc6c5F01Fc30151999387Bb99A9f489b',
    }
    expect(resolveFarcasterConfig(env, { upstreams, production: true })).toBeNull()
    expect(
      resolveFarcasterConfig(env, {
        upstreams: { 'eip155:10': 'https://op.example' },
        production: true,
      }),
    ).toMatchObject({ chainId: 10, rpcUrl: 'https://op.example' })
  })
})
