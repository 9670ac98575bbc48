import { ed25519 } from '@noble/curves/ed25519'
import { formatSiwxMessage, type SiwxMessage } from '@porthole/shared'
import { base58 } from '@scure/base'
import { createPublicClient, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { verifySiweMessage } from 'viem/siwe'
import { afterEach, describe, expect, test } from 'vitest'
import { createTestApp, type TestApp } from '../../test/testApp.js'

const account = privateKeyToAccount(generatePrivateKey())
const stranger = privateKeyToAccount(generatePrivateKey())
let t: TestApp
afterEach(async () => {
  await t?.close()
})

async function nonce(): Promise<string> {
  return ((await (await t.get('/auth/v1/siwx/nonce')).json()) as { nonce: string }).nonce
}

function message(overrides: Partial<SiwxMessage> = {}): SiwxMessage {
  const now = Date.now()
  return {
    domain: 'localhost:4000',
    address: account.address,
    statement: 'Sign in to the shop.',
    uri: 'http://localhost:4000',
    version: '1',
    chainId: '31337',
    nonce: 'placeholder',
    issuedAt: new Date(now).toISOString(),
    expirationTime: new Date(now + 86_400_000).toISOString(),
    ...overrides,
  }
}

async function signIn(
  m: SiwxMessage,
  options: { signer?: typeof account; caipNetworkId?: string } = {},
) {
  const text = formatSiwxMessage('eip155', m)
  const signature = await (options.signer ?? account).signMessage({ message: text })
  const response = await t.post('/auth/v1/siwx/sessions', {
    message: text,
    signature,
    caipNetworkId: options.caipNetworkId ?? `eip155:${m.chainId}`,
  })
  return { response, text, signature, body: (await response.json()) as Record<string, unknown> }
}

describe('wallet sign-in (SIWX) on the API', () => {
  test('a signed message with a fresh nonce makes a session the host can verify, with viem too', async () => {
    t = await createTestApp()
    const m = message({ nonce: await nonce() })
    const { response, text, signature, body } = await signIn(m)
    expect(response.status).toBe(200)
    expect(body.session).toMatchObject({
      address: account.address,
      caipNetworkId: 'eip155:31337',
      message: text,
      signature,
    })
    // The host's server: viem's own check of the same message …
    const client = createPublicClient({ transport: http('http://127.0.0.1:1') })
    expect(
      await verifySiweMessage(client, {
        message: text,
        signature: signature as `0x${string}`,
        domain: 'localhost:4000',
        nonce: m.nonce,
      }),
    ).toBe(true)
    // … and the API's answer that it is a live session of the project.
    const verified = await t.post('/auth/v1/siwx/verify', { message: text, signature })
    expect(await verified.json()).toMatchObject({ valid: true, address: account.address })
    const token = body.token as string
    const current = await t.get('/auth/v1/siwx/sessions/current', {
      authorization: `Bearer ${token}`,
    })
    expect(((await current.json()) as { session: unknown }).session).toMatchObject({
      address: account.address,
    })
    // Revoked (sign-out on disconnect): gone for the modal and for the host's server.
    expect(
      (
        await t.send('POST', '/auth/v1/siwx/sessions/current/revoke', undefined, {
          authorization: `Bearer ${token}`,
        })
      ).status,
    ).toBe(204)
    expect(
      (await t.get('/auth/v1/siwx/sessions/current', { authorization: `Bearer ${token}` })).status,
    ).toBe(404)
    expect(
      await (await t.post('/auth/v1/siwx/verify', { message: text, signature })).json(),
    ).toEqual({ valid: false })
  })

  test('a nonce works once: replaying the same signed message is refused', async () => {
    t = await createTestApp()
    const m = message({ nonce: await nonce() })
    expect((await signIn(m)).response.status).toBe(200)
    const again = await signIn(m)
    expect(again.response.status).toBe(400)
    expect(again.body).toMatchObject({
      code: 'INVALID_SIGN_IN',
      details: 'nonce: unknown, used or expired',
    })
  })

  test('a nonce the API never issued, or one older than 5 minutes, is refused', async () => {
    t = await createTestApp()
    expect((await signIn(message({ nonce: 'madeUpNonce123' }))).body).toMatchObject({
      details: 'nonce: unknown, used or expired',
    })
    const old = await nonce()
    await t.db.execute('UPDATE siwx_nonces SET created_at = created_at - 300001 WHERE nonce = ?', [
      old,
    ])
    expect((await signIn(message({ nonce: old }))).body).toMatchObject({
      details: 'nonce: unknown, used or expired',
    })
  })

  test('nonces a stranger asked for and never used are deleted past their 5 minutes (they piled up for ever)', async () => {
    t = await createTestApp()
    const count = async () =>
      Number(
        (
          await t.db.query<{ n: number }>('SELECT CAST(COUNT(*) AS INTEGER) AS n FROM siwx_nonces')
        )[0]?.n,
      )
    // A flood of 500 nonce requests, 5 minutes ago, and a sign-in session expired since.
    const then = Date.now() - 300_001
    for (let i = 0; i < 500; i++)
      await t.db.execute(
        'INSERT INTO siwx_nonces (nonce, project_id, created_at) VALUES (?, ?, ?)',
        [`flood${i}`, 'test-project', then],
      )
    await t.db.execute(
      `INSERT INTO siwx_sessions (token_hash, project_id, address, caip_network_id, message,
         signature, created_at, expires_at) VALUES ('h', 'test-project', 'a', 'eip155:1', 'm', 's', 0, 1)`,
    )
    const fresh = await nonce()
    await expect.poll(count).toBe(1)
    expect(await t.db.query('SELECT token_hash FROM siwx_sessions')).toEqual([])
    // The fresh one still signs in.
    expect((await signIn(message({ nonce: fresh }))).response.status).toBe(200)
  })

  test('expired, not-yet-valid and stale messages are refused', async () => {
    t = await createTestApp()
    const now = Date.now()
    const cases: [Partial<SiwxMessage>, string][] = [
      [{ expirationTime: new Date(now - 1000).toISOString() }, 'message: expired'],
      [{ issuedAt: new Date(now - 3_600_000).toISOString() }, 'message: issued at another time'],
      [{ notBefore: new Date(now + 3_600_000).toISOString() }, 'message: not valid yet'],
    ]
    for (const [overrides, details] of cases)
      expect((await signIn(message({ nonce: await nonce(), ...overrides }))).body).toMatchObject({
        code: 'INVALID_SIGN_IN',
        details,
      })
  })

  test('a message for another site, or for another network than claimed, is refused', async () => {
    t = await createTestApp()
    const evil = await signIn(
      message({ nonce: await nonce(), domain: 'evil.test', uri: 'https://evil.test' }),
    )
    expect(evil.body).toMatchObject({
      details: 'message: https://evil.test is not an origin of this project',
    })
    const mixed = await signIn(message({ nonce: await nonce(), domain: 'evil.test' }))
    expect(mixed.body).toMatchObject({ details: 'message: domain and URI name different sites' })
    const chain = await signIn(message({ nonce: await nonce() }), { caipNetworkId: 'eip155:1' })
    expect(chain.body).toMatchObject({
      details: 'message: signed for eip155:31337, not eip155:1',
    })
    // A wildcard origin of the project counts.
    const shop = await signIn(
      message({ nonce: await nonce(), domain: 'a.shop.test', uri: 'https://a.shop.test/login' }),
    )
    expect(shop.response.status).toBe(200)
  })

  test('a signature by another key is refused and does not use the nonce up', async () => {
    t = await createTestApp()
    const m = message({ nonce: await nonce() })
    expect((await signIn(m, { signer: stranger })).body).toMatchObject({
      details: 'signature: not by the address',
    })
    expect((await signIn(m)).response.status).toBe(200)
  })

  test('Solana (CAIP-122): an ed25519 signature by the address', async () => {
    t = await createTestApp()
    const seed = new Uint8Array(32).fill(7)
    const address = base58.encode(ed25519.getPublicKey(seed))
    const chain = 'DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P'
    const text = formatSiwxMessage(
      'solana',
      message({ nonce: await nonce(), address, chainId: chain }),
    )
    const sign = (key: Uint8Array) =>
      base58.encode(ed25519.sign(new TextEncoder().encode(text), key))
    const wrong = await t.post('/auth/v1/siwx/sessions', {
      message: text,
      signature: sign(new Uint8Array(32).fill(8)),
      caipNetworkId: `solana:${chain}`,
    })
    expect(wrong.status).toBe(400)
    const right = await t.post('/auth/v1/siwx/sessions', {
      message: text,
      signature: sign(seed),
      caipNetworkId: `solana:${chain}`,
    })
    expect(right.status).toBe(200)
    expect(((await right.json()) as { session: { address: string } }).session.address).toBe(address)
  })

  test('a session token reads only its own project’s session; a made-up token reads nothing', async () => {
    t = await createTestApp()
    const { body } = await signIn(message({ nonce: await nonce() }))
    const other = await t.get(`/auth/v1/siwx/sessions/current?projectId=porthole-other`, {
      authorization: `Bearer ${body.token as string}`,
    })
    expect(other.status).not.toBe(200)
    const madeUp = await t.get('/auth/v1/siwx/sessions/current', {
      authorization: `Bearer ${'A'.repeat(43)}`,
    })
    expect(madeUp.status).toBe(404)
  })
})
