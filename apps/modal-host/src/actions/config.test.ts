import type { HelloMessage } from '@porthole/protocol'
import { describe, expect, test } from 'vitest'
import { resolveConfig } from './config.js'

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
