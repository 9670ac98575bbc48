/**
 * The recovery service attacked over real HTTP, with the real mail catcher and the real OpenID
 * provider (real ID tokens). The device keys and signatures are made here the way the wallet
 * frame makes them (WebCrypto), independently of the service's own helpers.
 */
import { createHash, generateKeyPairSync, webcrypto } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startMailCatcher } from '@porthole/mail'
import { signInAtProvider, startOidcProvider } from '@porthole/oidc'
import { calculateJwkThumbprint, exportJWK, SignJWT } from 'jose'
import * as client from 'openid-client'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { type StartRecoveryServiceParameters, startRecoveryService } from './index.js'

const WALLET = 'http://wallet.localhost:4200'
const RP_CALLBACK = 'http://rp.test/callback'
const SHARE = Buffer.from('a recovery share of 33 bytes!!!!!').toString('base64')
const SITE = 'https://shop.example'
const UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'
const IGNORE_LINE =
  'If this was not you, ignore this mail: nobody can use your wallet on a new device without this approval.'

type Issuer = { issuer: string; clientId: string }

let mail: Awaited<ReturnType<typeof startMailCatcher>>
let oidc: Awaited<ReturnType<typeof startOidcProvider<readonly ['google', 'github']>>>
let issuers: Issuer[]
const running: { close(): Promise<void> }[] = []

beforeAll(async () => {
  mail = await startMailCatcher({ httpPort: 0, smtpPort: 0 })
  oidc = await startOidcProvider({
    port: 0,
    providers: ['google', 'github'] as const,
    redirectUris: [RP_CALLBACK],
  })
  issuers = Object.values(oidc.clients).map(({ issuer, clientId }) => ({ issuer, clientId }))
})
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.close()))
})
afterAll(async () => {
  await mail.close()
  await oidc.close()
})

/** A device key as the wallet frame makes one: WebCrypto ECDSA P-256, raw r‖s signatures. */
async function deviceKey() {
  const pair = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  const { x, y } = (await webcrypto.subtle.exportKey('jwk', pair.publicKey)) as {
    x: string
    y: string
  }
  const publicJwk = { kty: 'EC' as const, crv: 'P-256' as const, x, y }
  const sign = async (binding: string, ciphertext: string) => {
    const digest = createHash('sha256').update(ciphertext, 'utf8').digest('base64url')
    const payload = `porthole-recovery:decrypt:v1\n${binding}\n${digest}`
    const signature = await webcrypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      pair.privateKey,
      new TextEncoder().encode(payload),
    )
    return Buffer.from(signature).toString('base64url')
  }
  return { publicJwk, nonce: await calculateJwkThumbprint(publicJwk, 'sha256'), sign }
}
type DeviceKey = Awaited<ReturnType<typeof deviceKey>>

/** A real ID token from the local OpenID provider for `login`, with `nonce` (plays the popup). */
async function idToken(nonce: string, login = 'alice', provider: 'google' | 'github' = 'google') {
  const { issuer, clientId, clientSecret } = oidc.clients[provider]
  const config = await client.discovery(new URL(issuer), clientId, clientSecret, undefined, {
    execute: [client.allowInsecureRequests],
  })
  const verifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const uri = client.buildAuthorizationUrl(config, {
    redirect_uri: RP_CALLBACK,
    scope: 'openid email',
    nonce,
    state,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  })
  const callback = await signInAtProvider(uri.href, login, RP_CALLBACK)
  const tokens = await client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
  })
  return tokens.id_token as string
}

type Options = {
  now?: () => number
  issuers?: Issuer[]
  trustProxy?: number
  /** Extra parameters (the old service took `apiUrl`). */
  extra?: Record<string, unknown>
}

/** The sites the projects allow, as the API would answer them: `SITE` for every project. */
const siteCheck = async (_projectId: string, site: string) => site === SITE

