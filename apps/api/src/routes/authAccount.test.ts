import { randomBytes, randomUUID } from 'node:crypto'
import { createLocalJWKSet, errors, jwtVerify } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { bearer, DEVICE_A, DEVICE_B, emailSignIn } from '../../test/auth.js'
import { DRIVERS } from '../../test/databases.js'
import { startTestSmtp, type TestSmtp } from '../../test/smtp.js'
import { createTestApp, PROJECT_ID, PUBLIC_URL, type TestApp } from '../../test/testApp.js'
import { createSession } from '../auth/sessions.js'

let smtp: TestSmtp
let t: TestApp
beforeAll(async () => {
  smtp = await startTestSmtp()
})
afterAll(async () => {
  await smtp.close()
})
afterEach(async () => {
  vi.useRealTimers()
  await t?.close()
})

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7'
const OTHER_ADDRESS = '0x8617E340B3D01FA5F11F306F4090FD50E238070D'
const share = (bytes = 64) => randomBytes(bytes).toString('base64')

describe.each(DRIVERS)('account routes on %s', (driver) => {
  const open = () => createTestApp({ auth: { smtpUrl: smtp.url } }, { driver, catalogue: false })

  test('shares: PUT then GET round-trips; the auth share is encrypted at rest', async () => {
    t = await open()
    const { token, user } = await emailSignIn(t, smtp, 'keys@example.com', DEVICE_A)
    const auth = bearer(token)
    const none = await t.get('/auth/v1/shares', auth)
    expect(none.status).toBe(404)
    expect(await none.json()).toMatchObject({ code: 'NO_WALLET' })

    const shares = {
      setId: randomUUID(),
      address: ADDRESS.toLowerCase(),
      authShare: share(),
      recoveryCiphertext: share(200),
    }
    const put = await t.send('PUT', '/auth/v1/shares', shares, auth)
    expect(put.status).toBe(200)
    expect(await put.json()).toEqual({ setId: shares.setId, address: ADDRESS })
    const get = await t.get('/auth/v1/shares', auth)
    expect(await get.json()).toEqual({ ...shares, address: ADDRESS })

    const [row] = await t.db.query<{ auth_share: string; recovery_ciphertext: string }>(
      'SELECT auth_share, recovery_ciphertext FROM auth_shares WHERE user_id = ?',
      [user.id],
    )
    expect(row?.auth_share).toMatch(/^v1\./)
    expect(row?.auth_share).not.toContain(shares.authShare)
    expect(row?.recovery_ciphertext).toBe(shares.recoveryCiphertext)
  })

  test('a re-split keeps the address (any case); another address is ADDRESS_MISMATCH', async () => {
    t = await open()
    const { token } = await emailSignIn(t, smtp, 'resplit@example.com', DEVICE_A)
    const auth = bearer(token)
    const first = {
      setId: 'set-1',
      address: ADDRESS,
      authShare: share(),
      recoveryCiphertext: share(),
    }
    expect((await t.send('PUT', '/auth/v1/shares', first, auth)).status).toBe(200)
    const second = {
      ...first,
      setId: 'set-2',
      address: ADDRESS.slice(2).toUpperCase(),
      authShare: share(),
    }
    expect((await t.send('PUT', '/auth/v1/shares', second, auth)).status).toBe(200)
    expect(await (await t.get('/auth/v1/shares', auth)).json()).toMatchObject({
      setId: 'set-2',
      authShare: second.authShare,
      address: ADDRESS,
    })
    const mismatch = await t.send(
      'PUT',
      '/auth/v1/shares',
      { ...first, setId: 'set-3', address: OTHER_ADDRESS },
      auth,
    )
    expect(mismatch.status).toBe(409)
    expect(await mismatch.json()).toMatchObject({ code: 'ADDRESS_MISMATCH' })
    expect((await (await t.get('/auth/v1/shares', auth)).json()).setId).toBe('set-2')
  })

  test('shares need a session and valid fields, and belong to their user only', async () => {
    t = await open()
    const body = { setId: 's', address: ADDRESS, authShare: share(), recoveryCiphertext: share() }
    expect((await t.send('PUT', '/auth/v1/shares', body)).status).toBe(401)
    const { token } = await emailSignIn(t, smtp, 'valid@example.com', DEVICE_A)
    for (const invalid of [
      { ...body, address: '0x1234' },
      { ...body, setId: '' },
      { ...body, setId: 'x'.repeat(65) },
      { ...body, authShare: 'not base64!' },
      { ...body, authShare: 'A'.repeat(4097) },
      { ...body, recoveryCiphertext: undefined },
    ]) {
      const response = await t.send('PUT', '/auth/v1/shares', invalid, bearer(token))
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'INVALID_REQUEST' })
    }
    expect((await t.send('PUT', '/auth/v1/shares', body, bearer(token))).status).toBe(200)
    const other = await emailSignIn(t, smtp, 'other@example.com', DEVICE_A)
    expect((await t.get('/auth/v1/shares', bearer(other.token))).status).toBe(404)
  })

  test('a recovery ticket verifies against /jwks.json and expires after 60 s', async () => {
    t = await open()
    const { token, user } = await emailSignIn(t, smtp, 'ticket@example.com', DEVICE_A)
    const response = await t.post('/auth/v1/recovery/ticket', undefined, bearer(token))
    expect(response.status).toBe(200)
    const { ticket } = await response.json()

    const jwksResponse = await t.app.request('/auth/v1/jwks.json')
    expect(jwksResponse.status).toBe(200)
    expect(jwksResponse.headers.get('cache-control')).toBe('public, max-age=300')
    const jwks = await jwksResponse.json()
    expect(jwks.keys).toEqual([
      {
        kty: 'OKP',
        crv: 'Ed25519',
        x: expect.any(String),
        kid: expect.any(String),
        alg: 'EdDSA',
        use: 'sig',
      },
    ])
    expect(jwks.keys[0]).not.toHaveProperty('d')
    const keySet = createLocalJWKSet(jwks)
    const { payload, protectedHeader } = await jwtVerify(ticket, keySet, {
      issuer: PUBLIC_URL,
      audience: 'porthole-recovery',
      algorithms: ['EdDSA'],
    })
    expect(protectedHeader.kid).toBe(jwks.keys[0].kid)
    expect(payload).toMatchObject({ sub: user.id, pid: PROJECT_ID })
    expect(payload.exp! - payload.iat!).toBe(60)
    await expect(
      jwtVerify(ticket, keySet, {
        issuer: PUBLIC_URL,
        audience: 'porthole-recovery',
        currentDate: new Date((payload.exp! + 1) * 1000),
      }),
    ).rejects.toBeInstanceOf(errors.JWTExpired)
    expect((await t.post('/auth/v1/recovery/ticket', undefined)).status).toBe(401)
  })

  test('e-mail update: a code to the current address, then one to the new address, then changed', async () => {
    const advance = freezeTime()
    t = await open()
    const { token, user } = await emailSignIn(t, smtp, 'before@example.com', DEVICE_A)
    const auth = bearer(token)
    const start = await t.post(
      '/auth/v1/email/update/start',
      { newEmail: 'After@Example.com' },
      auth,
    )
    expect(await start.json()).toEqual({ action: 'VERIFY_PRIMARY_OTP' })
    const primary = await smtp.code('before@example.com')

    const wrongStage = await t.post(
      '/auth/v1/email/update/verify',
      { stage: 'secondary', code: primary },
      auth,
    )
    expect(await wrongStage.json()).toMatchObject({ code: 'CODE_EXPIRED' })
    const wrongCode = await t.post(
      '/auth/v1/email/update/verify',
      { stage: 'primary', code: primary === '000000' ? '000001' : '000000' },
      auth,
    )
    expect(await wrongCode.json()).toMatchObject({ code: 'INVALID_CODE', attemptsLeft: 4 })

    const sent = smtp.messages.length
    const verifyPrimary = await t.post(
      '/auth/v1/email/update/verify',
      { stage: 'primary', code: primary },
      auth,
    )
    expect(await verifyPrimary.json()).toEqual({ action: 'VERIFY_SECONDARY_OTP' })
    expect(smtp.messages.length).toBe(sent + 1)
    const secondary = await smtp.code('after@example.com')
    const done = await t.post(
      '/auth/v1/email/update/verify',
      { stage: 'secondary', code: secondary },
      auth,
    )
    expect(await done.json()).toEqual({ email: 'after@example.com' })
    expect((await (await t.get('/auth/v1/me', auth)).json()).user).toMatchObject({
      id: user.id,
      email: 'after@example.com',
    })
    // The new address logs in to the same user, on the device already approved.
    advance(31_000)
    expect((await emailSignIn(t, smtp, 'after@example.com', DEVICE_A)).user.id).toBe(user.id)
    // The old address is free again: a new user.
    expect((await emailSignIn(t, smtp, 'before@example.com', DEVICE_B)).user.isNew).toBe(true)
  })

  test('e-mail update without a current e-mail goes straight to the new address', async () => {
    t = await open()
    const userId = randomUUID()
    await t.db.execute(
      'INSERT INTO auth_users (id, project_id, social_provider, social_subject, created_at) VALUES (?, ?, ?, ?, ?)',
      [userId, PROJECT_ID, 'x', 'x-123', Date.now()],
    )
    const token = await createSession(t.db, { projectId: PROJECT_ID, userId, deviceId: DEVICE_A })
    const auth = bearer(token)
    const start = await t.post('/auth/v1/email/update/start', { newEmail: 'new@example.com' }, auth)
    expect(await start.json()).toEqual({ action: 'VERIFY_SECONDARY_OTP' })
    const code = await smtp.code('new@example.com')
    const done = await t.post('/auth/v1/email/update/verify', { stage: 'secondary', code }, auth)
    expect(await done.json()).toEqual({ email: 'new@example.com' })
    expect((await (await t.get('/auth/v1/me', auth)).json()).user).toMatchObject({
      email: 'new@example.com',
      socialProvider: 'x',
    })
  })

  test('e-mail update: an address used by another user is EMAIL_IN_USE; the cooldown applies', async () => {
    const advance = freezeTime()
    t = await open()
    await emailSignIn(t, smtp, 'taken@example.com', DEVICE_A)
    const { token } = await emailSignIn(t, smtp, 'mine@example.com', DEVICE_A)
    const auth = bearer(token)
    const taken = await t.post(
      '/auth/v1/email/update/start',
      { newEmail: 'taken@example.com' },
      auth,
    )
    expect(taken.status).toBe(409)
    expect(await taken.json()).toMatchObject({ code: 'EMAIL_IN_USE' })
    const same = await t.post('/auth/v1/email/update/start', { newEmail: 'mine@example.com' }, auth)
    expect(same.status).toBe(400)
    expect(
      (await t.post('/auth/v1/email/update/start', { newEmail: 'a@example.com' }, auth)).status,
    ).toBe(200)
    advance(5_000)
    const early = await t.post('/auth/v1/email/update/start', { newEmail: 'b@example.com' }, auth)
    expect(early.status).toBe(429)
    expect(await early.json()).toEqual({
      code: 'COOLDOWN',
      message: 'Please try again after 25 seconds',
      retryAfter: 25,
    })
    expect(
      (await t.post('/auth/v1/email/update/start', { newEmail: 'x@example.com' })).status,
    ).toBe(401)
  })
})

function freezeTime(start = Date.UTC(2030, 0, 1)) {
  let now = start
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(now)
  return (ms: number) => {
    now += ms
    vi.setSystemTime(now)
  }
}
