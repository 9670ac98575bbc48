import { HeadlessWallet, type InjectedProviderInfo } from '@porthole/protocol'
import { resolveNetwork, SOLANA_LOCALNET_CAIP } from '@porthole/shared'
import { describe, expect, test } from 'vitest'
import { DEFAULT_CONFIG } from '../store/defaults.js'
import type { WalletEntry } from '../store/types.js'
import { type ConnectListState, connectList, visibleInjected } from './connectList.js'
import { headlessWallets, MAX_LIST_TEXT } from './headlessWallets.js'
import type { CatalogueWallet } from './walletLists.js'

const DEV: InjectedProviderInfo = {
  uuid: 'u-dev',
  name: 'Porthole Dev Wallet',
  icon: 'data:image/svg+xml,<svg/>',
  rdns: 'dev.porthole.wallet',
}
const METAMASK_INSTALLED: InjectedProviderInfo = {
  uuid: 'u-mm',
  name: 'MetaMask',
  icon: 'data:image/png;base64,AAAA',
  rdns: 'io.metamask',
}
const PHANTOM: InjectedProviderInfo = {
  uuid: 'u-sol',
  name: 'Phantom',
  icon: 'data:image/svg+xml,<svg/>',
  rdns: '',
  namespace: 'solana',
  chains: ['solana:localnet'],
}

const catalogueWallet = (id: string, name: string, rdns: string | null): CatalogueWallet => ({
  id,
  name,
  image_url: `https://api.example/getWalletImage/${id}`,
  rdns,
  homepage: null,
  order: null,
})
const METAMASK = catalogueWallet('mm-id', 'MetaMask', 'io.metamask')
const RAINBOW = catalogueWallet('rainbow-id', 'Rainbow', 'me.rainbow')
const TRUST = catalogueWallet('trust-id', 'Trust Wallet', 'com.trustwallet.app')
const ZERION = catalogueWallet('zerion-id', 'Zerion', null)

/** A wallet used on an earlier visit, whose extension is not in the page now. */
const OLD: WalletEntry = {
  id: 'old.wallet',
  name: 'Old Wallet',
  image: 'data:image/png;base64,BBBB',
  rdns: 'old.wallet',
  injected: { uuid: 'u-old', name: 'Old Wallet', icon: '', rdns: 'old.wallet' },
}

function state(overrides: Partial<ConnectListState> = {}): ConnectListState {
  return {
    injected: [DEV, METAMASK_INSTALLED, PHANTOM],
    catalogue: {
      status: 'ready',
      wallets: [METAMASK, RAINBOW, TRUST, ZERION],
      count: 400,
      page: 0,
      featured: [RAINBOW],
    },
    config: {
      ...DEFAULT_CONFIG,
      networks: [resolveNetwork('eip155:31337')!],
      featuredWalletIds: ['rainbow-id'],
    },
    connectNamespace: null,
    recentWallets: [OLD],
    ...overrides,
  }
}

const listOf = (s: ConnectListState) =>
  headlessWallets(connectList(s, visibleInjected(s)).sections, s.injected)