/** A running service with its own fresh data folder, mailing into the catcher. */
async function service(options: Options = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'recovery-'))
  const parameters: StartRecoveryServiceParameters & Record<string, unknown> = {
    port: 0,
    dataDir,
    keyFile: join(dataDir, 'recovery.key'),
    allowedOrigins: [WALLET],
    smtpUrl: mail.smtpUrl,
    issuers: options.issuers ?? issuers,
    siteCheck,
    ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...options.extra,
  }
  const started = await startRecoveryService(parameters)
  running.push(started)
  const origin = new URL(started.url).origin
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${started.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': UA, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Record<string, unknown>,
    }
  }
  const encrypt = async (owner: unknown, projectId = 'project-1', share = SHARE) => {
    const sealed = await post('/v1/recovery/encrypt', { projectId, owner, share })
    expect(sealed.status, JSON.stringify(sealed.body)).toBe(200)
    return sealed.body.ciphertext as string
  }
  const status = async (approvalId: string) =>
    (await post('/v1/recovery/approvals/status', { approvalId })).body.status
  /** Asks for an approval as the wallet frame would; returns its id and the mailed link. */
  const startApproval = async (email: string, key: DeviceKey, projectId = 'project-1') => {
    const since = mail.messages({ to: email }).length
    const started = await post(
      '/v1/recovery/approvals',
      { projectId, email, site: SITE, devicePublicKey: key.publicJwk },
      { origin: WALLET },
    )
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    const message = await mailTo(email, /new device/, since)
    const link = /(http:\/\/\S+\/v1\/device\/approve\?token=[\w-]+)/.exec(message.text)?.[1]
    if (!link) throw new Error(`No approval link in ${message.text}`)
    return {
      approvalId: started.body.approvalId as string,
      expiresAt: started.body.expiresAt as number,
      link,
      token: new URL(link).searchParams.get('token') as string,
      message,
    }
  }
  /** Posts the approval page's form with `origin` as the browser's Origin header. */
  const decide = (token: string, decision: string, formOrigin: string | null = origin) =>
    fetch(`${started.url}/v1/device/approve`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(formOrigin === null ? {} : { origin: formOrigin }),
      },
      body: new URLSearchParams({ token, decision }),
    })
  const decryptWithApproval = async (
    ciphertext: string,
    approvalId: string,
    key: DeviceKey,
    projectId = 'project-1',
  ) =>
    post('/v1/recovery/decrypt', {
      projectId,
      ciphertext,
      proof: { kind: 'email', approvalId, signature: await key.sign(approvalId, ciphertext) },
    })
  const decryptWithIdToken = async (
    ciphertext: string,
    token: string,
    signer: DeviceKey,
    publicKey = signer.publicJwk,
    projectId = 'project-1',
  ) =>
    post('/v1/recovery/decrypt', {
      projectId,
      site: SITE,
      ciphertext,
      proof: {
        kind: 'oidc',
        idToken: token,
        publicKey,
        signature: await signer.sign(signer.nonce, ciphertext),
      },
    })
  return {
    ...started,
    origin,
    dataDir,
    post,
    encrypt,
    status,
    startApproval,
    decide,
    decryptWithApproval,
    decryptWithIdToken,
  }
}

/** The first mail to `to` after the `since`-th whose subject matches (waits up to 5 s). */
async function mailTo(to: string, subject: RegExp, since = 0) {
  for (let i = 0; i < 50; i++) {
    // The catcher lists the newest first.
    const found = mail
      .messages({ to })
      .reverse()
      .slice(since)
      .find((m) => subject.test(m.subject))
    if (found) return found
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`No mail to ${to} matching ${subject}`)
}

