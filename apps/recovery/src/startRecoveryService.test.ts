import { generateKeyPairSync, webcrypto } from 'node:crypto'
import { mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startMailCatcher } from '@porthole/mail'
import { signInAtProvider, startOidcProvider } from '@porthole/oidc'
import { SignJWT } from 'jose'
import * as client from 'openid-client'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { productionProblems, resolveRecoveryConfig } from './config.js'
import {
  decryptPayload,
  ForeignSecretError,
  startRecoveryService,
  type TrustedIssuer,
  thumbprint,
} from './index.js'

const WALLET = 'http://wallet.localhost:4200'
const RP_CALLBACK = 'http://rp.test/callback'
const SHARE = Buffer.from('a recovery share of 33 bytes!!!!!').toString('base64')
const SITE = 'https://shop.example'
const UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'

let mail: Awaited<ReturnType<typeof startMailCatcher>>
let oidc: Awaited<ReturnType<typeof startOidcProvider<readonly ['google', 'github']>>>
let issuers: TrustedIssuer[]

beforeAll(async () => {
  mail = await startMailCatcher({ httpPort: 0, smtpPort: 0 })
  oidc = await startOidcProvider({
    port: 0,
    providers: ['google', 'github'] as const,
    redirectUris: [RP_CALLBACK],
  })
  issuers = Object.values(oidc.clients).map(({ issuer, clientId }) => ({ issuer, clientId }))
})
afterAll(async () => {
  await mail.close()
  await oidc.close()
})

/** A device key as the wallet frame makes one (WebCrypto P-256). */
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
  return {
    publicJwk,
    nonce: thumbprint(publicJwk),
    sign: async (binding: string, ciphertext: string) =>
      Buffer.from(
        await webcrypto.subtle.sign(
          { name: 'ECDSA', hash: 'SHA-256' },
          pair.privateKey,
          new TextEncoder().encode(decryptPayload(binding, ciphertext)),
        ),
      ).toString('base64url'),
  }
}

/** A real ID token from the local OpenID provider for `login`, with `nonce`. */
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

async function service(options: { now?: () => number; issuers?: TrustedIssuer[] } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'recovery-'))
  const running = await startRecoveryService({
    port: 0,
    dataDir,
    allowedOrigins: [WALLET],
    smtpUrl: mail.smtpUrl,
    issuers: options.issuers ?? issuers,
    ...(options.now ? { now: options.now } : {}),
  })
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${running.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': UA, ...headers },
      body: JSON.stringify(body),
    })
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Record<string, unknown>,
    }
  }
  const encrypt = async (owner: unknown, projectId = 'project-1') =>
    (await post('/v1/recovery/encrypt', { projectId, owner, share: SHARE })).body
      .ciphertext as string
  return { ...running, dataDir, post, encrypt }
}

/** The newest mail to `to` whose subject matches (waits up to 5 s). */
async function mailTo(to: string, subject: RegExp) {
  for (let i = 0; i < 50; i++) {
    const found = mail.messages({ to }).find((m) => subject.test(m.subject))
    if (found) return found
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`No mail to ${to} matching ${subject}`)
}

