import { randomBytes, randomUUID } from 'node:crypto'
import { deviceRemovalDigest, sharesDigest, sharesMessage } from '@porthole/shared'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { bearer, DEVICE_A, DEVICE_B, emailSignIn } from '../../test/auth.js'
import { DRIVERS } from '../../test/databases.js'
import { startTestSmtp, type TestSmtp } from '../../test/smtp.js'
import { createTestApp, PROJECT_ID, type TestApp } from '../../test/testApp.js'
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

const OWNER_KEY = generatePrivateKey()
const OWNER = privateKeyToAccount(OWNER_KEY)
const STRANGER_KEY = generatePrivateKey()
const share = (bytes = 64) => randomBytes(bytes).toString('base64')

type Recovery =
  | { kind: 'automatic'; ciphertext: string }
  | { kind: 'passkey'; ciphertext: string; credentialId: string }

/** A share set signed as the wallet frame signs it (by the wallet's key unless told). */
async function signedShares(options: {
  replaces: string | null
  key?: `0x${string}`
  recovery?: Recovery
  site?: string
}) {
  const account = privateKeyToAccount(options.key ?? OWNER_KEY)
  const body = {
    setId: randomUUID(),
    replaces: options.replaces,
    deviceX: 7,
    address: account.address.toLowerCase(),
    authShare: share(),
    recovery: options.recovery ?? ({ kind: 'automatic', ciphertext: share(200) } as Recovery),
    ...(options.site ? { site: options.site } : {}),
  }
  const signature = await account.sign({ hash: sharesDigest({ projectId: PROJECT_ID, ...body }) })
  return { ...body, signature }
}