const fresh = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 8)}@example.com`

describe('what the API alone holds gets no share out', () => {
  test('a recovery ticket signed with the API’s key (the old scheme) seals and opens nothing; the API’s keys are never fetched', async () => {
    // The API as it was: an Ed25519 ticket key, published at /auth/v1/jwks.json.
    const { privateKey, publicKey } = generateKeyPairSync('ed25519')
    const jwk = { ...(await exportJWK(publicKey)), kid: 'api-1', alg: 'EdDSA', use: 'sig' }
    let fetched = 0
    const api = createServer((_, response) => {
      fetched += 1
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify({ keys: [jwk] }))
    })
    await new Promise<void>((done) => api.listen(0, '127.0.0.1', done))
    const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`
    const before = process.env.PORTHOLE_API_URL
    process.env.PORTHOLE_API_URL = apiUrl
    try {
      const s = await service({ extra: { apiUrl } })
      const ticket = await new SignJWT({ pid: 'project-1' })
        .setProtectedHeader({ alg: 'EdDSA', kid: 'api-1' })
        .setSubject('user-1')
        .setAudience('porthole-recovery')
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey)
      const sealed = await s.post('/v1/recovery/encrypt', { ticket, share: SHARE })
      expect(sealed).toMatchObject({ status: 400, body: { code: 'TICKET_NOT_ACCEPTED' } })
      // The ciphertext from the API's database row, with the ticket: nothing.
      const email = fresh('ticket')
      const ciphertext = await s.encrypt({ kind: 'email', email })
      for (const body of [
        { ticket, ciphertext },
        { projectId: 'project-1', ticket, ciphertext },
        { projectId: 'project-1', ciphertext, ticket, proof: { kind: 'ticket', ticket } },
      ]) {
        const opened = await s.post('/v1/recovery/decrypt', body)
        expect(opened.status).toBe(400)
        expect(opened.body.code).toBe('TICKET_NOT_ACCEPTED')
        expect(JSON.stringify(opened.body)).not.toContain(SHARE)
      }
      expect(fetched).toBe(0)
    } finally {
      if (before === undefined) delete process.env.PORTHOLE_API_URL
      else process.env.PORTHOLE_API_URL = before
      await new Promise((done) => api.close(done))
    }
  })

  test('the API’s session, its database row and the ID token it saw at the login open nothing', async () => {
    const s = await service()
    // E-mail user: the API knows the address and holds the ciphertext. It asks for an approval
    // with a key of its own; the owner gets a mail, and nothing opens without their click.
    const email = fresh('victim')
    const ciphertext = await s.encrypt({ kind: 'email', email })
    const apiKey = await deviceKey()
    const { approvalId } = await s.startApproval(email, apiKey)
    expect(await s.decryptWithApproval(ciphertext, approvalId, apiKey)).toMatchObject({
      status: 403,
      body: { code: 'NOT_APPROVED' },
    })
    // Social user: the API exchanged the code, so it saw the ID token; its nonce names the
    // frame's key, which the API does not hold.
    const frame = await deviceKey()
    const token = await idToken(frame.nonce, 'carol')
    const sealed = await s.encrypt({ kind: 'oidc', idToken: token })
    const withOwnKey = await s.decryptWithIdToken(sealed, token, apiKey)
    expect(withOwnKey).toMatchObject({ status: 403, body: { code: 'INVALID_PROOF' } })
    // Nor can it claim the frame's public key: it cannot sign for it.
    const claimed = await s.decryptWithIdToken(sealed, token, apiKey, frame.publicJwk)
    expect(claimed).toMatchObject({ status: 403, body: { code: 'INVALID_PROOF' } })
    // Nor mint a token of its own for the user, bound to its key.
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const minted = await new SignJWT({ nonce: apiKey.nonce, email: 'carol@example.test' })
      .setProtectedHeader({ alg: 'RS256', kid: 'api' })
      .setIssuer(oidc.clients.google.issuer)
      .setAudience(oidc.clients.google.clientId)
      .setSubject('carol')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey)
    expect((await s.decryptWithIdToken(sealed, minted, apiKey)).body).toMatchObject({
      code: 'INVALID_ID_TOKEN',
      reason: 'signature',
    })
  })
})

