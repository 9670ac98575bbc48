import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { InvalidMasterKeyError, LIMITS, startRecoveryService } from './index.js'

const WALLET = 'http://127.0.0.1:4200'
let signing: CryptoKey
let jwk: JWK
let jwksServer: Server
let apiUrl: string

beforeAll(async () => {
  const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
  signing = pair.privateKey as CryptoKey
  jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'EdDSA', use: 'sig' }
  // A real HTTP JWKS, as the API serves it.
  jwksServer = createServer((req, res) => {
    if (req.url !== '/auth/v1/jwks.json') return res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ keys: [jwk] }))
  })
  await new Promise<void>((ok) => jwksServer.listen(0, '127.0.0.1', ok))
  apiUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((ok) => jwksServer.close(() => ok())))

function ticket(
  claims: { sub?: string; pid?: string } = {},
  options: { key?: CryptoKey; audience?: string; expires?: string } = {},
) {
  return new SignJWT({ pid: claims.pid ?? 'project-1' })
    .setProtectedHeader({ alg: 'EdDSA', kid: 'k1' })
    .setSubject(claims.sub ?? 'user-1')
    .setAudience(options.audience ?? 'porthole-recovery')
    .setIssuedAt()
    .setExpirationTime(options.expires ?? '60s')
    .sign(options.key ?? signing)
}

async function service(keyFile = join(mkdtempSync(join(tmpdir(), 'recovery-')), 'recovery.key')) {
  const running = await startRecoveryService({
    port: 0,
    apiUrl,
    allowedOrigins: [WALLET],
    keyFile,
  })
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${running.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
    return { status: response.status, headers: response.headers, body: await response.json() }
  }
  return { ...running, keyFile, post }
}

const SHARE = Buffer.from('a recovery share of 33 bytes!!!!!').toString('base64')