describe.each(DRIVERS)('account routes on %s', (driver) => {
  const open = () => createTestApp({ auth: { smtpUrl: smtp.url } }, { driver, catalogue: false })

  test('shares: PUT then GET round-trips; the auth share is encrypted at rest', async () => {
    t = await open()
    const { token, user } = await emailSignIn(t, smtp, 'keys@example.com', DEVICE_A)
    const auth = bearer(token)
    const none = await t.get('/auth/v1/shares', auth)
    expect(none.status).toBe(404)
    expect(await none.json()).toMatchObject({ code: 'NO_WALLET', recovery: 'automatic' })

    const shares = await signedShares({ replaces: null })
    const put = await t.send('PUT', '/auth/v1/shares', shares, auth)
    expect(put.status).toBe(200)
    expect(await put.json()).toEqual({ setId: shares.setId, address: OWNER.address })
    const get = await t.get('/auth/v1/shares', auth)
    expect(await get.json()).toEqual({
      setId: shares.setId,
      deviceX: 7,
      address: OWNER.address,
      authShare: shares.authShare,
      recovery: shares.recovery,
      policy: 'automatic',
    })

    const [row] = await t.db.query<{ auth_share: string; recovery_ciphertext: string }>(
      'SELECT auth_share, recovery_ciphertext FROM auth_shares WHERE user_id = ?',
      [user.id],
    )
    expect(row?.auth_share).toMatch(/^v1\./)
    expect(row?.auth_share).not.toContain(shares.authShare)
    expect(row?.recovery_ciphertext).toBe(shares.recovery.ciphertext)
    // The first split is no change: nothing is mailed.
    expect(
      smtp.messages.filter(
        (m) => m.to.includes('keys@example.com') && /new device/.test(m.subject),
      ),
    ).toEqual([])
  })

  test('answers that carry shares are never compressed, however large (their sizes would hint at them)', async () => {
    t = await open()
    const { token } = await emailSignIn(t, smtp, 'plain@example.com', DEVICE_A)
    const auth = bearer(token)
    const shares = await signedShares({
      replaces: null,
      recovery: { kind: 'automatic', ciphertext: share(1200) },
    })
    expect((await t.send('PUT', '/auth/v1/shares', shares, auth)).status).toBe(200)
    const get = await t.get('/auth/v1/shares', { ...auth, 'accept-encoding': 'br, gzip' })
    expect(get.headers.get('content-encoding')).toBeNull()
    expect((await get.arrayBuffer()).byteLength).toBeGreaterThan(1024)
  })

  test('a re-split is signed by the wallet key, names the set it replaces, keeps the address and is mailed', async () => {
    t = await open()
    const { token } = await emailSignIn(t, smtp, 'resplit@example.com', DEVICE_A)
    const auth = bearer(token)
    const first = await signedShares({ replaces: null })
    expect((await t.send('PUT', '/auth/v1/shares', first, auth)).status).toBe(200)
    const second = await signedShares({
      replaces: first.setId,
      recovery: { kind: 'passkey', ciphertext: share(), credentialId: 'Y3JlZGVudGlhbC1pZC0wMQ' },
      site: 'https://shop.example',
    })
    const put = await t.send('PUT', '/auth/v1/shares', second, {
      ...auth,
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0 Safari/537.36',
    })
    expect(put.status).toBe(200)
    expect(await (await t.get('/auth/v1/shares', auth)).json()).toMatchObject({
      setId: second.setId,
      authShare: second.authShare,
      recovery: second.recovery,
      address: OWNER.address,
    })
    const notice = await smtp.last('resplit@example.com')
    expect(notice.subject).toBe('The recovery of your Porthole wallet changed')
    for (const part of ['https://shop.example', 'Chrome 156 on Linux', OWNER.address, 'passkey'])
      expect(notice.body).toContain(part)

    // Another key cannot sign for this wallet, even with the right set id.
    const stranger = await signedShares({ replaces: second.setId, key: STRANGER_KEY })
    const mismatch = await t.send('PUT', '/auth/v1/shares', stranger, auth)
    expect(mismatch.status).toBe(409)
    expect(await mismatch.json()).toMatchObject({ code: 'ADDRESS_MISMATCH' })
    expect((await (await t.get('/auth/v1/shares', auth)).json()).setId).toBe(second.setId)
  })

  test('a stolen session cannot overwrite the shares: junk, a forged or replayed signature are refused', async () => {
    t = await open()
    const { token } = await emailSignIn(t, smtp, 'victim@example.com', DEVICE_A)
    const auth = bearer(token)
    const first = await signedShares({ replaces: null })
    expect((await t.send('PUT', '/auth/v1/shares', first, auth)).status).toBe(200)

    // The thief holds the session, not the key.
    const junk = { ...first, setId: 'junk-set-1', replaces: first.setId, authShare: share() }
    const unsigned = await t.send('PUT', '/auth/v1/shares', junk, auth)
    expect(unsigned.status).toBe(400)
    expect(await unsigned.json()).toMatchObject({ code: 'INVALID_SHARES_SIGNATURE' })
    const ownKey = await signedShares({ replaces: first.setId, key: STRANGER_KEY })
    expect(
      (await t.send('PUT', '/auth/v1/shares', { ...ownKey, address: OWNER.address }, auth)).status,
    ).toBe(400)
    // A personal_sign of the same text (what a host page could trick the user into) is no proof.
    const tricked = await signedShares({ replaces: first.setId })
    const personal = await OWNER.signMessage({
      message: sharesMessage({ projectId: PROJECT_ID, ...tricked }),
    })
    const viaDapp = await t.send(
      'PUT',
      '/auth/v1/shares',
      { ...tricked, signature: personal },
      auth,
    )
    expect(viaDapp.status).toBe(400)
    expect(await viaDapp.json()).toMatchObject({ code: 'INVALID_SHARES_SIGNATURE' })
    // A signature the owner once made for the first set cannot be replayed over it.
    const replay = await t.send('PUT', '/auth/v1/shares', first, auth)
    expect(replay.status).toBe(409)
    expect(await replay.json()).toMatchObject({ code: 'SHARES_CHANGED' })
    // A signed set that replaces an older set than the current one is refused too.
    const second = await signedShares({ replaces: first.setId })
    expect((await t.send('PUT', '/auth/v1/shares', second, auth)).status).toBe(200)
    const stale = await signedShares({ replaces: first.setId })
    expect((await t.send('PUT', '/auth/v1/shares', stale, auth)).status).toBe(409)
    expect(await (await t.get('/auth/v1/shares', auth)).json()).toMatchObject({
      setId: second.setId,
      authShare: second.authShare,
    })
  })

  test('a new device is reported by the session and mailed to the owner; not before there is a wallet', async () => {
    t = await open()
    const { token } = await emailSignIn(t, smtp, 'device@example.com', DEVICE_A)
    const auth = bearer(token)
    const early = await t.post('/auth/v1/devices', { site: 'https://shop.example' }, auth)
    expect(early.status).toBe(404)
    expect(
      (await t.send('PUT', '/auth/v1/shares', await signedShares({ replaces: null }), auth)).status,
    ).toBe(200)
    const reported = await t.post(
      '/auth/v1/devices',
      { site: 'https://shop.example' },
      {
        ...auth,
        'user-agent':
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
      },
    )
    expect(reported.status).toBe(204)
    const mail = await smtp.last('device@example.com')
    expect(mail.subject).toBe('Your Porthole wallet was set up on a new device')
    for (const part of ['https://shop.example', 'Firefox 133 on Windows', OWNER.address])
      expect(mail.body).toContain(part)
    expect((await t.post('/auth/v1/devices', { site: 'javascript:alert(1)' }, auth)).status).toBe(
      400,
    )
    expect((await t.post('/auth/v1/devices', {})).status).toBe(401)
  })

  test('devices: a device that receives the recovery ciphertext is listed and new to the others; only an older device removes it, with the wallet key; it is then signed out and refused the auth share', async () => {
    t = await open()
    const firefox = {
      'user-agent':
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0',
    }
    const a = bearer((await emailSignIn(t, smtp, 'devices@example.com', DEVICE_A)).token)
    expect((await t.get('/auth/v1/devices', a)).status).toBe(200)
    expect(
      (await t.send('PUT', '/auth/v1/shares', await signedShares({ replaces: null }), a)).status,
    ).toBe(200)
    // A new device signs in: it gets the ciphertext, so it is listed whether it reports or not.
    const bToken = (await emailSignIn(t, smtp, 'devices@example.com', DEVICE_B)).token
    const b = bearer(bToken)
    const shares = await (await t.get('/auth/v1/shares', { ...b, ...firefox })).json()
    expect(shares.recovery.ciphertext).toEqual(expect.any(String))
    const listed = (await (await t.get('/auth/v1/devices', a)).json()).devices
    expect(listed).toEqual([
      expect.objectContaining({
        kind: 'recovered',
        label: 'Firefox 140 on Windows',
        current: false,
        isNew: true,
        id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      }),
      expect.objectContaining({ kind: 'created', current: true, isNew: false }),
    ])
    const [newcomer, first] = listed as { id: string }[]
    // Shown once here: then no longer new to this device (still new to none other).
    expect((await t.post('/auth/v1/devices/seen', {}, a)).status).toBe(204)
    expect(
      (await (await t.get('/auth/v1/devices', a)).json()).devices.map(
        (d: { isNew: boolean }) => d.isNew,
      ),
    ).toEqual([false, false])

    const removal = async (device: string, key = OWNER_KEY) => ({
      device,
      signature: await privateKeyToAccount(key).sign({
        hash: deviceRemovalDigest({ projectId: PROJECT_ID, address: OWNER.address, device }),
      }),
    })
    // The newcomer holds the key (it rebuilt it) but cannot cut the older device off.
    const back = await t.post('/auth/v1/devices/revoke', await removal(first!.id), b)
    expect(back.status).toBe(403)
    expect((await back.json()).code).toBe('DEVICE_NOT_REMOVABLE')
    // A session without the wallet key cannot remove anything; nor an unknown device.
    const forged = await t.post(
      '/auth/v1/devices/revoke',
      await removal(newcomer!.id, STRANGER_KEY),
      a,
    )
    expect((await forged.json()).code).toBe('INVALID_SHARES_SIGNATURE')
    expect((await t.post('/auth/v1/devices/revoke', await removal('A'.repeat(22)), a)).status).toBe(
      404,
    )
    expect((await t.post('/auth/v1/devices/revoke', await removal(first!.id), a)).status).toBe(400)
    // The older device removes the newcomer: signed out, and refused the auth share after a
    // new sign-in on that device.
    expect((await t.post('/auth/v1/devices/revoke', await removal(newcomer!.id), a)).status).toBe(
      204,
    )
    expect((await t.get('/auth/v1/shares', b)).status).toBe(401)
    const again = bearer((await emailSignIn(t, smtp, 'devices@example.com', DEVICE_B)).token)
    const refused = await t.get('/auth/v1/shares', again)
    expect(refused.status).toBe(403)
    expect((await refused.json()).code).toBe('DEVICE_REVOKED')
    expect((await t.get('/auth/v1/devices', again)).status).toBe(403)
    expect(
      (await (await t.get('/auth/v1/devices', a)).json()).devices.map((d: { id: string }) => d.id),
    ).toEqual([first!.id])
    // The first device goes on.
    expect((await t.get('/auth/v1/shares', a)).status).toBe(200)
  })

  test('the recovery ciphertext goes only to a sign-in of the last 10 minutes', async () => {
    const advance = freezeTime()
    t = await open()
    const { token } = await emailSignIn(t, smtp, 'fresh@example.com', DEVICE_A)
    const auth = bearer(token)
    const first = await signedShares({ replaces: null })
    expect((await t.send('PUT', '/auth/v1/shares', first, auth)).status).toBe(200)
    advance(9 * 60_000)
    expect((await (await t.get('/auth/v1/shares', auth)).json()).recovery.ciphertext).toBe(
      first.recovery.ciphertext,
    )
    advance(2 * 60_000)
    const stale = await (await t.get('/auth/v1/shares', auth)).json()
    expect(stale.authShare).toBe(first.authShare)
    expect(stale.recovery).toEqual({ kind: 'automatic', ciphertext: null })
  })

  test('shares need a session and valid fields, and belong to their user only', async () => {
    t = await open()
    const body = await signedShares({ replaces: null })
    expect((await t.send('PUT', '/auth/v1/shares', body)).status).toBe(401)
    const { token } = await emailSignIn(t, smtp, 'valid@example.com', DEVICE_A)
    for (const invalid of [
      { ...body, address: '0x1234' },
      { ...body, setId: '' },
      { ...body, setId: 'x'.repeat(65) },
      { ...body, authShare: 'not base64!' },
      { ...body, authShare: 'A'.repeat(4097) },
      { ...body, recovery: undefined },
      { ...body, recovery: { kind: 'other', ciphertext: share() } },
      { ...body, recovery: { kind: 'passkey', ciphertext: share() } },
      { ...body, signature: '0x12' },
      { ...body, replaces: undefined },
      { ...body, deviceX: 0 },
      { ...body, deviceX: 256 },
    ]) {
      const response = await t.send('PUT', '/auth/v1/shares', invalid, bearer(token))
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'INVALID_REQUEST' })
    }
    expect((await t.send('PUT', '/auth/v1/shares', body, bearer(token))).status).toBe(200)
    const other = await emailSignIn(t, smtp, 'other@example.com', DEVICE_A)
    expect((await t.get('/auth/v1/shares', bearer(other.token))).status).toBe(404)
  })

  test('the recovery-ticket and JWKS routes are gone: the API cannot vouch for a user to the recovery service', async () => {
    t = await open()
    const { token } = await emailSignIn(t, smtp, 'ticket@example.com', DEVICE_A)
    expect((await t.post('/auth/v1/recovery/ticket', undefined, bearer(token))).status).toBe(404)
    expect((await t.app.request('/auth/v1/jwks.json')).status).toBe(404)
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

  test('e-mail update: a session token stolen before the change is refused after it; the changing session goes on', async () => {
    const advance = freezeTime()
    t = await open()
    const email = 'victim@example.com'
    const stolen = await emailSignIn(t, smtp, email, DEVICE_B)
    advance(31_000)
    const { token, user } = await emailSignIn(t, smtp, email, DEVICE_A)
    const bystander = await emailSignIn(t, smtp, 'bystander@example.com', DEVICE_B)
    const auth = bearer(token)
    expect((await t.get('/auth/v1/me', bearer(stolen.token))).status).toBe(200)

    await t.post('/auth/v1/email/update/start', { newEmail: 'moved@example.com' }, auth)
    const primary = await smtp.code(email)
    await t.post('/auth/v1/email/update/verify', { stage: 'primary', code: primary }, auth)
    // Halfway through, nothing is revoked yet.
    expect((await t.get('/auth/v1/me', bearer(stolen.token))).status).toBe(200)
    const secondary = await smtp.code('moved@example.com')
    const done = await t.post(
      '/auth/v1/email/update/verify',
      { stage: 'secondary', code: secondary },
      auth,
    )
    expect(await done.json()).toEqual({ email: 'moved@example.com' })

    const refused = await t.get('/auth/v1/me', bearer(stolen.token))
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ code: 'UNAUTHENTICATED' })
    expect((await (await t.get('/auth/v1/me', auth)).json()).user).toMatchObject({
      id: user.id,
      email: 'moved@example.com',
    })
    expect((await t.get('/auth/v1/me', bearer(bystander.token))).status).toBe(200)
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