describe('the device link of an e-mail approval', () => {
  test('the approval mail names the site, browser, system, IP and time, and says what to do if it was not you', async () => {
    const s = await service()
    const email = fresh('mail')
    const { message, link } = await s.startApproval(email, await deviceKey())
    expect(message.subject).toBe('Approve a new device for your Porthole wallet')
    for (const part of [
      `Site: ${SITE}`,
      'Chrome 156',
      'Linux',
      'IP address: 127.0.0.1',
      `Time: ${new Date().toUTCString().slice(0, 16)}`,
      IGNORE_LINE,
    ])
      expect(message.text).toContain(part)
    expect(new URL(link).origin).toBe(s.origin)
    expect(new URL(link).pathname).toBe('/v1/device/approve')
    expect(new URL(link).searchParams.get('token')).toMatch(/^[\w-]{43}$/)
  })

  // Issue 25 (the audit): a stranger could have the service mail any address a request naming
  // any site it claimed, a ready-made phishing mail from the real sender.
  test('an approval naming a site the project does not allow is refused (403) and mails nothing', async () => {
    const s = await service()
    const email = fresh('claimed')
    const key = await deviceKey()
    const refused = await s.post(
      '/v1/recovery/approvals',
      {
        projectId: 'project-1',
        email,
        site: 'https://evil.example',
        devicePublicKey: key.publicJwk,
      },
      { origin: WALLET },
    )
    expect(refused).toMatchObject({ status: 403, body: { code: 'SITE_NOT_ALLOWED' } })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(mail.messages({ to: email })).toHaveLength(0)
  })

  test('behind a proxy, the mail names the address the proxy saw, not one the client wrote', async () => {
    const s = await service({ trustProxy: 1 })
    const email = fresh('proxy')
    const since = mail.messages({ to: email }).length
    const started = await s.post(
      '/v1/recovery/approvals',
      { projectId: 'project-1', email, site: SITE, devicePublicKey: (await deviceKey()).publicJwk },
      { 'x-forwarded-for': '198.51.100.66, 203.0.113.9' },
    )
    expect(started.status).toBe(200)
    const message = await mailTo(email, /new device/, since)
    expect(message.text).toContain('IP address: 203.0.113.9')
    expect(message.text).not.toContain('198.51.100.66')
  })

  test('opening the link, again and again (a mail scanner), shows who asks and approves nothing', async () => {
    const s = await service()
    const email = fresh('scan')
    const { approvalId, link } = await s.startApproval(email, await deviceKey())
    for (let i = 0; i < 3; i++) {
      const shown = await fetch(link)
      expect(shown.status).toBe(200)
      expect(shown.headers.get('content-security-policy')).toMatch(
        /^default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'/,
      )
      // `same-origin`, not `no-referrer`: with `no-referrer` browsers post the form with
      // `Origin: null`, and the owner could never approve.
      expect(shown.headers.get('referrer-policy')).toBe('same-origin')
      expect(shown.headers.get('cache-control')).toBe('no-store')
      const html = await shown.text()
      for (const part of [SITE, 'Chrome 156 on Linux', '127.0.0.1', email, 'Approve', 'Deny'])
        expect(html).toContain(part)
      expect(html).toMatch(/<form method="post">/)
      expect(html).not.toMatch(/<script/i)
    }
    expect(await s.status(approvalId)).toBe('pending')
  })

  test('a form post without Origin or from another origin is refused; the page’s own post approves, once', async () => {
    const s = await service()
    const email = fresh('origin')
    const { approvalId, token } = await s.startApproval(email, await deviceKey())
    for (const origin of [
      null,
      'null',
      'https://evil.example',
      WALLET,
      `${s.origin}.evil.example`,
    ]) {
      const refused = await s.decide(token, 'approve', origin)
      expect(refused.status).toBe(403)
      expect(await refused.text()).toContain('Not allowed')
    }
    expect(await s.status(approvalId)).toBe('pending')
    const approved = await s.decide(token, 'approve')
    expect(approved.status).toBe(200)
    expect(await approved.text()).toContain('Device approved')
    expect(await s.status(approvalId)).toBe('approved')
    const again = await s.decide(token, 'deny')
    expect(again.status).toBe(400)
    expect(await again.text()).toContain('Link expired')
    expect(await s.status(approvalId)).toBe('approved')
  })

  test('deny refuses the device for good', async () => {
    const s = await service()
    const email = fresh('deny')
    const ciphertext = await s.encrypt({ kind: 'email', email })
    const key = await deviceKey()
    const { approvalId, token, link } = await s.startApproval(email, key)
    const denied = await s.decide(token, 'deny')
    expect(denied.status).toBe(200)
    expect(await denied.text()).toContain('Device denied')
    expect(await s.status(approvalId)).toBe('denied')
    expect((await s.decide(token, 'approve')).status).toBe(400)
    expect((await fetch(link)).status).toBe(400)
    expect(await s.decryptWithApproval(ciphertext, approvalId, key)).toMatchObject({
      status: 403,
      body: { code: 'NOT_APPROVED' },
    })
  })

  test('an expired link approves nothing and says so', async () => {
    let ahead = 0
    const s = await service({ now: () => Date.now() + ahead })
    const email = fresh('late')
    const { approvalId, token, link, expiresAt } = await s.startApproval(email, await deviceKey())
    expect(expiresAt - Date.now()).toBeGreaterThan(14 * 60_000)
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(15 * 60_000)
    ahead = 15 * 60_000 + 1000
    const shown = await fetch(link)
    expect(shown.status).toBe(400)
    expect(await shown.text()).toContain('Link expired')
    const posted = await s.decide(token, 'approve')
    expect(posted.status).toBe(400)
    expect(await posted.text()).toContain('Link expired')
    expect(await s.status(approvalId)).toBe('expired')
    // Unknown and malformed tokens look the same.
    expect((await s.decide('x'.repeat(43), 'approve')).status).toBe(400)
    expect((await fetch(`${s.url}/v1/device/approve?token=<b>`)).status).toBe(400)
  })

  test('one approval mail per project and e-mail every 30 s', async () => {
    let ahead = 0
    const s = await service({ now: () => Date.now() + ahead })
    const email = fresh('cooldown')
    const key = await deviceKey()
    await s.startApproval(email, key)
    const body = { projectId: 'project-1', email, site: SITE, devicePublicKey: key.publicJwk }
    const again = await s.post('/v1/recovery/approvals', body)
    expect(again).toMatchObject({
      status: 429,
      body: { code: 'COOLDOWN', message: 'Please try again after 30 seconds', retryAfter: 30 },
    })
    expect(again.headers.get('retry-after')).toBe('30')
    // Another project is another cooldown; after 30 s the same one may mail again.
    expect(
      (await s.post('/v1/recovery/approvals', { ...body, projectId: 'project-2' })).status,
    ).toBe(200)
    ahead = 31_000
    expect((await s.post('/v1/recovery/approvals', body)).status).toBe(200)
  })
})

