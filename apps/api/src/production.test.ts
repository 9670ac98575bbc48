import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { DEVICE_A } from '../test/auth.js'
import { createTestDatabase } from '../test/databases.js'
import { resolveConfig } from './config.js'
import { ProductionConfigError, productionProblems } from './production.js'
import { createProject } from './projects/createProject.js'
import { startApi } from './server.js'

/** A production environment with every development default replaced. */
const PRODUCTION_ENV = {
  PORTHOLE_ENV: 'production',
  PORTHOLE_API_PUBLIC_URL: 'https://api.porthole.example',
  PORTHOLE_MODAL_URL: 'https://modal.porthole.example',
  PORTHOLE_WALLET_URL: 'https://wallet.porthole.example',
  PORTHOLE_SMTP_URL: 'smtps://mailer:secret@smtp.porthole.example:465',
  PORTHOLE_MAIL_FROM: 'Porthole <login@porthole.example>',
  PORTHOLE_SHARE_KEY: Buffer.alloc(32, 7).toString('base64'),
  PORTHOLE_SOCIAL_GOOGLE_ISSUER: 'https://accounts.google.com',
  PORTHOLE_SOCIAL_GOOGLE_CLIENT_ID: 'porthole.apps.googleusercontent.com',
  PORTHOLE_SOCIAL_GOOGLE_CLIENT_SECRET: 'a-real-secret',
}

describe('PORTHOLE_ENV=production', () => {
  test('a fully configured production environment has no problems; unset social providers are not offered', () => {
    const config = resolveConfig({}, PRODUCTION_ENV)
    expect(productionProblems(config, { seedDemo: false })).toEqual([])
    expect(Object.keys(config.auth.social)).toEqual(['google'])
    // No devnet upstream is filled in: the RPC proxy reaches nothing on this machine.
    expect(config.upstreams).toEqual({})
  })

  test.each([
    [
      'the test identity provider',
      { PORTHOLE_SOCIAL_GITHUB_CLIENT_ID: 'gh' },
      /GITHUB_ISSUER is http:\/\/127\.0\.0\.1:4600\/github/,
    ],
    [
      'an http issuer',
      { PORTHOLE_SOCIAL_GOOGLE_ISSUER: 'http://accounts.google.com' },
      /GOOGLE_ISSUER is http:/,
    ],
    [
      'the public test secret',
      { PORTHOLE_SOCIAL_GOOGLE_CLIENT_SECRET: '' },
      /GOOGLE_CLIENT_SECRET is the local provider's public test secret/,
    ],
    [
      'the mail catcher',
      { PORTHOLE_SMTP_URL: '' },
      /SMTP goes to 127\.0\.0\.1:2525, the local mail catcher/,
    ],
    [
      'SMTP without required TLS',
      { PORTHOLE_SMTP_URL: 'smtp://smtp.porthole.example:587' },
      /may fall back to plain text/,
    ],
    ['the default sender', { PORTHOLE_MAIL_FROM: '' }, /PORTHOLE_MAIL_FROM/],
    [
      'an http public URL',
      { PORTHOLE_API_PUBLIC_URL: 'http://api.porthole.example' },
      /PORTHOLE_API_PUBLIC_URL is http:/,
    ],
    [
      'the loopback wallet',
      { PORTHOLE_WALLET_URL: '' },
      /PORTHOLE_WALLET_URL is http:\/\/wallet\.localhost:4200/,
    ],
    ['a key in the repository', { PORTHOLE_SHARE_KEY: '' }, /inside the repository/],
    [
      'a devnet upstream',
      { PORTHOLE_RPC_UPSTREAMS: '{"eip155:1":"http://127.0.0.1:8545"}' },
      /eip155:1 is http:\/\/127\.0\.0\.1:8545/,
    ],
  ])('names %s', (_name, change, problem) => {
    const config = resolveConfig({}, { ...PRODUCTION_ENV, ...change })
    const problems = productionProblems(config, { seedDemo: false })
    expect(problems.length).toBeGreaterThan(0)
    expect(problems.some((line) => problem.test(line))).toBe(true)
  })

  test('startApi refuses to start on the defaults of npm start, names each, and opens no database', async () => {
    const before = process.env.PORTHOLE_ENV
    process.env.PORTHOLE_ENV = 'production'
    const target = await createTestDatabase('sqlite')
    try {
      const refused = await startApi({ port: 0, databaseUrl: target.url }).catch(
        (error: unknown) => error,
      )
      expect(refused).toBeInstanceOf(ProductionConfigError)
      const { problems, message } = refused as ProductionConfigError
      expect(message).toMatch(
        /^PORTHOLE_ENV=production, but the API would run on development defaults/,
      )
      for (const expected of [
        /local mail catcher/,
        /PORTHOLE_MAIL_FROM/,
        /PORTHOLE_API_PUBLIC_URL is http:/,
        /demo project \(porthole-demo\) would be created/,
      ])
        expect(problems.some((problem) => expected.test(problem))).toBe(true)
      // Without the refusal every provider would log in through the local test provider.
      expect(problems.some((problem) => /local test identity provider/.test(problem))).toBe(false)
    } finally {
      if (before === undefined) delete process.env.PORTHOLE_ENV
      else process.env.PORTHOLE_ENV = before
      await target.cleanup()
    }
  })

  test('startApi starts when production is configured, and a provider left out answers FEATURE_DISABLED', async () => {
    const target = await createTestDatabase('sqlite')
    const keyDir = mkdtempSync(join(tmpdir(), 'porthole-api-keys-'))
    const env = resolveConfig({}, PRODUCTION_ENV)
    const api = await startApi({
      port: 0,
      databaseUrl: target.url,
      seedDemo: false,
      production: true,
      publicUrl: env.publicUrl,
      walletUrl: env.walletUrl,
      frameOrigins: env.frameOrigins,
      modalOrigin: env.modalOrigin,
      upstreams: {},
      auth: { ...env.auth, keyDir },
    })
    try {
      expect(await (await fetch(`${api.url}/health`)).json()).toEqual({ ok: true })
      await createProject(api.db, { id: 'shop', origins: ['https://shop.example'] })
      const start = (provider: string) =>
        fetch(`${api.url}/auth/v1/social/start?projectId=shop`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            provider,
            deviceId: DEVICE_A,
            nonce: 'n0nce-of-the-wallet-frame-key-thumbprint-01',
          }),
        })
      const github = await start('github')
      expect(github.status).toBe(403)
      expect(await github.json()).toMatchObject({ code: 'FEATURE_DISABLED' })
    } finally {
      await api.close()
      await target.cleanup()
    }
  })
})