const fresh = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 8)}@example.com`

describe('e-mail users: the service mails its own approval and checks it itself', () => {
  test('GET shows who asks and approves nothing; only the page’s own POST approves; the decrypt needs the device key, once; the owner is mailed', async () => {
    const s = await service()
    try {
      const email = fresh('ada')
      const ciphertext = await s.encrypt({ kind: 'email', email: email.toUpperCase() })
      expect(ciphertext).not.toContain(SHARE)
      const key = await deviceKey()
      const started = await s.post(
        '/v1/recovery/approvals',
        { projectId: 'project-1', email, site: SITE, devicePublicKey: key.publicJwk },
        { origin: WALLET },
      )
      expect(started.status).toBe(200)
      expect(started.headers.get('access-control-allow-origin')).toBe(WALLET)
      const approvalId = started.body.approvalId as string
      const approvalMail = await mailTo(email, /^Approve a new device for your Porthole wallet$/)
      for (const part of [SITE, 'Chrome 156 on Linux', '127.0.0.1', 'nobody can use your wallet'])
        expect(approvalMail.text).toContain(part)
      const link = /(http:\/\/\S+\/v1\/device\/approve\?token=[\w-]+)/.exec(approvalMail.text)?.[1]
      expect(link).toBeTruthy()

      const status = async () =>
        (await s.post('/v1/recovery/approvals/status', { projectId: 'project-1', approvalId })).body
          .status
      const decrypt = async (signWith = key, id = approvalId, ct = ciphertext) =>
        s.post('/v1/recovery/decrypt', {
          projectId: 'project-1',
          ciphertext: ct,
          proof: { kind: 'email', approvalId: id, signature: await signWith.sign(id, ct) },
        })

      // A mail scanner opens the link, again and again: nothing is approved.
      for (let i = 0; i < 3; i++) {
        const shown = await fetch(link as string)
        expect(shown.status).toBe(200)
        expect(shown.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/)
        const html = await shown.text()
        for (const part of [SITE, 'Chrome 156 on Linux', '127.0.0.1', 'Approve', 'Deny'])
          expect(html).toContain(part)
      }
      expect(await status()).toBe('pending')
      expect(await decrypt()).toMatchObject({ status: 403, body: { code: 'NOT_APPROVED' } })

      // A POST from anywhere but the page itself is refused.
      const token = new URL(link as string).searchParams.get('token') as string
      const form = (origin?: string, decision = 'approve') =>
        fetch(link as string, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            ...(origin ? { origin } : {}),
          },
          body: new URLSearchParams({ token, decision }),
        })
      expect((await form()).status).toBe(403)
      expect((await form('https://evil.example')).status).toBe(403)
      expect((await form(WALLET)).status).toBe(403)
      expect(await status()).toBe('pending')
      const approved = await form(new URL(s.url).origin)
      expect(approved.status).toBe(200)
      expect(await approved.text()).toContain('approved')
      expect(await status()).toBe('approved')
      expect((await form(new URL(s.url).origin)).status).toBe(400)

      // Approved, but signed by another key: refused. Another e-mail's ciphertext: refused.
      expect(await decrypt(await deviceKey())).toMatchObject({
        status: 403,
        body: { code: 'INVALID_PROOF' },
      })
      const other = await s.encrypt({ kind: 'email', email: fresh('eve') })
      expect(await decrypt(key, approvalId, other)).toMatchObject({
        status: 400,
        body: { code: 'DECRYPT_FAILED' },
      })
      const opened = await decrypt()
      expect(opened).toMatchObject({ status: 200, body: { share: SHARE } })
      expect(await status()).toBe('used')
      expect(await decrypt()).toMatchObject({ status: 403, body: { code: 'NOT_APPROVED' } })
      const notice = await mailTo(email, /^Your Porthole wallet was recovered on a new device$/)
      expect(notice.text).toContain(SITE)
      expect(notice.text).toContain('127.0.0.1')
    } finally {
      await s.close()
    }
  })

  test('a denied, expired or other-project approval opens nothing; one approval mail per 30 s', async () => {
    let time = Date.UTC(2030, 0, 1)
    const s = await service({ now: () => time })
    try {
      const email = fresh('deny')
      const ciphertext = await s.encrypt({ kind: 'email', email })
      const key = await deviceKey()
      const start = () =>
        s.post('/v1/recovery/approvals', {
          projectId: 'project-1',
          email,
          site: SITE,
          devicePublicKey: key.publicJwk,
        })
      const first = await start()
      const again = await start()
      expect(again).toMatchObject({
        status: 429,
        body: { code: 'COOLDOWN', message: 'Please try again after 30 seconds', retryAfter: 30 },
      })
      const link = /(http:\/\/\S+token=[\w-]+)/.exec(
        (await mailTo(email, /^Approve a new device/)).text,
      )?.[1] as string
      const denied = await fetch(link, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: new URL(s.url).origin,
        },
        body: new URLSearchParams({
          token: new URL(link).searchParams.get('token') as string,
          decision: 'deny',
        }),
      })
      expect(await denied.text()).toContain('denied')
      const id = first.body.approvalId as string
      const signature = await key.sign(id, ciphertext)
      const decrypt = (projectId = 'project-1') =>
        s.post('/v1/recovery/decrypt', {
          projectId,
          ciphertext,
          proof: { kind: 'email', approvalId: id, signature },
        })
      expect((await decrypt()).body).toMatchObject({ code: 'NOT_APPROVED' })
      expect((await decrypt('project-2')).status).toBe(404)

      time += 31_000
      const second = await start()
      expect(second.status).toBe(200)
      time += 16 * 60_000
      const expired = await s.post('/v1/recovery/approvals/status', {
        projectId: 'project-1',
        approvalId: second.body.approvalId,
      })
      expect(expired.body.status).toBe('expired')
    } finally {
      await s.close()
    }
  })
})

describe('social users: the identity provider’s ID token, bound to the frame’s key', () => {
  test('a fresh token whose nonce is the key’s thumbprint opens the share once; every other token or key is refused', async () => {
    let ahead = 0
    const s = await service({ now: () => Date.now() + ahead })
    try {
      const key = await deviceKey()
      const token = await idToken(key.nonce, 'alice')
      const ciphertext = await s.encrypt({ kind: 'oidc', idToken: token })
      const decrypt = async (
        idTokenValue: string,
        signer = key,
        publicKey = key.publicJwk,
        ct = ciphertext,
      ) =>
        s.post('/v1/recovery/decrypt', {
          projectId: 'project-1',
          site: SITE,
          ciphertext: ct,
          proof: {
            kind: 'oidc',
            idToken: idTokenValue,
            publicKey,
            signature: await signer.sign(signer.nonce, ct),
          },
        })

      // The API saw the token, but holds no key whose thumbprint is its nonce.
      const api = await deviceKey()
      expect((await decrypt(token, api, api.publicJwk)).body).toMatchObject({
        code: 'INVALID_PROOF',
      })
      // Another user's token (its own nonce) cannot open alice's ciphertext.
      const mallory = await deviceKey()
      expect(
        (await decrypt(await idToken(mallory.nonce, 'mallory'), mallory, mallory.publicJwk)).body,
      ).toMatchObject({ code: 'DECRYPT_FAILED' })
      // A token signed by someone else's key, though it names the right issuer.
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
      const forged = await new SignJWT({ nonce: key.nonce })
        .setProtectedHeader({ alg: 'RS256', kid: 'forged' })
        .setIssuer(oidc.clients.google.issuer)
        .setAudience(oidc.clients.google.clientId)
        .setSubject('alice')
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey)
      expect((await decrypt(forged)).body).toMatchObject({ code: 'INVALID_ID_TOKEN' })

      expect(await decrypt(token)).toMatchObject({ status: 200, body: { share: SHARE } })
      // Used once: a replay is refused.
      expect((await decrypt(token)).body).toMatchObject({ code: 'TOKEN_USED' })

      // A token older than 10 minutes is not a fresh login.
      const later = await deviceKey()
      const old = await idToken(later.nonce, 'alice')
      ahead = 11 * 60_000
      expect((await decrypt(old, later, later.publicJwk)).body).toMatchObject({
        code: 'INVALID_ID_TOKEN',
      })
    } finally {
      await s.close()
    }
  })

  test('a token for another client or from an untrusted issuer is refused', async () => {
    const google = oidc.clients.google
    const s = await service({ issuers: [{ issuer: google.issuer, clientId: 'another-app' }] })
    try {
      const key = await deviceKey()
      const token = await idToken(key.nonce)
      const refused = await s.post('/v1/recovery/encrypt', {
        projectId: 'project-1',
        owner: { kind: 'oidc', idToken: token },
        share: SHARE,
      })
      expect(refused).toMatchObject({ status: 401, body: { code: 'INVALID_ID_TOKEN' } })
      const github = await idToken(key.nonce, 'alice', 'github')
      expect(
        (
          await s.post('/v1/recovery/encrypt', {
            projectId: 'project-1',
            owner: { kind: 'oidc', idToken: github },
            share: SHARE,
          })
        ).body.message,
      ).toMatch(/not trusted/)
    } finally {
      await s.close()
    }
  })
})

describe('what the API alone holds gets nothing out', () => {
  test('an API-signed recovery ticket (the old scheme) and an old ciphertext are refused', async () => {
    const s = await service()
    try {
      const ticket = await new SignJWT({ pid: 'project-1' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('user-1')
        .setAudience('porthole-recovery')
        .sign(new Uint8Array(32))
      const ciphertext = await s.encrypt({ kind: 'email', email: fresh('ticket') })
      for (const body of [
        { ticket, share: SHARE },
        { ticket, ciphertext },
        { projectId: 'project-1', ticket, ciphertext },
      ]) {
        const response = await s.post('/v1/recovery/decrypt', body)
        expect(response.status).toBe(400)
        expect(JSON.stringify(response.body)).not.toContain(SHARE)
      }
      const v1 = Buffer.from(ciphertext, 'base64')
      v1[0] = 1
      const old = await s.post('/v1/recovery/decrypt', {
        projectId: 'project-1',
        ciphertext: v1.toString('base64'),
        proof: { kind: 'email', approvalId: 'a'.repeat(43), signature: 'b'.repeat(86) },
      })
      expect(old.body).toMatchObject({ code: 'UNSUPPORTED_CIPHERTEXT' })
    } finally {
      await s.close()
    }
  })

  test('requests from another origin are refused (CORS is the wallet frame’s only)', async () => {
    const s = await service()
    try {
      const response = await s.post(
        '/v1/recovery/encrypt',
        { projectId: 'project-1', owner: { kind: 'email', email: 'a@b.test' }, share: SHARE },
        { origin: 'https://evil.example' },
      )
      expect(response.status).toBe(403)
      expect(response.headers.get('access-control-allow-origin')).toBeNull()
    } finally {
      await s.close()
    }
  })
})

describe('its own data folder', () => {
  test('creates its key there, mode 0600; refuses to start beside the API’s keys or a database', async () => {
    const s = await service()
    await s.close()
    expect(statSync(join(s.dataDir, 'recovery.key')).mode & 0o777).toBe(0o600)
    for (const file of ['api-share.key', 'api-signing.jwk', 'porthole.db']) {
      const dataDir = mkdtempSync(join(tmpdir(), 'recovery-'))
      writeFileSync(join(dataDir, file), 'x')
      await expect(
        startRecoveryService({ port: 0, dataDir, allowedOrigins: [WALLET] }),
      ).rejects.toThrow(ForeignSecretError)
    }
  })

  test('production refuses every local default, one line each; a real configuration passes', () => {
    const local = productionProblems(resolveRecoveryConfig({ PORTHOLE_ENV: 'production' }))
    expect(local.join('\n')).toMatch(/PORTHOLE_RECOVERY_URL/)
    expect(local.join('\n')).toMatch(/wallet origin/)
    expect(local.join('\n')).toMatch(/mail catcher/)
    expect(local.join('\n')).toMatch(/local test provider/)
    expect(local.join('\n')).toMatch(/inside the repository/)
    const real: Record<string, string> = {
      PORTHOLE_ENV: 'production',
      PORTHOLE_RECOVERY_URL: 'https://recovery.porthole.example',
      PORTHOLE_WALLET_URL: 'https://wallet.porthole.example',
      PORTHOLE_RECOVERY_SMTP_URL: 'smtps://mailer:secret@smtp.porthole.example',
      PORTHOLE_RECOVERY_KEY: 'ab'.repeat(32),
    }
    for (const provider of ['GOOGLE', 'GITHUB', 'APPLE', 'FACEBOOK', 'X', 'DISCORD'])
      real[`PORTHOLE_SOCIAL_${provider}_ISSUER`] = `https://id.${provider.toLowerCase()}.example`
    expect(productionProblems(resolveRecoveryConfig(real))).toEqual([])
    expect(
      productionProblems(
        resolveRecoveryConfig({
          ...real,
          PORTHOLE_RECOVERY_SMTP_URL: 'smtp://smtp.porthole.example',
        }),
      ),
    ).toEqual([expect.stringMatching(/requireTLS=true/)])
  })
})