describe('decrypt with an e-mail approval', () => {
  test('the approved device opens its owner’s share once, and the owner is told', async () => {
    const s = await service()
    const email = fresh('ada')
    // The address is one identity whatever its case.
    const ciphertext = await s.encrypt({ kind: 'email', email: email.toUpperCase() })
    expect(ciphertext).not.toContain(SHARE)
    const key = await deviceKey()
    const { approvalId, token } = await s.startApproval(email, key)
    await s.decide(token, 'approve')
    const since = mail.messages({ to: email }).length
    expect(await s.decryptWithApproval(ciphertext, approvalId, key)).toMatchObject({
      status: 200,
      body: { share: SHARE },
    })
    const notice = await mailTo(
      email,
      /^Your Porthole wallet was recovered on a new device$/,
      since,
    )
    for (const part of [`Site: ${SITE}`, 'Chrome 156 on Linux', 'IP address: 127.0.0.1', 'Time: '])
      expect(notice.text).toContain(part)
    expect(await s.status(approvalId)).toBe('used')
    expect(await s.decryptWithApproval(ciphertext, approvalId, key)).toMatchObject({
      status: 403,
      body: { code: 'NOT_APPROVED', message: 'The device approval is used' },
    })
  })

  test('refused: pending, another key’s signature, a signature over another ciphertext, another e-mail’s or project’s ciphertext, another project’s approval, an expired approval', async () => {
    let ahead = 0
    const s = await service({ now: () => Date.now() + ahead })
    const email = fresh('bob')
    const ciphertext = await s.encrypt({ kind: 'email', email })
    const second = await s.encrypt({ kind: 'email', email })
    const key = await deviceKey()
    const { approvalId, token } = await s.startApproval(email, key)
    expect((await s.decryptWithApproval(ciphertext, approvalId, key)).body).toMatchObject({
      code: 'NOT_APPROVED',
      message: 'The device approval is pending',
    })
    await s.decide(token, 'approve')

    const other = await deviceKey()
    expect(await s.decryptWithApproval(ciphertext, approvalId, other)).toMatchObject({
      status: 403,
      body: { code: 'INVALID_PROOF' },
    })
    // A signature seen for one ciphertext, replayed for another of the same owner.
    const replayed = await s.post('/v1/recovery/decrypt', {
      projectId: 'project-1',
      ciphertext: second,
      proof: { kind: 'email', approvalId, signature: await key.sign(approvalId, ciphertext) },
    })
    expect(replayed).toMatchObject({ status: 403, body: { code: 'INVALID_PROOF' } })
    const eve = await s.encrypt({ kind: 'email', email: fresh('eve') })
    expect(await s.decryptWithApproval(eve, approvalId, key)).toMatchObject({
      status: 400,
      body: { code: 'DECRYPT_FAILED' },
    })
    const otherProject = await s.encrypt({ kind: 'email', email }, 'project-2')
    expect(await s.decryptWithApproval(otherProject, approvalId, key)).toMatchObject({
      status: 400,
      body: { code: 'DECRYPT_FAILED' },
    })
    expect(await s.decryptWithApproval(otherProject, approvalId, key, 'project-2')).toMatchObject({
      status: 404,
      body: { code: 'UNKNOWN_APPROVAL' },
    })
    expect(
      (await s.post('/v1/recovery/approvals/status', { projectId: 'project-2', approvalId }))
        .status,
    ).toBe(404)
    // None of the refusals used the approval up; it expires unused.
    expect(await s.status(approvalId)).toBe('approved')
    ahead = 15 * 60_000 + 1000
    expect(await s.status(approvalId)).toBe('expired')
    expect((await s.decryptWithApproval(ciphertext, approvalId, key)).body).toMatchObject({
      code: 'NOT_APPROVED',
      message: 'The device approval is expired',
    })
  })
})

