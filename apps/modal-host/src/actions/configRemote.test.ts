import type { HelloMessage } from '@porthole/protocol'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'

// The API edge is faked: what `/appkit/v1/config` answers is under test.
const api = vi.hoisted(() => ({ features: vi.fn() }))
vi.mock('../api/client.js', () => ({ getRemoteFeatures: api.features }))

const Config = await import('./config.js')
const { shouldShowUnsupportedChain } = await import('../rules/unsupportedChain.js')
const { hasAdapters } = await import('../rules/adapters.js')
const RemoteFeatures = await import('./remoteFeatures.js')
const { store, initialState } = await import('../store/store.js')

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

let errors: string[]
let warnings: string[]
beforeEach(() => {
  store.setState(initialState(), true)
  errors = []
  warnings = []
  vi.spyOn(console, 'error').mockImplementation((m: string) => void errors.push(m))
  vi.spyOn(console, 'warn').mockImplementation((m: string) => void warnings.push(m))
})
afterEach(() => {
  vi.restoreAllMocks()
})

describe('the modal applies the remote features with the host options', () => {
  test('a remote feature turned off hides it without a host change', async () => {
    api.features.mockResolvedValueOnce({ email: false, socials: ['github'] })
    await RemoteFeatures.loadRemoteFeatures()
    const config = Config.applyHello(hello({ networks: ['eip155:31337'] }))
    expect(config.features).toMatchObject({ email: false, socials: ['github'] })
    expect(store.getState().config.features.email).toBe(false)
    expect(errors).toEqual([])
  })

  test('remote features that cannot be read: the defaults apply, with a warning', async () => {
    api.features.mockRejectedValueOnce(new Error('HTTP status code: 503'))
    expect(await RemoteFeatures.loadRemoteFeatures()).toBeNull()
    expect(warnings[0]).toMatch(/remote features could not be read \(HTTP status code: 503\)/)
    const config = Config.applyHello(hello({ networks: ['eip155:31337'] }))
    expect(config.features.email).toBe(true)
  })

  test('every refused option is a console error naming it', async () => {
    api.features.mockResolvedValueOnce({})
    await RemoteFeatures.loadRemoteFeatures()
    const config = Config.applyHello(
      hello({
        networks: ['eip155:31337'],
        features: { swaps: true, onramp: true, legalCheckbox: true, receive: false },
        defaultAccountTypes: { eip155: 'smartAccount', solana: 'smartAccount' },
        walletOrder: ['x'],
      }),
    )
    expect(config.features).toMatchObject({ receive: false, legalCheckbox: false })
    expect(errors).toEqual([
      '[porthole] Unknown option "walletOrder" ignored',
      expect.stringMatching(
        /^\[porthole\] Option "features\.legalCheckbox" needs termsConditionsUrl/,
      ),
      '[porthole] Option "defaultAccountTypes.solana": "smartAccount" is not available; Porthole\'s solana accounts are eoa',
    ])
  })

  test('legal checkbox, custom wallets and wallet ids are resolved', async () => {
    api.features.mockResolvedValueOnce({})
    await RemoteFeatures.loadRemoteFeatures()
    const config = Config.applyHello(
      hello({
        networks: ['eip155:31337'],
        termsConditionsUrl: 'https://example.com/terms',
        features: { legalCheckbox: true, collapseWallets: true },
        customWallets: [
          { id: 'acme', name: 'Acme', mobile_link: 'https://acme.example/app' },
          { id: 'zed', name: 'Zed', image_url: 'https://zed.example/z.png', mobile_link: 'zed://' },
        ],
        featuredWalletIds: ['f'],
        includeWalletIds: ['i'],
        excludeWalletIds: ['e'],
      }),
    )
    expect(errors).toEqual([])
    expect(config.features).toMatchObject({ legalCheckbox: true, collapseWallets: true })
    expect(config.customWallets).toEqual([
      { id: 'acme', name: 'Acme', image: '', universalLink: 'https://acme.example/app' },
      { id: 'zed', name: 'Zed', image: 'https://zed.example/z.png', mobileLink: 'zed://' },
    ])
    expect(config).toMatchObject({
      featuredWalletIds: ['f'],
      includeWalletIds: ['i'],
      excludeWalletIds: ['e'],
    })
  })

  test('enableNetworkSwitch and allowUnsupportedChain decide whether UnsupportedChain opens', async () => {
    api.features.mockResolvedValueOnce({})
    await RemoteFeatures.loadRemoteFeatures()
    const rule = (options: Record<string, unknown>) => {
      const config = Config.applyHello(hello({ networks: ['eip155:31337'], ...options }))
      return shouldShowUnsupportedChain({
        connected: true,
        activeNetworkId: 'eip155:7',
        supportedNetworkIds: config.networks.map((n) => n.caipNetworkId),
        enableNetworkSwitch: config.enableNetworkSwitch,
        allowUnsupportedChain: config.allowUnsupportedChain,
        basic: !hasAdapters(config.networks),
      })
    }
    expect(rule({})).toBe(true)
    expect(rule({ enableNetworkSwitch: false })).toBe(false)
    expect(rule({ allowUnsupportedChain: true })).toBe(false)
    expect(errors).toEqual([])
  })
})
