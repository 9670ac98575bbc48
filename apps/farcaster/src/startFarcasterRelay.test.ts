import { request as httpRequest } from 'node:http'
import { createFarcasterMessage, parseFarcasterConnectUrl } from '@porthole/shared'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFarcasterRelayApp } from './app.js'
import { type StartFarcasterRelayReturnType, startFarcasterRelay } from './startFarcasterRelay.js'

const WALLET = 'http://wallet.localhost:4200'
const DOMAIN = 'wallet.localhost:4200'
const custody = privateKeyToAccount(generatePrivateKey())

let relay: StartFarcasterRelayReturnType
beforeAll(async () => {
  relay = await startFarcasterRelay({ port: 0, host: '127.0.0.1', allowedOrigins: [WALLET] })
})
afterAll(() => relay?.close())

async function call(path: string, init: { method?: string; token?: string; body?: unknown } = {}) {
  const response = await fetch(`${relay.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      'content-type': 'application/json',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

async function openChannel(nonce = 'a1b2c3d4e5f6a7b8') {
  const { status, body } = await call('/v1/channel', {
    body: { siweUri: `${WALLET}/`, domain: DOMAIN, nonce },
  })
  expect(status).toBe(201)
  return body as { channelToken: string; url: string; nonce: string }
}

async function answer(
  channel: { channelToken: string; nonce: string },
  overrides: {
    nonce?: string
    domain?: string
    signer?: typeof custody
    fid?: number
    requestId?: string
  } = {},
) {
  const message = createFarcasterMessage({
    domain: overrides.domain ?? DOMAIN,
    uri: `${WALLET}/`,
    nonce: overrides.nonce ?? channel.nonce,
    fid: 321,
    custody: custody.address,
    chainId: 31337,
    requestId: overrides.requestId,
  })
  const signature = await (overrides.signer ?? custody).signMessage({ message })
  return call('/v1/channel/authenticate', {
    token: channel.channelToken,
    body: { message, signature, fid: overrides.fid ?? 321, username: 'ada' },
  })
}

describe('the Farcaster auth relay', () => {
  test('opens a channel whose farcaster://connect URL names the token, nonce, URI and domain', async () => {
    const channel = await openChannel()
    expect(parseFarcasterConnectUrl(channel.url)).toEqual({
      channelToken: channel.channelToken,
      nonce: 'a1b2c3d4e5f6a7b8',
      siweUri: `${WALLET}/`,
      domain: DOMAIN,
    })
  })

  test('makes a nonce when the app sends none', async () => {
    const { body } = await call('/v1/channel', { body: { siweUri: `${WALLET}/`, domain: DOMAIN } })
    expect(body.nonce).toMatch(/^[0-9a-f]{24}$/)
  })

  test('is pending until a wallet answers, then completed with the message, signature and custody', async () => {
    const channel = await openChannel()
    const pending = await call('/v1/channel/status', { token: channel.channelToken })
    expect(pending.status).toBe(202)
    expect(pending.body.state).toBe('pending')
    const answered = await answer(channel)
    expect(answered.status).toBe(201)
    const done = await call('/v1/channel/status', { token: channel.channelToken })
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({
      state: 'completed',
      fid: 321,
      username: 'ada',
      custody: custody.address,
      nonce: channel.nonce,
    })
    expect(typeof done.body.message).toBe('string')
    // Answered once.
    expect((await answer(channel)).status).toBe(409)
  })

  test('refuses an answer for another nonce, domain, request id or fid, or signed by another key', async () => {
    const channel = await openChannel()
    expect((await answer(channel, { requestId: 'porthole:other:x' })).body.code).toBe(
      'MESSAGE_MISMATCH',
    )
    expect((await answer(channel, { nonce: 'ffffffffffffffff' })).body.code).toBe(
      'MESSAGE_MISMATCH',
    )
    expect((await answer(channel, { domain: 'evil.example' })).body.code).toBe('MESSAGE_MISMATCH')
    expect((await answer(channel, { fid: 999 })).body.code).toBe('MESSAGE_MISMATCH')
    const stranger = privateKeyToAccount(generatePrivateKey())
    expect((await answer(channel, { signer: stranger })).body.code).toBe('INVALID_SIGNATURE')
    expect((await call('/v1/channel/status', { token: channel.channelToken })).status).toBe(202)
  })

  test('an unknown token gets 401', async () => {
    expect((await call('/v1/channel/status', { token: 'no-such-channel' })).status).toBe(401)
    expect((await call('/v1/channel/status')).status).toBe(401)
  })

  test('refuses bad channel requests', async () => {
    for (const body of [
      { siweUri: 'javascript:alert(1)', domain: DOMAIN },
      { siweUri: `${WALLET}/`, domain: 'a b' },
      { siweUri: `${WALLET}/`, domain: DOMAIN, nonce: 'short' },
      { siweUri: `${WALLET}/`, domain: DOMAIN, extra: 1 },
    ])
      expect((await call('/v1/channel', { body })).status).toBe(400)
  })

  test('answers CORS for the frames only', async () => {
    const preflight = (origin: string) =>
      fetch(`${relay.url}/v1/channel`, { method: 'OPTIONS', headers: { origin } })
    const allowed = await preflight(WALLET)
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get('access-control-allow-origin')).toBe(WALLET)
    const other = await preflight('https://evil.example')
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('answers only under its own host names (421 otherwise)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL('/health', relay.url)
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, headers: { host: 'evil.test' } },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(421)
    const port = new URL(relay.url).port
    expect((await fetch(`http://localhost:${port}/health`)).status).toBe(200)
  })

  test('forgets a channel after its lifetime', async () => {
    let now = Date.now()
    const app = createFarcasterRelayApp({ allowedOrigins: [], channelTtlMs: 1000, now: () => now })
    const opened = await app.request('/v1/channel', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ siweUri: `${WALLET}/`, domain: DOMAIN }),
    })
    const { channelToken } = (await opened.json()) as { channelToken: string }
    const status = () =>
      app.request('/v1/channel/status', { headers: { authorization: `Bearer ${channelToken}` } })
    expect((await status()).status).toBe(202)
    now += 1001
    expect((await status()).status).toBe(401)
  })
})