describe('decrypt with an ID token', () => {
  test('a fresh token whose nonce is the key’s thumbprint opens the share once, and the owner is told', async () => {
    const s = await service()
    const key = await deviceKey()
    const token = await idToken(key.nonce, 'dave')
    const ciphertext = await s.encrypt({ kind: 'oidc', idToken: token })
    const since = mail.messages({ to: 'dave@example.test' }).length
    expect(await s.decryptWithIdToken(ciphertext, token, key)).toMatchObject({
      status: 200,
      body: { share: SHARE },
    })
    const notice = await mailTo('dave@example.test', /recovered on a new device/, since)
    expect(notice.text).toContain(`Site: ${SITE}`)
    expect(notice.text).toContain('Chrome 156 on Linux')
    expect(notice.text).toContain('IP address: 127.0.0.1')
    expect(await s.decryptWithIdToken(ciphertext, token, key)).toMatchObject({
      status: 403,
      body: { code: 'TOKEN_USED' },
    })
  })

  test('refused: a forged, expired or stale token, a nonce of another key, another key’s signature, another user’s token — and none of these uses the good one up', async () => {
    let ahead = 0
    const s = await service({ now: () => Date.now() + ahead })
    const key = await deviceKey()
    const token = await idToken(key.nonce, 'erin')
    const ciphertext = await s.encrypt({ kind: 'oidc', idToken: token })

    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const forged = await new SignJWT({ nonce: key.nonce })
      .setProtectedHeader({ alg: 'RS256', kid: 'forged' })
      .setIssuer(oidc.clients.google.issuer)
      .setAudience(oidc.clients.google.clientId)
      .setSubject('erin@example.test')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey)
    expect(await s.decryptWithIdToken(ciphertext, forged, key)).toMatchObject({
      status: 401,
      body: { code: 'INVALID_ID_TOKEN', reason: 'signature' },
    })
    // The provider's real key id on a token signed by another key.
    const kid = JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString()).kid
    const forgedKid = await new SignJWT({ nonce: key.nonce })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(oidc.clients.google.issuer)
      .setAudience(oidc.clients.google.clientId)
      .setSubject('erin@example.test')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey)
    expect((await s.decryptWithIdToken(ciphertext, forgedKid, key)).body).toMatchObject({
      code: 'INVALID_ID_TOKEN',
      reason: 'signature',
    })
    // The real token with its payload edited (another subject): the signature no longer holds.
    const [head, payload, signature] = token.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString())
    const edited = `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: 'mallory' })).toString('base64url')}.${signature}`
    expect((await s.decryptWithIdToken(ciphertext, edited, key)).body).toMatchObject({
      code: 'INVALID_ID_TOKEN',
      reason: 'signature',
    })

    const other = await deviceKey()
    expect(await s.decryptWithIdToken(ciphertext, token, other)).toMatchObject({
      status: 403,
      body: { code: 'INVALID_PROOF', message: 'The ID token was not issued for this device key' },
    })
    // The right public key, signed by another.
    const signedByOther = await s.post('/v1/recovery/decrypt', {
      projectId: 'project-1',
      ciphertext,
      proof: {
        kind: 'oidc',
        idToken: token,
        publicKey: key.publicJwk,
        signature: await other.sign(key.nonce, ciphertext),
      },
    })
    expect(signedByOther).toMatchObject({ status: 403, body: { code: 'INVALID_PROOF' } })
    // Another user's good token cannot open erin's share, nor can erin's open in another project.
    const mallory = await deviceKey()
    const malloryToken = await idToken(mallory.nonce, 'mallory')
    expect(await s.decryptWithIdToken(ciphertext, malloryToken, mallory)).toMatchObject({
      status: 400,
      body: { code: 'DECRYPT_FAILED' },
    })
    expect(
      await s.decryptWithIdToken(ciphertext, token, key, key.publicJwk, 'project-2'),
    ).toMatchObject({ status: 400, body: { code: 'DECRYPT_FAILED' } })

    // Stale (a login more than 10 minutes ago), then expired (the provider's 1 h).
    const staleKey = await deviceKey()
    const stale = await idToken(staleKey.nonce, 'erin')
    ahead = 11 * 60_000
    expect((await s.decryptWithIdToken(ciphertext, stale, staleKey)).body).toMatchObject({
      code: 'INVALID_ID_TOKEN',
      reason: 'stale',
    })
    ahead = 2 * 60 * 60_000
    expect((await s.decryptWithIdToken(ciphertext, stale, staleKey)).body).toMatchObject({
      code: 'INVALID_ID_TOKEN',
      reason: 'expired',
    })

    ahead = 0
    expect(await s.decryptWithIdToken(ciphertext, token, key)).toMatchObject({
      status: 200,
      body: { share: SHARE },
    })
  })

  test('refused: a token issued to another client, and one from an issuer not trusted here', async () => {
    const google = oidc.clients.google
    const s = await service({ issuers: [{ issuer: google.issuer, clientId: 'another-app' }] })
    const key = await deviceKey()
    const token = await idToken(key.nonce, 'frank')
    const refused = await s.post('/v1/recovery/encrypt', {
      projectId: 'project-1',
      owner: { kind: 'oidc', idToken: token },
      share: SHARE,
    })
    expect(refused).toMatchObject({
      status: 401,
      body: { code: 'INVALID_ID_TOKEN', reason: 'audience' },
    })
    const trusting = await service()
    const ciphertext = await trusting.encrypt({ kind: 'oidc', idToken: token })
    expect((await s.decryptWithIdToken(ciphertext, token, key)).body).toMatchObject({
      code: 'INVALID_ID_TOKEN',
      reason: 'audience',
    })
    const github = await idToken(key.nonce, 'frank', 'github')
    expect((await s.decryptWithIdToken(ciphertext, github, key)).body).toMatchObject({
      code: 'INVALID_ID_TOKEN',
      reason: 'issuer',
    })
  })
})

