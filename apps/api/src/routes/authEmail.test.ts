import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { bearer, DEVICE_A, DEVICE_B, emailSignIn } from '../../test/auth.js'
import { DRIVERS } from '../../test/databases.js'
import { startTestSmtp, type TestSmtp } from '../../test/smtp.js'
import {
  createTestApp,
  MODAL_ORIGIN,
  PROJECT_ID,
  type TestApp,
  WALLET_ORIGIN,
} from '../../test/testApp.js'
import { createProject } from '../projects/createProject.js'
import { setProjectFeatures } from '../projects/setProjectFeatures.js'

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

/** Freezes `Date` (only) at `start`; returns a function that moves it forward. */
function freezeTime(start = Date.UTC(2030, 0, 1)) {
  let now = start
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(now)
  return (ms: number) => {
    now += ms
    vi.setSystemTime(now)
  }
}

/** The site the tests' logins start from (one the test project allows). */
const SITE = 'http://localhost:4000'

/** Any 6-digit code but `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

describe.each(DRIVERS)('e-mail login on %s', (driver) => {
  const open = () => createTestApp({ auth: { smtpUrl: smtp.url } }, { driver, catalogue: false })

  test('mails a 6-digit code over SMTP, signs in a new user with it, and the code works once', async () => {
    t = await open()
    const start = await t.post('/auth/v1/email/start', {
      email: ' Ada@Example.COM ',
      deviceId: DEVICE_A,
      site: SITE,
    })
    expect(start.status).toBe(200)
    expect(await start.json()).toEqual({ action: 'VERIFY_OTP' })

    const mail = await smtp.last('ada@example.com')
    expect(mail.from).toBe('no-reply@porthole.local')
    expect(mail.raw).toMatch(/^From: Porthole <no-reply@porthole\.local>/m)
    expect(mail.subject).toMatch(/^Your Porthole code for localhost:4000 is \d{6}$/)
    expect(mail.raw).toMatch(/text\/plain/)
    expect(mail.raw).toMatch(/text\/html/)
    const code = await smtp.code('ada@example.com')
    // Stored as a keyed hash, never as the code.
    const [stored] = await t.db.query<{ code_hash: string }>('SELECT code_hash FROM auth_codes')
    expect(stored?.code_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(stored?.code_hash).not.toContain(code)

    const verify = await t.post('/auth/v1/email/verify', {
      email: 'ada@example.com',
      deviceId: DEVICE_A,
      code,
    })
    expect(verify.status).toBe(200)
    const session = await verify.json()
    expect(session).toEqual({
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      user: {
        id: expect.any(String),
        email: 'ada@example.com',
        socialProvider: null,
        username: null,
        createdAt: expect.any(Number),
        isNew: true,
      },
      recovery: 'automatic',
    })

    const again = await t.post('/auth/v1/email/verify', {
      email: 'ada@example.com',
      deviceId: DEVICE_A,
      code,
    })
    expect(again.status).toBe(400)
    expect(await again.json()).toEqual({ code: 'CODE_EXPIRED', message: 'Code expired' })

    const me = await t.get('/auth/v1/me', bearer(session.token))
    expect(await me.json()).toEqual({
      user: { ...session.user, isNew: false },
      recovery: 'automatic',
      authenticatedAt: expect.any(Number),
    })
  })

  test('a second start within 30 s answers COOLDOWN with the seconds left (spec wording)', async () => {
    const advance = freezeTime()
    t = await open()
    const body = { email: 'cool@example.com', deviceId: DEVICE_A, site: SITE }
    expect((await t.post('/auth/v1/email/start', body)).status).toBe(200)
    const first = await smtp.code('cool@example.com')
    advance(12_300)
    const early = await t.post('/auth/v1/email/start', body, { origin: WALLET_ORIGIN })
    expect(early.status).toBe(429)
    expect(early.headers.get('retry-after')).toBe('18')
    expect(early.headers.get('access-control-expose-headers')).toMatch(/Retry-After/)
    expect(await early.json()).toEqual({
      code: 'COOLDOWN',
      message: 'Please try again after 18 seconds',
      retryAfter: 18,
    })
    advance(17_700) // 30 s after the first
    expect(await (await t.post('/auth/v1/email/start', body)).json()).toEqual({
      action: 'VERIFY_OTP',
    })
    // The new code replaced the old one.
    const second = await smtp.code('cool@example.com')
    if (second !== first) {
      const old = await t.post('/auth/v1/email/verify', { ...body, code: first })
      expect(await old.json()).toMatchObject({ code: 'INVALID_CODE' })
    }
    const ok = await t.post('/auth/v1/email/verify', { ...body, code: second })
    expect(ok.status).toBe(200)
    // A used code ends its cooldown: signing in again (another site) may mail at once.
    advance(1_000)
    expect((await t.post('/auth/v1/email/start', body)).status).toBe(200)
  })

  test('wrong codes count attemptsLeft down; the fifth locks the e-mail for 15 minutes and burns the code', async () => {
    const advance = freezeTime()
    t = await open()
    const body = { email: 'guess@example.com', deviceId: DEVICE_A, site: SITE }
    await t.post('/auth/v1/email/start', body)
    const code = await smtp.code('guess@example.com')
    for (const attemptsLeft of [4, 3, 2, 1]) {
      const response = await t.post('/auth/v1/email/verify', { ...body, code: wrong(code) })
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({
        code: 'INVALID_CODE',
        message: 'Invalid code',
        attemptsLeft,
      })
    }
    const fifth = await t.post('/auth/v1/email/verify', { ...body, code: wrong(code) })
    expect(fifth.status).toBe(429)
    expect(await fifth.json()).toEqual({
      code: 'LOCKED',
      message: 'Too many attempts. Please try again after 15 minutes',
      retryAfter: 900,
    })
    // Even the right code, and a new start, are refused while locked.
    const right = await t.post('/auth/v1/email/verify', { ...body, code })
    expect(right.status).toBe(429)
    advance(60_000)
    const start = await t.post('/auth/v1/email/start', body)
    expect(start.status).toBe(429)
    expect(await start.json()).toMatchObject({ code: 'LOCKED', retryAfter: 840 })

    advance(14 * 60_000)
    expect(await (await t.post('/auth/v1/email/start', body)).json()).toEqual({
      action: 'VERIFY_OTP',
    })
    // The old code stays burnt; the new one works and the count starts over.
    const fresh = await smtp.code('guess@example.com')
    const miss = await t.post('/auth/v1/email/verify', { ...body, code: wrong(fresh) })
    expect(await miss.json()).toMatchObject({ attemptsLeft: 4 })
    expect((await t.post('/auth/v1/email/verify', { ...body, code: fresh })).status).toBe(200)
  })

  test('a code expires after 10 minutes', async () => {
    const advance = freezeTime()
    t = await open()
    const body = { email: 'late@example.com', deviceId: DEVICE_A, site: SITE }
    await t.post('/auth/v1/email/start', body)
    const code = await smtp.code('late@example.com')
    advance(10 * 60_000)
    const response = await t.post('/auth/v1/email/verify', { ...body, code })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ code: 'CODE_EXPIRED', message: 'Code expired' })
    const none = await t.post('/auth/v1/email/verify', {
      email: 'never@example.com',
      deviceId: DEVICE_A,
      code: '123456',
    })
    expect(await none.json()).toEqual({ code: 'CODE_EXPIRED', message: 'Code expired' })
  })

  test('start answers alike for known and unknown addresses: the answer does not reveal an account', async () => {
    const advance = freezeTime()
    t = await open()
    await emailSignIn(t, smtp, 'known@example.com', DEVICE_A)
    advance(31_000)
    const answers = []
    for (const email of ['known@example.com', 'unknown@example.com']) {
      const response = await t.post('/auth/v1/email/start', {
        email,
        deviceId: DEVICE_B,
        site: SITE,
      })
      answers.push({
        status: response.status,
        type: response.headers.get('content-type'),
        body: await response.text(),
      })
      // Each gets the same kind of mail: a code.
      expect((await smtp.last(email)).subject).toMatch(
        /^Your Porthole code for localhost:4000 is \d{6}$/,
      )
    }
    expect(answers[0]).toEqual(answers[1])
    expect(JSON.parse(answers[0]!.body)).toEqual({ action: 'VERIFY_OTP' })
    // Before, a known address on a new device answered VERIFY_DEVICE. Those routes are gone:
    // the recovery service (or the user's passkey) vouches for new devices now.
    expect(
      (await t.post('/auth/v1/device/status', { email: 'known@example.com', deviceId: DEVICE_B }))
        .status,
    ).toBe(404)
    expect(
      (
        await t.app.request(
          `/auth/v1/device/approve?projectId=${PROJECT_ID}&token=${'A'.repeat(43)}`,
        )
      ).status,
    ).toBe(404)
  })

  test('an existing user signs in on a new device with the code; the session is the same user', async () => {
    const advance = freezeTime()
    t = await open()
    const email = 'dev@example.com'
    const first = await emailSignIn(t, smtp, email, DEVICE_A)
    advance(31_000)
    const second = await emailSignIn(t, smtp, email, DEVICE_B)
    expect(second.user).toMatchObject({ id: first.user.id, isNew: false })
  })

  test('sessions: bearer or cookie, scoped to the project; logout deletes it and clears the cookie', async () => {
    t = await open()
    const start = await t.post('/auth/v1/email/start', {
      email: 's@example.com',
      deviceId: DEVICE_A,
      site: SITE,
    })
    expect(start.status).toBe(200)
    const verify = await t.post('/auth/v1/email/verify', {
      email: 's@example.com',
      deviceId: DEVICE_A,
      code: await smtp.code('s@example.com'),
    })
    const { token } = await verify.json()
    const cookie = verify.headers.get('set-cookie')!
    const attributes = cookie.split(';').map((part) => part.trim())
    expect(attributes[0]).toBe(`porthole_session=${token}`)
    expect(attributes.slice(1).sort()).toEqual(
      [
        'HttpOnly',
        'Max-Age=2592000',
        'Partitioned',
        'Path=/auth/v1',
        'SameSite=None',
        'Secure',
      ].sort(),
    )

    const unauthenticated = await t.get('/auth/v1/me')
    expect(unauthenticated.status).toBe(401)
    expect(await unauthenticated.json()).toMatchObject({ code: 'UNAUTHENTICATED' })
    expect((await t.get('/auth/v1/me', bearer(token))).status).toBe(200)
    expect((await t.get('/auth/v1/me', { cookie: `porthole_session=${token}` })).status).toBe(200)
    expect((await t.get('/auth/v1/me', bearer('x'.repeat(43)))).status).toBe(401)
    await createProject(t.db, { id: 'other' })
    expect((await t.get('/auth/v1/me?projectId=other', bearer(token))).status).toBe(401)

    // A cookie-authenticated write from a foreign page is refused; from the wallet it passes the
    // session check (and fails on its empty body).
    const forged = await t.send(
      'PUT',
      '/auth/v1/shares',
      {},
      {
        cookie: `porthole_session=${token}`,
        origin: 'https://evil.test',
      },
    )
    expect(forged.status).toBe(403)
    const fromWallet = await t.send(
      'PUT',
      '/auth/v1/shares',
      {},
      {
        cookie: `porthole_session=${token}`,
        origin: WALLET_ORIGIN,
      },
    )
    expect(await fromWallet.json()).toMatchObject({ code: 'INVALID_REQUEST' })

    const logout = await t.post('/auth/v1/logout', undefined, {
      cookie: `porthole_session=${token}`,
    })
    expect(logout.status).toBe(204)
    expect(logout.headers.get('set-cookie')).toMatch(
      /^porthole_session=; Max-Age=0; Path=\/auth\/v1; .*HttpOnly; Secure; SameSite=None; Partitioned/,
    )
    expect((await t.get('/auth/v1/me', bearer(token))).status).toBe(401)
    const [row] = await t.db.query<{ n: number }>(
      'SELECT CAST(COUNT(*) AS INTEGER) AS n FROM auth_sessions',
    )
    expect(Number(row?.n)).toBe(0)
  })

  test('a stolen session token left unused for 24 hours and a second is refused', async () => {
    const advance = freezeTime()
    t = await open()
    const { token } = await emailSignIn(t, smtp, 'idle@example.com', DEVICE_A)
    advance(60 * 60_000)
    expect((await t.get('/auth/v1/me', bearer(token))).status).toBe(200)
    // Idle time counts from the last use, not from the sign-in.
    advance(24 * 60 * 60_000 - 2 * 60_000)
    expect((await t.get('/auth/v1/me', bearer(token))).status).toBe(200)
    advance(24 * 60 * 60_000 + 1_000)
    const late = await t.get('/auth/v1/me', bearer(token))
    expect(late.status).toBe(401)
    expect(await late.json()).toMatchObject({ code: 'UNAUTHENTICATED' })
    expect((await t.get('/auth/v1/me', { cookie: `porthole_session=${token}` })).status).toBe(401)
  })

  test('a session used regularly stays alive past 24 hours, an idle one beside it does not, and none past 30 days from sign-in', async () => {
    const advance = freezeTime()
    t = await open()
    const used = await emailSignIn(t, smtp, 'busy@example.com', DEVICE_A)
    const idle = await emailSignIn(t, smtp, 'quiet@example.com', DEVICE_A)
    const hour = 60 * 60_000
    for (let at = 20; at <= 700; at += 20) {
      advance(20 * hour)
      expect((await t.get('/auth/v1/me', bearer(used.token))).status, `${at} h`).toBe(200)
      if (at === 40) expect((await t.get('/auth/v1/me', bearer(idle.token))).status).toBe(401)
    }
    // At 700 h: alive until 30 days (720 h) after the sign-in, however recently used.
    advance(20 * hour - 1_000)
    expect((await t.get('/auth/v1/me', bearer(used.token))).status).toBe(200)
    advance(2_000)
    expect((await t.get('/auth/v1/me', bearer(used.token))).status).toBe(401)
  })

  test('signing out on one device signs the user out on every other device too', async () => {
    const advance = freezeTime()
    t = await open()
    const email = 'two@example.com'
    const laptop = await emailSignIn(t, smtp, email, DEVICE_A)
    advance(31_000)
    const phone = await emailSignIn(t, smtp, email, DEVICE_B)
    const bystander = await emailSignIn(t, smtp, 'bystander@example.com', DEVICE_B)
    expect((await t.get('/auth/v1/me', bearer(phone.token))).status).toBe(200)
    // A made-up token signs nobody out.
    expect((await t.post('/auth/v1/logout', undefined, bearer('x'.repeat(43)))).status).toBe(204)
    expect((await t.get('/auth/v1/me', bearer(phone.token))).status).toBe(200)

    // Another site cannot sign the user out everywhere with the browser's cookie.
    const forged = await t.post('/auth/v1/logout', undefined, {
      cookie: `porthole_session=${laptop.token}`,
      origin: 'https://attacker.example',
    })
    expect(forged.status).toBe(403)
    expect(await forged.json()).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' })
    expect((await t.get('/auth/v1/me', bearer(phone.token))).status).toBe(200)

    const logout = await t.post('/auth/v1/logout', undefined, {
      cookie: `porthole_session=${laptop.token}`,
    })
    expect(logout.status).toBe(204)
    expect(logout.headers.get('set-cookie')).toMatch(/^porthole_session=; Max-Age=0;/)
    expect((await t.get('/auth/v1/me', bearer(laptop.token))).status).toBe(401)
    expect((await t.get('/auth/v1/me', bearer(phone.token))).status).toBe(401)
    expect((await t.get('/auth/v1/me', bearer(bystander.token))).status).toBe(200)
  })

  test('validates input, the project and the e-mail feature', async () => {
    t = await open()
    for (const body of [
      { email: 'not-an-email', deviceId: DEVICE_A },
      { email: 'a@b.c', deviceId: DEVICE_A },
      { email: 'ok@example.com', deviceId: 'x' },
      { email: 'ok@example.com' },
    ]) {
      const response = await t.post('/auth/v1/email/start', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'INVALID_REQUEST' })
    }
    const badCode = await t.post('/auth/v1/email/verify', {
      email: 'ok@example.com',
      deviceId: DEVICE_A,
      code: '12345',
    })
    expect(badCode.status).toBe(400)
    const unknown = await t.post('/auth/v1/email/start?projectId=nope', {
      email: 'ok@example.com',
      deviceId: DEVICE_A,
    })
    expect(unknown.status).toBe(403)
    expect(await unknown.json()).toMatchObject({ code: 'INVALID_PROJECT_ID' })
    await setProjectFeatures(t.db, { projectId: PROJECT_ID, features: { email: false } })
    const disabled = await t.post('/auth/v1/email/start', {
      email: 'ok@example.com',
      deviceId: DEVICE_A,
      site: SITE,
    })
    expect(disabled.status).toBe(403)
    expect(await disabled.json()).toMatchObject({ code: 'FEATURE_DISABLED' })
  })
})

describe('e-mail delivery', () => {
  test('an unreachable SMTP server answers 503 MAIL_UNAVAILABLE and does not start the cooldown', async () => {
    const reported: unknown[] = []
    t = await createTestApp(
      { auth: { smtpUrl: 'smtp://127.0.0.1:1' }, onError: (error) => reported.push(error) },
      { catalogue: false },
    )
    const body = { email: 'down@example.com', deviceId: DEVICE_A, site: SITE }
    for (let i = 0; i < 2; i++) {
      const response = await t.post('/auth/v1/email/start', body)
      expect(response.status).toBe(503)
      expect(await response.json()).toMatchObject({ code: 'MAIL_UNAVAILABLE' })
    }
    expect(reported).toHaveLength(2)
  })

  test('mail-sending requests have their own, stricter rate limit', async () => {
    t = await createTestApp(
      { auth: { smtpUrl: smtp.url, mailRateLimit: { ratePerSecond: 0.01, burst: 2 } } },
      { catalogue: false },
    )
    for (const email of ['r1@example.com', 'r2@example.com'])
      expect(
        (await t.post('/auth/v1/email/start', { email, deviceId: DEVICE_A, site: SITE })).status,
      ).toBe(200)
    const limited = await t.post('/auth/v1/email/start', {
      email: 'r3@example.com',
      deviceId: DEVICE_A,
      site: SITE,
    })
    expect(limited.status).toBe(429)
    expect(await limited.json()).toEqual({ code: 'RATE_LIMITED', message: 'Rate Limited' })
  })

  test('PORTHOLE_MAIL_FROM sets the sender', async () => {
    t = await createTestApp(
      { auth: { smtpUrl: smtp.url, mailFrom: 'Shop <login@shop.test>' } },
      { catalogue: false },
    )
    await t.post('/auth/v1/email/start', {
      email: 'from@example.com',
      deviceId: DEVICE_A,
      site: SITE,
    })
    expect((await smtp.last('from@example.com')).raw).toMatch(/^From: Shop <login@shop\.test>/m)
  })
})

describe('auth CORS', () => {
  const preflight = (origin: string) =>
    t.app.request(`/auth/v1/shares?projectId=${PROJECT_ID}`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, content-type',
      },
    })

  test('the wallet origin may send credentials (exact origin, never *)', async () => {
    t = await createTestApp({}, { catalogue: false })
    const ok = await preflight(WALLET_ORIGIN)
    expect(ok.status).toBe(204)
    expect(ok.headers.get('access-control-allow-origin')).toBe(WALLET_ORIGIN)
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true')
    expect(ok.headers.get('access-control-allow-methods')).toMatch(/PUT/)
    expect(ok.headers.get('access-control-allow-headers')).toMatch(/authorization/i)
    const response = await t.get('/auth/v1/me', { origin: WALLET_ORIGIN })
    expect(response.status).toBe(401)
    expect(response.headers.get('access-control-allow-origin')).toBe(WALLET_ORIGIN)
    expect(response.headers.get('access-control-allow-credentials')).toBe('true')
  })

  test('the modal origin gets CORS without credentials; other origins get neither', async () => {
    t = await createTestApp({}, { catalogue: false })
    const modal = await preflight(MODAL_ORIGIN)
    expect(modal.headers.get('access-control-allow-origin')).toBe(MODAL_ORIGIN)
    expect(modal.headers.get('access-control-allow-credentials')).toBeNull()
    const modalGet = await t.get('/auth/v1/me', { origin: MODAL_ORIGIN })
    expect(modalGet.headers.get('access-control-allow-credentials')).toBeNull()
    for (const origin of ['https://evil.test', 'http://localhost:4000']) {
      expect((await preflight(origin)).status).toBe(403)
      const response = await t.get('/auth/v1/me', { origin })
      expect(response.headers.get('access-control-allow-origin')).toBeNull()
      expect(response.headers.get('access-control-allow-credentials')).toBeNull()
    }
  })
})

// Issue 25 (THREATS.md question 3): a login code can be relayed — a phishing page starts a login
// for the victim's address and asks the victim for the code. The mail must name the site that
// asked (one the project allows, as the modal verified it) and the project, so a request from
// another site is recognisable; a site the project does not allow cannot start one.
describe('the code mail names who asks', () => {
  test('a site the project does not allow is refused (403) and no site is 400; no mail goes out', async () => {
    t = await createTestApp({ auth: { smtpUrl: smtp.url } }, { catalogue: false })
    const email = 'relayed@example.com'
    const foreign = await t.post('/auth/v1/email/start', {
      email,
      deviceId: DEVICE_A,
      site: 'https://evil.example',
    })
    expect(foreign.status).toBe(403)
    expect(await foreign.json()).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' })
    const none = await t.post('/auth/v1/email/start', { email, deviceId: DEVICE_A })
    expect(none.status).toBe(400)
    await expect(smtp.last(email)).rejects.toThrow('No mail')
  })

  test('the mail names the site and the project, in its subject and text', async () => {
    t = await createTestApp({ auth: { smtpUrl: smtp.url } }, { catalogue: false })
    const email = 'named@example.com'
    const start = await t.post('/auth/v1/email/start', {
      email,
      deviceId: DEVICE_A,
      site: 'https://pay.shop.test',
    })
    expect(start.status).toBe(200)
    const mail = await smtp.last(email)
    expect(mail.subject).toMatch(/^Your Porthole code for pay\.shop\.test is \d{6}$/)
    expect(mail.body).toContain('https://pay.shop.test')
    expect(mail.body).toContain(PROJECT_ID)
  })
})
