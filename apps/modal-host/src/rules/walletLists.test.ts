import type { InjectedProviderInfo } from '@porthole/protocol'
import { resolveNetwork, SOLANA_LOCALNET_CAIP } from '@porthole/shared'
import { describe, expect, test } from 'vitest'
import { DEFAULT_CONFIG } from '../store/defaults.js'
import type { WalletEntry } from '../store/types.js'
import {
  type ConnectListState,
  connectList,
  shownSections,
  visibleInjected,
} from './connectList.js'
import { fromCustomWallet } from './customWallets.js'
import { headlessWallets } from './headlessWallets.js'
import {
  type CatalogueWallet,
  CONNECTOR_TYPE_ORDER,
  connectorTypeOrder,
  connectSections,
} from './walletLists.js'

const w = (id: string, extra: Partial<WalletEntry> = {}): WalletEntry => ({
  id,
  name: id,
  image: '',
  ...extra,
})
const external = (id: string, name = id): InjectedProviderInfo => ({
  uuid: `external:${id}`,
  name,
  icon: '',
  rdns: '',
  external: true,
})
const DEV: InjectedProviderInfo = {
  uuid: 'u-dev',
  name: 'Porthole Dev Wallet',
  icon: 'data:image/svg+xml,<svg/>',
  rdns: 'dev.porthole.wallet',
}
const catalogueWallet = (id: string, rdns: string | null = null): CatalogueWallet => ({
  id,
  name: id,
  image_url: null,
  rdns,
  homepage: null,
  order: null,
})
const types = (sections: { type: string; wallets: WalletEntry[] }[]) =>
  sections.map((s) => [s.type, s.wallets.map((x) => x.id)])

function state(overrides: Partial<ConnectListState> = {}): ConnectListState {
  return {
    injected: [DEV, external('acme', 'Acme Wallet')],
    catalogue: {
      status: 'ready',
      wallets: [catalogueWallet('trust-id'), catalogueWallet('zerion-id')],
      count: 400,
      page: 0,
      featured: [catalogueWallet('rainbow-id')],
    },
    config: {
      ...DEFAULT_CONFIG,
      networks: [resolveNetwork('eip155:31337')!],
      featuredWalletIds: ['rainbow-id'],
      customWallets: [fromCustomWallet({ id: 'mine', name: 'My Wallet' })],
    },
    connectNamespace: null,
    recentWallets: [w('old.wallet', { rdns: 'old.wallet' })],
    ...overrides,
  }
}
const sectionsOf = (s: ConnectListState) => connectList(s, visibleInjected(s)).sections

describe('the spec’s connector order (Defaults: walletConnect, recent, injected, featured, custom, external, recommended)', () => {
  test('is the order of the connector types', () => {
    expect(CONNECTOR_TYPE_ORDER).toEqual([
      'walletConnect',
      'recent',
      'injected',
      'featured',
      'custom',
      'external',
      'recommended',
    ])
  })

  test('every wallet section in that order, whatever order the lists come in', () => {
    const sections = connectSections({
      recommended: [w('r1')],
      external: [w('acme')],
      custom: [w('mine')],
      featured: [w('f1')],
      injected: [w('dev')],
      recent: [w('old')],
      excludedIds: [],
    })
    expect(types(sections)).toEqual([
      ['recent', ['old']],
      ['injected', ['dev']],
      ['featured', ['f1']],
      ['custom', ['mine']],
      ['external', ['acme']],
      ['recommended', ['r1']],
    ])
  })

  test('a host connector is listed once: recent first, then it wins over a catalogue or custom entry of its id', () => {
    const sections = connectSections({
      recent: [w('old')],
      injected: [],
      featured: [w('acme'), w('f1')],
      custom: [w('acme')],
      external: [w('acme'), w('old'), w('excluded')],
      recommended: [w('acme'), w('r1')],
      excludedIds: ['excluded'],
    })
    expect(types(sections)).toEqual([
      ['recent', ['old']],
      ['featured', ['f1']],
      ['external', ['acme']],
      ['recommended', ['r1']],
    ])
  })
})