describe('requests', () => {
  test('CORS answers the wallet origin only; every answer is no-store; bodies are checked and capped at 16 KiB', async () => {
    const s = await service()
    const preflight = (origin: string) =>
      fetch(`${s.url}/v1/recovery/decrypt`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      })
    const allowed = await preflight(WALLET)
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get('access-control-allow-origin')).toBe(WALLET)
    const denied = await preflight('https://evil.example')
    expect(denied.status).toBe(403)
    expect(denied.headers.get('access-control-allow-origin')).toBeNull()
    const foreign = await s.post(
      '/v1/recovery/encrypt',
      { projectId: 'project-1', owner: { kind: 'email', email: 'a@b.test' }, share: SHARE },
      { origin: 'https://evil.example' },
    )
    expect(foreign).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } })
    expect(foreign.headers.get('cache-control')).toBe('no-store')

    const invalid = await s.post('/v1/recovery/encrypt', {
      projectId: 'project-1',
      owner: { kind: 'email', email: 'not an address' },
      share: SHARE,
    })
    expect(invalid).toMatchObject({ status: 400, body: { code: 'INVALID_BODY' } })
    expect(invalid.body.message).toMatch(/owner\.email/)
    expect((await s.post('/v1/recovery/decrypt', '{')).body.code).toBe('INVALID_BODY')
    const big = await s.post('/v1/recovery/decrypt', { padding: 'x'.repeat(17 * 1024) })
    expect(big).toMatchObject({ status: 413, body: { code: 'BODY_TOO_LARGE' } })
    const tooLong = await s.post('/v1/recovery/encrypt', {
      projectId: 'project-1',
      owner: { kind: 'email', email: 'a@b.test' },
      share: 'A'.repeat(4100),
    })
    expect(tooLong).toMatchObject({ status: 400, body: { code: 'INVALID_BODY' } })
    const health = await fetch(`${s.url}/health`)
    expect(await health.json()).toEqual({ ok: true })
  })

  test('the largest share (4096 base64 characters) seals and opens', async () => {
    const s = await service()
    const email = fresh('large')
    const share = Buffer.alloc(3072, 7).toString('base64')
    expect(share).toHaveLength(4096)
    const ciphertext = await s.encrypt({ kind: 'email', email }, 'project-1', share)
    const key = await deviceKey()
    const { approvalId, token } = await s.startApproval(email, key)
    await s.decide(token, 'approve')
    expect(await s.decryptWithApproval(ciphertext, approvalId, key)).toMatchObject({
      status: 200,
      body: { share },
    })
  })

  test('a version 1 ciphertext is refused with a clear error', async () => {
    const s = await service()
    const ciphertext = Buffer.from(await s.encrypt({ kind: 'email', email: fresh('v1') }), 'base64')
    ciphertext[0] = 1
    const key = await deviceKey()
    const old = await s.decryptWithApproval(ciphertext.toString('base64'), 'a'.repeat(43), key)
    expect(old).toMatchObject({ status: 400, body: { code: 'UNSUPPORTED_CIPHERTEXT' } })
    expect(old.body.message).toMatch(/older scheme \(version 1\)/)
  })
})

