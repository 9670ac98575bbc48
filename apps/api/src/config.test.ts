import { SOLANA_LOCALNET_CAIP } from '@porthole/shared'
import { describe, expect, test } from 'vitest'
import { InvalidConfigError, parseUpstreams, resolveConfig } from './config.js'

describe('resolveConfig', () => {
  test('defaults: frame origins, modal origin, devnet upstreams, generous rate limit, 1 s project cache', () => {
    const config = resolveConfig({}, {})
    expect(config.frameOrigins).toEqual(['http://127.0.0.1:4100', 'http://wallet.localhost:4200'])
    expect(config.modalOrigin).toBe('http://127.0.0.1:4100')
    expect(config.upstreams).toEqual({
      'eip155:31337': 'http://127.0.0.1:8545',
      'eip155:31338': 'http://127.0.0.1:8546',
      [SOLANA_LOCALNET_CAIP]: 'http://127.0.0.1:8899',
    })
    expect(config.rateLimit).toEqual({ ratePerSecond: 50, burst: 200 })
    expect(config.projectCacheMs).toBeLessThanOrEqual(1000)
    expect(config.publicUrl).toBe('http://127.0.0.1:4300')
  })

  test('reads the environment, then overrides', () => {
    const config = resolveConfig(
      { upstreams: { 'eip155:10': 'https://op.example' } },
      {
        PORTHOLE_MODAL_URL: 'https://modal.example/',
        PORTHOLE_DEVNET_RPC: 'http://10.0.0.2:8545',
        PORTHOLE_RPC_UPSTREAMS: '{"eip155:1":"https://eth.example"}',
        PORTHOLE_RATE_LIMIT_PER_SECOND: '5',
        PORTHOLE_RATE_LIMIT_BURST: '10',
      },
    )
    expect(config.frameOrigins[0]).toBe('https://modal.example')
    expect(config.modalOrigin).toBe('https://modal.example')
    expect(config.upstreams).toMatchObject({
      'eip155:31337': 'http://10.0.0.2:8545',
      'eip155:1': 'https://eth.example',
      'eip155:10': 'https://op.example',
    })
    expect(config.rateLimit).toEqual({ ratePerSecond: 5, burst: 10 })
    expect(resolveConfig({}, { PORTHOLE_RATE_LIMIT_PER_SECOND: '0' }).rateLimit).toBe(false)
    expect(
      resolveConfig({}, { PORTHOLE_API_CORS_ORIGINS: 'https://a.test, https://b.test' })
        .frameOrigins,
    ).toEqual(['https://a.test', 'https://b.test'])
  })

  test('refuses invalid upstreams and limits', () => {
    expect(() => parseUpstreams('nope')).toThrow(InvalidConfigError)
    expect(() => parseUpstreams('{"mainnet":"https://x.example"}')).toThrow(InvalidConfigError)
    expect(() => parseUpstreams('{"eip155:1":"ftp://x.example"}')).toThrow(InvalidConfigError)
    expect(() => resolveConfig({}, { PORTHOLE_RATE_LIMIT_BURST: '-1' })).toThrow(InvalidConfigError)
  })

  test('auth: SMTP and social providers from the endpoints, overridable per provider', () => {
    const defaults = resolveConfig({}, {})
    expect(defaults.walletUrl).toBe('http://wallet.localhost:4200')
    expect(defaults.credentialOrigins).toEqual(['http://wallet.localhost:4200'])
    expect(defaults.auth).toMatchObject({
      smtpUrl: 'smtp://127.0.0.1:2525',
      mailFrom: 'Porthole <no-reply@porthole.local>',
      shareKey: undefined,
      mailRateLimit: { burst: 10 },
    })
    expect(defaults.auth.social.github).toEqual({
      issuer: 'http://127.0.0.1:4600/github',
      clientId: 'porthole-github',
      clientSecret: 'porthole-github-secret',
    })
    expect(Object.keys(defaults.auth.social).sort()).toEqual(
      ['apple', 'discord', 'facebook', 'github', 'google', 'x'].sort(),
    )
    const config = resolveConfig(
      { auth: { mailFrom: 'Override <o@x.test>' } },
      {
        PORTHOLE_SMTP_URL: 'smtps://user:pass@mail.example:465',
        PORTHOLE_MAIL_FROM: 'Shop <login@shop.example>',
        PORTHOLE_WALLET_URL: 'https://wallet.example',
        PORTHOLE_SOCIAL_GOOGLE_ISSUER: 'https://accounts.google.com',
        PORTHOLE_SOCIAL_GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
        PORTHOLE_SOCIAL_GOOGLE_CLIENT_SECRET: 's3cret',
        PORTHOLE_SHARE_KEY: 'a2V5',
        PORTHOLE_RATE_LIMIT_PER_SECOND: '0',
      },
    )
    expect(config.auth.smtpUrl).toBe('smtps://user:pass@mail.example:465')
    expect(config.auth.mailFrom).toBe('Override <o@x.test>')
    expect(config.auth.social.google).toEqual({
      issuer: 'https://accounts.google.com',
      clientId: 'id.apps.googleusercontent.com',
      clientSecret: 's3cret',
    })
    expect(config.auth.shareKey).toBe('a2V5')
    expect(config.auth.mailRateLimit).toBe(false)
    expect(config.credentialOrigins).toEqual(['https://wallet.example'])
    expect(() => resolveConfig({}, { PORTHOLE_SOCIAL_X_ISSUER: 'ftp://x' })).toThrow(
      InvalidConfigError,
    )
  })
})