describe('recovery key service', () => {
  test('encrypts and decrypts a share for the ticket holder; ciphertexts differ each time', async () => {
    const s = await service()
    try {
      const a = await s.post('/v1/recovery/encrypt', { ticket: await ticket(), share: SHARE })
      const b = await s.post('/v1/recovery/encrypt', { ticket: await ticket(), share: SHARE })
      expect(a.status).toBe(200)
      expect(a.body.ciphertext).not.toBe(b.body.ciphertext)
      expect(a.body.ciphertext).not.toContain(SHARE)
      const back = await s.post('/v1/recovery/decrypt', {
        ticket: await ticket(),
        ciphertext: a.body.ciphertext,
      })
      expect(back).toMatchObject({ status: 200, body: { share: SHARE } })
      expect(back.headers.get('cache-control')).toBe('no-store')
    } finally {
      await s.close()
    }
  })

  test.each([
    ['another user', { sub: 'user-2' }],
    ['another project', { pid: 'project-2' }],
  ])('%s cannot decrypt it', async (_name, claims) => {
    const s = await service()
    try {
      const { body } = await s.post('/v1/recovery/encrypt', {
        ticket: await ticket(),
        share: SHARE,
      })
      const other = await s.post('/v1/recovery/decrypt', {
        ticket: await ticket(claims),
        ciphertext: body.ciphertext,
      })
      expect(other).toMatchObject({
        status: 400,
        body: { code: 'DECRYPT_FAILED', message: 'The recovery share could not be decrypted' },
      })
    } finally {
      await s.close()
    }
  })

  test('a tampered ciphertext or an unknown version fails', async () => {
    const s = await service()
    try {
      const { body } = await s.post('/v1/recovery/encrypt', {
        ticket: await ticket(),
        share: SHARE,
      })
      const bytes = Buffer.from(body.ciphertext, 'base64')
      const flipped = Buffer.from(bytes)
      flipped[20] = (flipped[20] ?? 0) ^ 1
      const versioned = Buffer.from(bytes)
      versioned[0] = 2
      for (const ciphertext of [flipped, versioned, bytes.subarray(0, 20)])
        expect(
          (
            await s.post('/v1/recovery/decrypt', {
              ticket: await ticket(),
              ciphertext: ciphertext.toString('base64'),
            })
          ).body.code,
        ).toBe('DECRYPT_FAILED')
    } finally {
      await s.close()
    }
  })

  test('expired, wrong-audience, foreign-key and malformed tickets get 401 INVALID_TICKET', async () => {
    const s = await service()
    const foreign = (await generateKeyPair('EdDSA', { crv: 'Ed25519' })).privateKey as CryptoKey
    try {
      const bad = [
        await ticket({}, { expires: '-1s' }),
        await ticket({}, { audience: 'someone-else' }),
        await ticket({}, { key: foreign }),
        'not.a.jwt',
      ]
      for (const t of bad)
        expect(await s.post('/v1/recovery/encrypt', { ticket: t, share: SHARE })).toMatchObject({
          status: 401,
          body: { code: 'INVALID_TICKET', message: 'Invalid recovery ticket' },
        })
    } finally {
      await s.close()
    }
  })

  test('bad bodies get 400 naming the field, oversize bodies 413, unknown paths 404', async () => {
    const s = await service()
    try {
      expect((await s.post('/v1/recovery/encrypt', '{')).body).toMatchObject({
        code: 'INVALID_BODY',
        message: 'The request body must be JSON',
      })
      expect((await s.post('/v1/recovery/encrypt', { ticket: await ticket() })).body).toMatchObject(
        { code: 'INVALID_BODY', message: expect.stringContaining('share') },
      )
      expect(
        (await s.post('/v1/recovery/decrypt', { ticket: await ticket(), ciphertext: '<>' })).body
          .message,
      ).toContain('ciphertext')
      const huge = await s.post('/v1/recovery/encrypt', { ticket: 'x', share: 'A'.repeat(20_000) })
      expect(huge).toMatchObject({ status: 413, body: { code: 'BODY_TOO_LARGE' } })
      expect((await s.post('/nope', {})).status).toBe(404)
    } finally {
      await s.close()
    }
  })

  test(`more than ${LIMITS.perSubject} requests a minute for one user get 429 with Retry-After`, async () => {
    const s = await service()
    try {
      const t = await ticket({ sub: 'busy-user' })
      for (let i = 0; i < LIMITS.perSubject; i++)
        expect((await s.post('/v1/recovery/encrypt', { ticket: t, share: SHARE })).status).toBe(200)
      const limited = await s.post('/v1/recovery/encrypt', { ticket: t, share: SHARE })
      expect(limited).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } })
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
      // Another user is not affected.
      expect(
        (await s.post('/v1/recovery/encrypt', { ticket: await ticket(), share: SHARE })).status,
      ).toBe(200)
    } finally {
      await s.close()
    }
  })

  test('CORS: the wallet origin is echoed, preflight answered, any other origin refused', async () => {
    const s = await service()
    try {
      const allowed = await s.post(
        '/v1/recovery/encrypt',
        { ticket: await ticket(), share: SHARE },
        { origin: WALLET },
      )
      expect(allowed.headers.get('access-control-allow-origin')).toBe(WALLET)
      expect(allowed.headers.get('vary')).toBe('Origin')
      const refused = await s.post(
        '/v1/recovery/encrypt',
        { ticket: await ticket(), share: SHARE },
        { origin: 'http://127.0.0.1:4100' },
      )
      expect(refused).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } })
      const preflight = await fetch(`${s.url}/v1/recovery/decrypt`, {
        method: 'OPTIONS',
        headers: { origin: WALLET, 'access-control-request-method': 'POST' },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type')
    } finally {
      await s.close()
    }
  })

  test('the key file is created 0600 and reused after a restart', async () => {
    const first = await service()
    const { body } = await first.post('/v1/recovery/encrypt', {
      ticket: await ticket(),
      share: SHARE,
    })
    await first.close()
    expect(statSync(first.keyFile).mode & 0o777).toBe(0o600)
    expect(readFileSync(first.keyFile, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/)
    const second = await service(first.keyFile)
    try {
      expect(
        (
          await second.post('/v1/recovery/decrypt', {
            ticket: await ticket(),
            ciphertext: body.ciphertext,
          })
        ).body,
      ).toEqual({ share: SHARE })
    } finally {
      await second.close()
    }
    // A different key cannot open it.
    const third = await service()
    try {
      expect(
        (
          await third.post('/v1/recovery/decrypt', {
            ticket: await ticket(),
            ciphertext: body.ciphertext,
          })
        ).body.code,
      ).toBe('DECRYPT_FAILED')
    } finally {
      await third.close()
    }
  })

  test('a malformed key file or master key is a clear error', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'recovery-')), 'bad.key')
    writeFileSync(file, 'not hex')
    await expect(service(file)).rejects.toThrow(InvalidMasterKeyError)
    await expect(service(file)).rejects.toThrow(/64 hex digits/)
    await expect(
      startRecoveryService({ port: 0, apiUrl, allowedOrigins: [], masterKey: new Uint8Array(16) }),
    ).rejects.toThrow('The recovery master key must be 32 bytes, got 16')
  })
})
