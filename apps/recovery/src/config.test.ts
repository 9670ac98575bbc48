import { describe, expect, test } from 'vitest'
import {
  DEFAULT_MAIL_FROM,
  InvalidConfigError,
  productionProblems,
  resolveRecoveryConfig,
} from './config.js'

/** A production configuration with every setting of its own. */
const REAL: Record<string, string> = {
  PORTHOLE_ENV: 'production',
  PORTHOLE_RECOVERY_URL: 'https://recovery.porthole.example',
  PORTHOLE_RECOVERY_LISTEN: '0.0.0.0:4700',
  PORTHOLE_WALLET_URL: 'https://wallet.porthole.example',
  PORTHOLE_API_URL: 'https://api.porthole.example',
  PORTHOLE_RECOVERY_SMTP_URL: 'smtps://mailer:secret@smtp.porthole.example',
  PORTHOLE_RECOVERY_MAIL_FROM: 'Porthole <security@porthole.example>',
  PORTHOLE_RECOVERY_KEY: 'ab'.repeat(32),
  PORTHOLE_SOCIAL_GOOGLE_ISSUER: 'https://accounts.google.com',
  PORTHOLE_SOCIAL_GOOGLE_CLIENT_ID: '1234.apps.googleusercontent.com',
}

describe('resolveRecoveryConfig', () => {
  test('local defaults: the stack’s addresses, the local provider’s six issuers, its own folder', () => {
    const config = resolveRecoveryConfig({})
    expect(config).toMatchObject({
      publicUrl: 'http://127.0.0.1:4700',
      host: '127.0.0.1',
      port: 4700,
      allowedOrigins: ['http://wallet.localhost:4200'],
      smtpUrl: 'smtp://127.0.0.1:2525',
      mailFrom: DEFAULT_MAIL_FROM,
      trustProxy: 0,
      production: false,
    })
    expect(config.issuers).toHaveLength(6)
    expect(config.issuers[0]).toEqual({
      issuer: 'http://127.0.0.1:4600/google',
      clientId: 'porthole-google',
    })
    expect(config.dataDir).toMatch(/\.recovery-data$/)
    expect(config.keyFile).toMatch(/\.recovery-data\/recovery\.key$/)
    expect(config.masterKey).toBeUndefined()
  })

  test('reads the API’s social variables (never the secret), the SMTP fallback, CORS extras and the listen address', () => {
    const config = resolveRecoveryConfig({
      PORTHOLE_SOCIAL_GITHUB_ISSUER: 'https://github.example',
      PORTHOLE_SOCIAL_GITHUB_CLIENT_ID: 'gh-client',
      PORTHOLE_SOCIAL_GITHUB_CLIENT_SECRET: 'never-read',
      PORTHOLE_SMTP_URL: 'smtps://api-mail.example',
      PORTHOLE_RECOVERY_ALLOWED_ORIGINS: 'https://wallet-b.example, https://wallet-c.example',
      PORTHOLE_RECOVERY_LISTEN: '[::]:8080',
      PORTHOLE_RECOVERY_TRUST_PROXY: '2',
    })
    expect(config.issuers).toContainEqual({
      issuer: 'https://github.example',
      clientId: 'gh-client',
    })
    expect(JSON.stringify(config)).not.toContain('never-read')
    expect(config.smtpUrl).toBe('smtps://api-mail.example')
    expect(config.allowedOrigins).toEqual([
      'http://wallet.localhost:4200',
      'https://wallet-b.example',
      'https://wallet-c.example',
    ])
    expect(config).toMatchObject({ host: '::', port: 8080, trustProxy: 2 })
    expect(
      resolveRecoveryConfig({
        PORTHOLE_RECOVERY_SMTP_URL: 'smtps://own',
        PORTHOLE_SMTP_URL: 'smtps://api',
      }).smtpUrl,
    ).toBe('smtps://own')
  })

  test('bad values are refused with the variable’s name', () => {
    expect(() =>
      resolveRecoveryConfig({ PORTHOLE_RECOVERY_ALLOWED_ORIGINS: 'https://a.example/path' }),
    ).toThrow(InvalidConfigError)
    expect(() => resolveRecoveryConfig({ PORTHOLE_RECOVERY_LISTEN: 'nope' })).toThrow(
      /PORTHOLE_RECOVERY_LISTEN/,
    )
    expect(() => resolveRecoveryConfig({ PORTHOLE_RECOVERY_TRUST_PROXY: '-1' })).toThrow(
      /PORTHOLE_RECOVERY_TRUST_PROXY/,
    )
    expect(() => resolveRecoveryConfig({ PORTHOLE_SOCIAL_X_ISSUER: 'ftp://x.example' })).toThrow(
      /PORTHOLE_SOCIAL_X_ISSUER/,
    )
    expect(() => resolveRecoveryConfig({ PORTHOLE_RECOVERY_KEY: 'abc' })).toThrow(
      /PORTHOLE_RECOVERY_KEY/,
    )
  })
})