describe('its own data folder', () => {
  test('creates its key there with mode 0600 and keeps it across restarts', async () => {
    const s = await service()
    const file = join(s.dataDir, 'recovery.key')
    const key = readFileSync(file, 'utf8')
    expect(key).toMatch(/^[0-9a-f]{64}\n$/)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    await s.close()
    const again = await startRecoveryService({ port: 0, dataDir: s.dataDir, issuers })
    running.push(again)
    expect(readFileSync(file, 'utf8')).toBe(key)
  })

  test('refuses to start beside the API’s keys or a database, naming the file', async () => {
    for (const file of ['api-share.key', 'api-signing.jwk', 'porthole.db', 'relay.db-wal']) {
      const dataDir = mkdtempSync(join(tmpdir(), 'recovery-'))
      writeFileSync(join(dataDir, file), 'x')
      await expect(startRecoveryService({ port: 0, dataDir, issuers })).rejects.toThrow(file)
      expect(existsSync(join(dataDir, 'recovery.key'))).toBe(false)
    }
  })

  test('refuses a key file in a folder that holds the API’s keys, even with a clean data folder', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'recovery-'))
    const apiDir = mkdtempSync(join(tmpdir(), 'api-'))
    writeFileSync(join(apiDir, 'api-signing.jwk'), '{}')
    await expect(
      startRecoveryService({ port: 0, dataDir, keyFile: join(apiDir, 'recovery.key'), issuers }),
    ).rejects.toThrow(/api-signing\.jwk/)
    expect(existsSync(join(apiDir, 'recovery.key'))).toBe(false)
  })

  test('refuses the API’s own folder, .data, by name', async () => {
    const apiData = resolve(import.meta.dirname, '../../../.data')
    await expect(
      startRecoveryService({ port: 0, dataDir: apiData, masterKey: new Uint8Array(32), issuers }),
    ).rejects.toThrow(/API's data folder/)
  })
})

describe('production mode', () => {
  test('refuses to start on local defaults, listing every one, before it writes anything', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'recovery-')), 'data')
    const refused = startRecoveryService({
      production: true,
      port: 0,
      dataDir,
      allowedOrigins: [WALLET],
      smtpUrl: mail.smtpUrl,
      issuers,
    })
    await expect(refused).rejects.toThrow(/PORTHOLE_ENV=production/)
    const { problems } = (await refused.catch((error) => error)) as { problems: string[] }
    const text = problems.join('\n')
    expect(text).toMatch(/PORTHOLE_RECOVERY_URL is http:/)
    expect(text).toMatch(/wallet origin http:\/\/wallet\.localhost:4200/)
    expect(text).toMatch(/the local mail catcher/)
    expect(text).toMatch(/PORTHOLE_RECOVERY_MAIL_FROM/)
    expect(text).toContain(`The identity provider ${oidc.clients.google.issuer}`)
    expect(text).toContain(`The identity provider ${oidc.clients.github.issuer}`)
    expect(existsSync(dataDir)).toBe(false)
  })

  test('PORTHOLE_ENV=production in the environment is enough, and the key file in the repository is named', async () => {
    const before = process.env.PORTHOLE_ENV
    process.env.PORTHOLE_ENV = 'production'
    try {
      await expect(startRecoveryService()).rejects.toThrow(
        /master key file .*\.recovery-data\/recovery\.key is inside the repository/,
      )
    } finally {
      if (before === undefined) delete process.env.PORTHOLE_ENV
      else process.env.PORTHOLE_ENV = before
    }
  })
})
