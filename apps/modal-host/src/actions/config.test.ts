import type { HelloMessage } from '@porthole/protocol'
import { describe, expect, test } from 'vitest'
import { helloOpening, resolveConfig } from './config.js'

const hello = (config: unknown): HelloMessage => ({
  ns: 'porthole',
  v: 1,
  kind: 'hello',
  nonce: 'n'.repeat(32),
  versions: [1],
  projectId: 'p',
  metadata: { name: 'Demo', url: 'http://localhost:4000' },
  config,
})

describe('configuration from the host', () => {
  test('defaults: dark theme, network switching on, unsupported chains not allowed, eip155:1', () => {
    const { config } = resolveConfig(hello({ networks: [] }), false)
    expect(config).toMatchObject({
      themeMode: 'dark',
      enableNetworkSwitch: true,
      allowUnsupportedChain: false,
    })
    expect(config.networks.map((n) => n.caipNetworkId)).toEqual(['eip155:1'])
    expect(config.features.connectMethodsOrder).toEqual(['email', 'social', 'wallet'])
  })

  test('enableReconnect: on by default, false from the option or the script tag; anything else refused', () => {
    expect(resolveConfig(hello({ networks: [] }), false).config.enableReconnect).toBe(true)
    expect(
      resolveConfig(hello({ networks: [], enableReconnect: false }), false).config.enableReconnect,
    ).toBe(false)
    const { config, errors } = resolveConfig(hello({ networks: [], enableReconnect: 'no' }), false)
    expect(config.enableReconnect).toBe(true)
    expect(errors).toEqual([expect.stringMatching(/^Invalid option "enableReconnect" ignored/)])
  })

  test('options are applied and theme variables filtered (w3m names mapped)', () => {
    const { config, warnings } = resolveConfig(
      hello({
        networks: ['eip155:31337', 'eip155:404404'],
        defaultNetwork: 'eip155:31337',
        themeMode: 'light',
        themeVariables: {
          '--w3m-accent': '#ff0000',
          '--ph-border-radius-master': '2px',
          color: 'red',
        },
        featuredWalletIds: ['x'],
        allowUnsupportedChain: true,
      }),
      true,
    )
    expect(config.defaultNetwork?.caipNetworkId).toBe('eip155:31337')
    expect(config.themeVariables).toEqual({
      '--ph-accent': '#ff0000',
      '--ph-border-radius-master': '2px',
    })
    expect(config).toMatchObject({
      themeMode: 'light',
      featuredWalletIds: ['x'],
      allowUnsupportedChain: true,
      isMobile: true,
    })
    expect(warnings).toEqual(['Unknown networks ignored: eip155:404404'])
  })

  test('invalid options are refused by name, never thrown; the valid ones still apply', () => {
    const { config, errors } = resolveConfig(
      hello({ networks: 'eip155:1', themeMode: 'blue', enableNetworkSwitch: false }),
      false,
    )
    expect(config.themeMode).toBe('dark')
    expect(config.enableNetworkSwitch).toBe(false)
    expect(errors[0]).toMatch(/^Invalid option "networks" ignored/)
    expect(errors[1]).toMatch(/^Invalid option "themeMode" ignored/)
  })
})

describe('the locale option', () => {
  test('picks the language: the option first, else the browser’s best match, else English', () => {
    const locale = (config: object, languages: string[]) =>
      resolveConfig(hello({ networks: [], ...config }), false, null, languages).config.locale
    expect(locale({ locale: 'ja' }, ['de-DE'])).toBe('ja')
    // A regional variant picks its language.
    expect(locale({ locale: 'pt-PT' }, [])).toBe('pt-BR')
    expect(locale({}, ['de-DE', 'en'])).toBe('de')
    expect(locale({}, ['nl-NL', 'fr-CA'])).toBe('fr')
    expect(locale({}, ['nl-NL'])).toBe('en')
    expect(locale({}, [])).toBe('en')
  })

  test('an unknown locale is refused with an error naming the option and the choices', () => {
    const { config, errors } = resolveConfig(
      hello({ networks: [], locale: 'xx-YY' }),
      false,
      null,
      ['es-MX'],
    )
    expect(errors).toEqual([
      'Invalid option "locale" ignored: "xx-YY" is not one of en, de, es, fr, pt-BR, ja, ko, zh-CN, tr, ar',
    ])
    // The browser's language still applies.
    expect(config.locale).toBe('es')
  })

  test('a locale that is not text is refused by the schema', () => {
    const { config, errors } = resolveConfig(hello({ networks: [], locale: 42 }), false, null, [])
    expect(errors[0]).toMatch(/^Invalid option "locale" ignored/)
    expect(config.locale).toBe('en')
  })
})

describe("the SDK's open carried in the hello", () => {
  test('an open() from before the handshake is read, checked like an open request', () => {
    expect(helloOpening({ config: { networks: [], opening: {} } })).toEqual({})
    expect(helloOpening({ config: { networks: [], opening: { view: 'Networks' } } })).toEqual({
      view: 'Networks',
    })
  })

  test('none, or a malformed one, opens nothing; the option is not reported as unknown', () => {
    expect(helloOpening({ config: { networks: [] } })).toBeUndefined()
    expect(helloOpening({ config: undefined })).toBeUndefined()
    expect(helloOpening({ config: { networks: [], opening: { view: 'Send' } } })).toBeUndefined()
    expect(helloOpening({ config: { networks: [], opening: 'Connect' } })).toBeUndefined()
    // Keys an open request does not know are dropped, as there.
    expect(
      helloOpening({ config: { networks: [], opening: { view: 'Connect', extra: 1 } } }),
    ).toEqual({ view: 'Connect' })
    const { errors } = resolveConfig(
      hello({ networks: ['eip155:1'], opening: { view: 'Account' } }),
    )
    expect(errors).toEqual([])
  })
})