describe('productionProblems', () => {
  test('lists every local default of a bare production environment', () => {
    const problems = productionProblems(resolveRecoveryConfig({ PORTHOLE_ENV: 'production' }))
    expect(problems).toEqual([
      expect.stringMatching(/^PORTHOLE_RECOVERY_URL is http:\/\/127\.0\.0\.1:4700/),
      expect.stringMatching(/^The wallet origin http:\/\/wallet\.localhost:4200/),
      expect.stringMatching(
        /^The project allowlists would be read from http:\/\/127\.0\.0\.1:4300/,
      ),
      expect.stringMatching(/^SMTP goes to smtp:\/\/127\.0\.0\.1:2525, the local mail catcher/),
      expect.stringMatching(/PORTHOLE_RECOVERY_MAIL_FROM/),
      expect.stringMatching(/^The master key file .* is inside the repository/),
    ])
  })

  test('in production an unconfigured provider is not trusted at all; a half-configured or local one is a problem', () => {
    const none = resolveRecoveryConfig(REAL)
    expect(none.issuers).toEqual([
      { issuer: 'https://accounts.google.com', clientId: '1234.apps.googleusercontent.com' },
    ])
    const local = productionProblems(
      resolveRecoveryConfig({
        ...REAL,
        PORTHOLE_SOCIAL_DISCORD_ISSUER: 'http://127.0.0.1:4600/discord',
        PORTHOLE_SOCIAL_APPLE_CLIENT_ID: 'com.example.app',
      }),
    )
    expect(local).toEqual([
      "PORTHOLE_SOCIAL_APPLE_ISSUER is not set: the local OpenID provider's value stands in for it",
      "PORTHOLE_SOCIAL_DISCORD_CLIENT_ID is not set: the local OpenID provider's value stands in for it",
      expect.stringMatching(
        /^The identity provider http:\/\/127\.0\.0\.1:4600\/apple is the local test provider/,
      ),
      expect.stringMatching(
        /^The identity provider http:\/\/127\.0\.0\.1:4600\/discord is the local test provider/,
      ),
    ])
    const plainHttp = productionProblems(
      resolveRecoveryConfig({ ...REAL, PORTHOLE_SOCIAL_GOOGLE_ISSUER: 'http://accounts.example' }),
    )
    expect(plainHttp).toEqual([
      expect.stringMatching(/http:\/\/accounts\.example is the local test provider or not https/),
    ])
  })

  test('a real configuration passes; SMTP without required TLS and an http URL do not', () => {
    expect(productionProblems(resolveRecoveryConfig(REAL))).toEqual([])
    expect(
      productionProblems(
        resolveRecoveryConfig({
          ...REAL,
          PORTHOLE_RECOVERY_SMTP_URL: 'smtp://smtp.porthole.example',
        }),
      ),
    ).toEqual([
      expect.stringMatching(
        /may fall back to plain text: use smtps:\/\/ or smtp:\/\/…\?requireTLS=true/,
      ),
    ])
    expect(
      productionProblems(
        resolveRecoveryConfig({
          ...REAL,
          PORTHOLE_RECOVERY_SMTP_URL: 'smtp://smtp.porthole.example:587?requireTLS=true',
        }),
      ),
    ).toEqual([])
    expect(
      productionProblems(
        resolveRecoveryConfig({
          ...REAL,
          PORTHOLE_RECOVERY_URL: 'http://recovery.porthole.example',
        }),
      ),
    ).toEqual([expect.stringMatching(/^PORTHOLE_RECOVERY_URL is http:/)])
  })

  test('a key file inside the repository is refused; one outside passes', () => {
    const { PORTHOLE_RECOVERY_KEY: _, ...withoutKey } = REAL
    expect(
      productionProblems(
        resolveRecoveryConfig({ ...withoutKey, PORTHOLE_RECOVERY_DATA_DIR: '.recovery-data' }),
      ),
    ).toEqual([expect.stringMatching(/inside the repository/)])
    expect(
      productionProblems(
        resolveRecoveryConfig({
          ...withoutKey,
          PORTHOLE_RECOVERY_DATA_DIR: '/var/lib/porthole-recovery',
        }),
      ),
    ).toEqual([])
  })
})
