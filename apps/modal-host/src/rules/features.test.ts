import { describe, expect, test } from 'vitest'
import { DEFAULT_CONFIG } from '../store/defaults.js'
import { DEFAULT_REMOTE_FEATURES, type MergeFeaturesParameters, mergeFeatures } from './features.js'

const OFFERED = ['google', 'x', 'discord', 'apple', 'github', 'facebook']

const merge = (overrides: Partial<MergeFeaturesParameters>) =>
  mergeFeatures({
    features: {},
    remoteFeatures: {},
    remote: DEFAULT_REMOTE_FEATURES,
    defaults: DEFAULT_CONFIG.features,
    offeredSocials: OFFERED,
    hasLegalLinks: false,
    ...overrides,
  })

describe('host options merged with the project remote features', () => {
  test('the defaults: e-mail, the default social order, activity, send and receive on', () => {
    const { features, errors, warnings } = merge({})
    expect(features).toMatchObject({
      email: true,
      socials: DEFAULT_CONFIG.features.socials,
      history: true,
      send: true,
      receive: true,
      legalCheckbox: false,
      collapseWallets: false,
    })
    expect([...errors, ...warnings]).toEqual([])
  })

  test('features.email false hides e-mail even when the project offers it', () => {
    expect(merge({ features: { email: false } }).features.email).toBe(false)
  })

  test('a feature the project turned off is off whatever the host says, with a warning', () => {
    const remote = { ...DEFAULT_REMOTE_FEATURES, email: false, activity: false }
    const quiet = merge({ remote })
    expect(quiet.features).toMatchObject({ email: false, history: false })
    expect(quiet.warnings).toEqual([])
    const loud = merge({ remote, features: { email: true, history: true } })
    expect(loud.features).toMatchObject({ email: false, history: false })
    expect(loud.warnings).toEqual([
      'Option "features.email" is on, but the project turned e-mail login off (remote features)',
      'Option "features.history" is on, but the project turned activity off (remote features)',
    ])
  })

  test('socials keep the host order, narrowed by the project list', () => {
    const remote = { ...DEFAULT_REMOTE_FEATURES, socials: ['github', 'google'] }
    expect(merge({ remote }).features.socials).toEqual(['google', 'github'])
    const hostOrder = merge({ remote, features: { socials: ['github', 'x', 'google'] } })
    expect(hostOrder.features.socials).toEqual(['github', 'google'])
    expect(hostOrder.warnings).toEqual([
      'Option "features.socials": x turned off by the project (remote features)',
    ])
  })

  test('socials false on either side turns social login off', () => {
    expect(merge({ features: { socials: false } }).features.socials).toBe(false)
    expect(merge({ remoteFeatures: { socials: false } }).features.socials).toBe(false)
    expect(merge({ remote: { ...DEFAULT_REMOTE_FEATURES, socials: false } }).features.socials).toBe(
      false,
    )
  })

  test('a social provider Porthole does not offer is refused by name', () => {
    const { features, errors } = merge({ features: { socials: ['google', 'tiktok'] } })
    expect(features.socials).toEqual(['google'])
    expect(errors).toEqual([
      `Option "features.socials": "tiktok" not offered (Porthole offers ${OFFERED.join(', ')}); ignored`,
    ])
  })

  test("the host's remoteFeatures narrow like features do", () => {
    const { features } = merge({
      remoteFeatures: { email: false, activity: false, socials: ['x', 'google'] },
      features: { socials: ['google', 'x', 'github'] },
    })
    expect(features).toMatchObject({ email: false, history: false, socials: ['google', 'x'] })
  })

  test("swaps and on-ramp are on with the project's providers; the host can only turn them off", () => {
    expect(merge({}).features).toMatchObject({
      swaps: true,
      onramp: true,
      onrampProviders: ['meld'],
    })
    expect(merge({ features: { swaps: false, onramp: false } }).features).toMatchObject({
      swaps: false,
      onramp: false,
      onrampProviders: [],
    })
    expect(merge({ remoteFeatures: { onramp: false } }).features.onramp).toBe(false)
    // The project turned on-ramp off: the host's switch cannot bring it back.
    const overruled = merge({ features: { onramp: true }, remote: { onramp: false } })
    expect(overruled.features.onramp).toBe(false)
    expect(overruled.warnings).toEqual([
      'Option "features.onramp" is on, but the project turned onramp off (remote features)',
    ])
    // A provider the project does not offer is dropped, with a warning.
    const narrowed = merge({ remoteFeatures: { onramp: ['meld', 'other'] } })
    expect(narrowed.features.onrampProviders).toEqual(['meld'])
    expect(narrowed.warnings[0]).toMatch(/remoteFeatures\.onramp": other turned off/)
    expect(merge({ features: { swaps: true, onramp: true } }).errors).toEqual([])
  })

  test('features.pay forces e-mail and social login off (spec §5)', () => {
    const { features, warnings } = merge({ features: { pay: true, email: true } })
    expect(features).toMatchObject({ email: false, socials: false })
    expect(warnings).toEqual(['Option "features.pay" turns e-mail and social login off (spec §5)'])
    expect(merge({ features: { pay: false } }).features.email).toBe(true)
  })

  test('legalCheckbox works with a terms or privacy link, and is refused without one', () => {
    expect(
      merge({ features: { legalCheckbox: true }, hasLegalLinks: true }).features,
    ).toMatchObject({ legalCheckbox: true })
    const refused = merge({ features: { legalCheckbox: true } })
    expect(refused.features.legalCheckbox).toBe(false)
    expect(refused.errors[0]).toMatch(/^Option "features\.legalCheckbox" needs termsConditionsUrl/)
  })

  test('receive, send, collapseWallets, allWallets and the method order are the host options', () => {
    const { features } = merge({
      features: {
        receive: false,
        send: false,
        collapseWallets: true,
        allWallets: false,
        connectMethodsOrder: ['wallet', 'email'],
        connectorTypeOrder: ['recommended'],
      },
    })
    expect(features.connectorTypeOrder).toEqual([
      'recommended',
      'walletConnect',
      'recent',
      'injected',
      'featured',
      'custom',
      'external',
    ])
    expect(merge({}).features.connectorTypeOrder[0]).toBe('walletConnect')
    expect(features).toMatchObject({
      receive: false,
      send: false,
      collapseWallets: true,
      allWallets: false,
      connectMethodsOrder: ['wallet', 'email'],
    })
  })

  test('unreadable remote features: the spec defaults apply', () => {
    expect(merge({ remote: null }).features).toMatchObject({ email: true, history: true })
  })

  test('multi-wallet is off by default (spec §9) and on when the project turns it on', () => {
    expect(merge({}).features.multiWallet).toBe(false)
    expect(merge({ remote: null }).features.multiWallet).toBe(false)
    const on = merge({ remote: { ...DEFAULT_REMOTE_FEATURES, multiWallet: true } })
    expect(on.features.multiWallet).toBe(true)
    expect([...on.errors, ...on.warnings]).toEqual([])
  })

  test('remoteFeatures.multiWallet false turns it off for this host; true cannot turn on what the project left off', () => {
    const remote = { ...DEFAULT_REMOTE_FEATURES, multiWallet: true }
    const off = merge({ remote, remoteFeatures: { multiWallet: false } })
    expect(off.features.multiWallet).toBe(false)
    expect([...off.errors, ...off.warnings]).toEqual([])
    const asked = merge({ remoteFeatures: { multiWallet: true } })
    expect(asked.features.multiWallet).toBe(false)
    expect(asked.warnings).toEqual([
      'Option "remoteFeatures.multiWallet" is on, but the project turned multi-wallet off (remote features)',
    ])
    expect(merge({ remote, remoteFeatures: { multiWallet: true } }).features.multiWallet).toBe(true)
  })
})