describe('headless wallets(): the Connect view’s list, flat', () => {
  test('WalletConnect, then recent, installed, featured, recommended (the spec’s connector order), each wallet once', () => {
    const s = state()
    const list = listOf(s)
    expect(list.map((w) => [w.section, w.id, w.type, w.installed])).toEqual([
      ['walletConnect', 'walletConnect', 'walletConnect', false],
      ['recent', 'old.wallet', 'walletConnect', false],
      ['installed', 'dev.porthole.wallet', 'injected', true],
      // The installed MetaMask carries its catalogue id and is not listed again below.
      ['installed', 'mm-id', 'injected', true],
      ['featured', 'rainbow-id', 'walletConnect', false],
      ['recommended', 'trust-id', 'walletConnect', false],
      ['recommended', 'zerion-id', 'walletConnect', false],
    ])
    // The same wallets, in the same order, as the sections the Connect view renders.
    const view = connectList(s, visibleInjected(s)).sections.flatMap((x) =>
      x.wallets.map((w) => w.id),
    )
    expect(list.slice(1).map((w) => w.id)).toEqual(view)
    // A Solana wallet is not offered while no Solana network is configured (as in Connect).
    expect(list.some((w) => w.name === 'Phantom')).toBe(false)
    for (const wallet of list) expect(HeadlessWallet.safeParse(wallet).success).toBe(true)
  })

  test('installed wallets name their namespace and keep their own icon', () => {
    const s = state({
      config: {
        ...state().config,
        networks: [resolveNetwork('eip155:31337')!, resolveNetwork(SOLANA_LOCALNET_CAIP)!],
      },
    })
    const list = listOf(s)
    expect(list.find((w) => w.id === 'dev.porthole.wallet')).toMatchObject({
      icon: DEV.icon,
      namespace: 'eip155',
    })
    // A Wallet Standard wallet: its id is its name within its namespace (as its connector's).
    expect(list.find((w) => w.name === 'Phantom')).toMatchObject({
      id: 'solana:Phantom',
      section: 'installed',
      type: 'injected',
      namespace: 'solana',
    })
    expect(list.find((w) => w.section === 'featured')).toMatchObject({
      icon: 'https://api.example/getWalletImage/rainbow-id',
    })
    expect(list.find((w) => w.section === 'featured')).not.toHaveProperty('namespace')
  })

  test('a recent wallet that is installed now connects through the page', () => {
    const s = state({ recentWallets: [{ ...OLD, id: 'dev.porthole.wallet', injected: DEV }] })
    expect(listOf(s)[1]).toMatchObject({
      id: 'dev.porthole.wallet',
      section: 'recent',
      type: 'injected',
      installed: true,
    })
    // …and is not listed a second time under installed.
    expect(listOf(s).filter((w) => w.id === 'dev.porthole.wallet')).toHaveLength(1)
  })

  test('excluded ids are left out, as in Connect', () => {
    const s = state({ config: { ...state().config, excludeWalletIds: ['trust-id', 'mm-id'] } })
    const ids = listOf(s).map((w) => w.id)
    expect(ids).not.toContain('trust-id')
    expect(ids).not.toContain('mm-id')
    expect(ids).toContain('dev.porthole.wallet')
  })

  test('an icon that is neither an image data URI nor an http(s) URL is sent empty', () => {
    const s = state({
      injected: [{ ...DEV, icon: 'javascript:alert(1)' }],
      recentWallets: [],
      catalogue: { ...state().catalogue, wallets: [{ ...TRUST, image_url: 'ftp://x/y.png' }] },
    })
    const list = listOf(s)
    expect(list.find((w) => w.id === 'dev.porthole.wallet')?.icon).toBe('')
    expect(list.find((w) => w.id === 'trust-id')?.icon).toBe('')
  })

  test('the largest icons are dropped while the list would not fit in one message', () => {
    const big = (n: number) => `data:image/png;base64,${'A'.repeat(n)}`
    const injected = Array.from({ length: 12 }, (_, i) => ({
      uuid: `u-${i}`,
      name: `Wallet ${i}`,
      icon: big(i < 6 ? 190_000 : 1000),
      rdns: `w${i}.example`,
    }))
    const list = listOf(state({ injected, recentWallets: [] }))
    expect(JSON.stringify(list).length).toBeLessThanOrEqual(MAX_LIST_TEXT)
    // The small icons stay; only as many large ones as needed go.
    // Six of 190,000 characters are 1.14 M: two go, the small ones all stay.
    expect(list.filter((w) => w.icon.length === big(1000).length)).toHaveLength(6)
    expect(list.filter((w) => w.icon === '' && w.installed)).toHaveLength(2)
  })
})