describe('features.connectorTypeOrder (AppKit’s option; the spec gives its default)', () => {
  test('the types named first, each once, then the others in the default order', () => {
    expect(connectorTypeOrder()).toEqual([...CONNECTOR_TYPE_ORDER])
    expect(connectorTypeOrder(['external', 'walletConnect', 'external'])).toEqual([
      'external',
      'walletConnect',
      'recent',
      'injected',
      'featured',
      'custom',
      'recommended',
    ])
  })

  test('orders Connect’s sections and headless wallets(), the WalletConnect entry where it is named', () => {
    const order = connectorTypeOrder(['external', 'recent', 'walletConnect'])
    const s = state({
      config: {
        ...state().config,
        features: { ...state().config.features, connectorTypeOrder: order },
      },
    })
    expect(types(sectionsOf(s)).map(([type]) => type)).toEqual([
      'external',
      'recent',
      'injected',
      'featured',
      'custom',
      'recommended',
    ])
    expect([
      ...new Set(headlessWallets(sectionsOf(s), s.injected, order).map((x) => x.section)),
    ]).toEqual([
      'external',
      'recent',
      'walletConnect',
      'installed',
      'featured',
      'custom',
      'recommended',
    ])
    // Last when every other type comes before it.
    const last = connectorTypeOrder([...CONNECTOR_TYPE_ORDER.slice(1), 'walletConnect'])
    expect(headlessWallets(sectionsOf(s), s.injected, last).at(-1)?.section).toBe('walletConnect')
  })
})

describe('Connect’s list with the host’s connectors', () => {
  test('recent, installed, featured, custom, external and recommended wallets each in their section', () => {
    expect(types(sectionsOf(state()))).toEqual([
      ['recent', ['old.wallet']],
      ['injected', ['dev.porthole.wallet']],
      ['featured', ['rainbow-id']],
      ['custom', ['mine']],
      ['external', ['acme']],
      ['recommended', ['trust-id', 'zerion-id']],
    ])
    const acme = sectionsOf(state()).find((s) => s.type === 'external')?.wallets[0]
    expect(acme).toMatchObject({ id: 'acme', name: 'Acme Wallet', external: true })
    // Not counted in All Wallets (which lists the catalogue and the installed wallets).
    expect(connectList(state(), visibleInjected(state())).count).toBe(401)
  })

  test('headless wallets() lists them in the same order, the WalletConnect entry first, as installed ones', () => {
    const s = state()
    const list = headlessWallets(sectionsOf(s), s.injected)
    expect(list.map((x) => x.section)).toEqual([
      'walletConnect',
      'recent',
      'installed',
      'featured',
      'custom',
      'external',
      'recommended',
      'recommended',
    ])
    expect(list.find((x) => x.section === 'external')).toMatchObject({
      id: 'acme',
      type: 'injected',
      installed: true,
      namespace: 'eip155',
    })
  })

  test('a recent host connector is listed while the host registers it, and left out when it does not', () => {
    const recent = [w('acme', { name: 'Acme Wallet', external: true })]
    const registered = sectionsOf(state({ recentWallets: recent }))
    expect(types(registered).slice(0, 2)).toEqual([
      ['recent', ['acme']],
      ['injected', ['dev.porthole.wallet']],
    ])
    // It connects through the page (its live descriptor), not by a WalletConnect pairing.
    expect(registered[0]?.wallets[0]?.injected).toMatchObject({ uuid: 'external:acme' })
    const gone = sectionsOf(state({ recentWallets: recent, injected: [DEV] }))
    expect(gone.flatMap((s) => s.wallets).some((x) => x.id === 'acme')).toBe(false)
  })

  test('excludeWalletIds hides a host connector; without an EVM network it is not offered', () => {
    const excluded = state({ config: { ...state().config, excludeWalletIds: ['acme'] } })
    expect(sectionsOf(excluded).some((s) => s.type === 'external')).toBe(false)
    const solanaOnly = state({
      config: { ...state().config, networks: [resolveNetwork(SOLANA_LOCALNET_CAIP)!] },
    })
    expect(sectionsOf(solanaOnly).some((s) => s.type === 'external')).toBe(false)
  })

  test('a host connector named like the hidden legacy wallet is still shown (only the host hides its own)', () => {
    const s = state({ injected: [external('plain', 'Browser Wallet')] })
    expect(types(sectionsOf(s)).find(([type]) => type === 'external')).toEqual([
      'external',
      ['plain'],
    ])
  })

  test('below e-mail or social login its rows always show, like installed and custom ones', () => {
    const shown = shownSections(sectionsOf(state()), true)
    expect(types(shown)).toEqual([
      ['recent', ['old.wallet']],
      ['injected', ['dev.porthole.wallet']],
      ['custom', ['mine']],
      ['external', ['acme']],
    ])
  })
})
