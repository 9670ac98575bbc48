import { describe, expect, test } from 'vitest'
import { readOptions } from './configOptions.js'

describe('host options, one at a time', () => {
  test('valid options are kept; an invalid one is refused by name without losing the others', () => {
    const { options, errors } = readOptions({
      networks: ['eip155:31337'],
      themeMode: 'blue',
      enableNetworkSwitch: false,
      featuredWalletIds: ['a'],
    })
    expect(options).toEqual({
      networks: ['eip155:31337'],
      enableNetworkSwitch: false,
      featuredWalletIds: ['a'],
    })
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^Invalid option "themeMode" ignored: /)
  })

  test("a refused option names zod's first problem word for word (the checks mirror it)", () => {
    const { errors } = readOptions({
      networks: ['eip155:1', { id: 1 }],
      themeMode: 'blue',
      locale: 'x'.repeat(36),
      features: { socials: ['x'.repeat(17)] },
      customWallets: [{ id: 'a', name: 'A', desktop_link: 'a://' }],
    })
    expect(errors).toEqual([
      'Invalid option "networks" ignored: Invalid input at 1',
      'Invalid option "themeMode" ignored: Invalid option: expected one of "light"|"dark"',
      'Invalid option "locale" ignored: Too big: expected string to have <=35 characters',
      'Invalid option "features.socials" ignored: Too big: expected string to have <=16 characters at 0',
      'Invalid option "customWallets[0]" ignored: Unrecognized key: "desktop_link"',
    ])
  })

  test('an option named like an Object method is unknown, not a crash of the handshake', () => {
    const { options, errors } = readOptions({
      networks: [],
      constructor: 1,
      toString: 'x',
      features: { hasOwnProperty: true, email: false },
    })
    expect(options).toEqual({ networks: [], features: { email: false } })
    expect(errors).toEqual([
      'Unknown option "constructor" ignored',
      'Unknown option "toString" ignored',
      'Unknown option "features.hasOwnProperty" ignored',
    ])
  })

  test('an unknown option is refused by name, never dropped silently', () => {
    const { options, errors } = readOptions({ networks: [], sendAnalytics: true })
    expect(options).toEqual({ networks: [] })
    expect(errors).toEqual(['Unknown option "sendAnalytics" ignored'])
  })

  test('features are read key by key: unknown and invalid keys are named', () => {
    const { options, errors } = readOptions({
      networks: [],
      features: { email: false, receive: 'yes', emailShowWallets: true, socials: ['github'] },
    })
    expect(options.features).toEqual({ email: false, socials: ['github'] })
    expect(errors).toEqual([
      expect.stringMatching(/^Invalid option "features\.receive" ignored: /),
      'Unknown option "features.emailShowWallets" ignored',
    ])
  })

  test('smartSessions is a feature switch like the others', () => {
    const { options, errors } = readOptions({
      networks: [],
      features: { pay: true, smartSessions: true },
    })
    expect(errors).toEqual([])
    expect(options.features).toEqual({ pay: true, smartSessions: true })
    expect(readOptions({ networks: [], features: { smartSessions: 'on' } }).errors).toEqual([
      expect.stringMatching(/^Invalid option "features\.smartSessions" ignored: /),
    ])
  })

  test("the script tag's JSON text is read for object and list options", () => {
    const { options, errors } = readOptions({
      networks: [],
      features: '{"email":false,"legalCheckbox":true}',
      remoteFeatures: '{"socials":["google"]}',
      defaultAccountTypes: '{"eip155":"eoa"}',
      customWallets: '[{"id":"acme","name":"Acme"}]',
      themeMode: 'light',
    })
    expect(errors).toEqual([])
    expect(options).toMatchObject({
      features: { email: false, legalCheckbox: true },
      remoteFeatures: { socials: ['google'] },
      defaultAccountTypes: { eip155: 'eoa' },
      customWallets: [{ id: 'acme', name: 'Acme' }],
      themeMode: 'light',
    })
  })

  test('text that is not JSON for an object option is refused by name', () => {
    const { options, errors } = readOptions({ networks: [], features: 'email=false' })
    expect(options.features).toBeUndefined()
    expect(errors).toEqual(['Option "features" must be an object; ignored'])
  })

  test('custom wallets are checked one by one; an unknown field refuses that entry only', () => {
    const { options, errors } = readOptions({
      networks: [],
      customWallets: [
        { id: 'acme', name: 'Acme', mobile_link: 'acme://' },
        { id: 'bad', name: 'Bad', desktop_link: 'bad://' },
        { id: 'evil', name: 'Evil', mobile_link: 'javascript:alert(1)' },
      ],
    })
    expect(options.customWallets).toEqual([{ id: 'acme', name: 'Acme', mobile_link: 'acme://' }])
    expect(errors).toHaveLength(2)
    expect(errors[0]).toMatch(/^Invalid option "customWallets\[1\]" ignored: .*desktop_link/)
    expect(errors[1]).toMatch(/^Invalid option "customWallets\[2\]" ignored: /)
  })

  test('missing or invalid networks become an empty list; a non-object config is refused', () => {
    expect(readOptions({ themeMode: 'dark' }).options.networks).toEqual([])
    const bad = readOptions({ networks: 'eip155:1' })
    expect(bad.options.networks).toEqual([])
    expect(bad.errors[0]).toMatch(/^Invalid option "networks" ignored/)
    expect(readOptions('nope')).toEqual({
      options: { networks: [] },
      errors: ['Invalid configuration ignored: not an object'],
    })
  })

  test("the SDK's own storage slot is passed through, not reported", () => {
    const { options, errors } = readOptions({ networks: [], storage: '{"a":1}' })
    expect(errors).toEqual([])
    expect(options.storage).toBe('{"a":1}')
  })
})
