import type { InjectedProviderInfo } from '@porthole/protocol'
import { describe, expect, test } from 'vitest'
import type { WalletEntry } from '../store/types.js'
import { backTarget } from './backTarget.js'
import { type NetworkSwitchViewParameters, networkSwitchView } from './networkSwitchView.js'
import { openingScreen } from './openingScreen.js'
import { shouldShowUnsupportedChain } from './unsupportedChain.js'
import { allWalletsOrder, connectSections, isInjectedHidden } from './walletLists.js'

describe('opening rules (spec §2)', () => {
  test.each([
    [{ connected: true, hasAdapters: true, isMobile: false }, 'Account'],
    [{ connected: false, hasAdapters: true, isMobile: false }, 'Connect'],
    [{ connected: false, hasAdapters: true, isMobile: true }, 'Connect'],
    [{ connected: false, hasAdapters: false, isMobile: true }, 'AllWallets'],
    [{ connected: false, hasAdapters: false, isMobile: false }, 'ConnectingWalletConnect'],
    [
      { connected: true, hasAdapters: true, isMobile: false, requested: 'Networks' as const },
      'Networks',
    ],
    [
      { connected: false, hasAdapters: true, isMobile: false, requested: 'AllWallets' as const },
      'AllWallets',
    ],
    [
      { connected: false, hasAdapters: true, isMobile: false, requested: 'Account' as const },
      'Connect',
    ],
  ])('%j → %s', (parameters, view) => {
    expect(openingScreen(parameters).view).toBe(view)
  })
})

describe('back navigation (spec §2)', () => {
  test('pops the history', () => {
    expect(backTarget([{ view: 'Connect' }, { view: 'AllWallets' }], false)).toEqual({
      history: [{ view: 'Connect' }],
    })
  })
  test('closes at the first view', () => {
    expect(backTarget([{ view: 'Connect' }], false)).toBe('close')
    expect(backTarget([{ view: 'Account' }], true)).toBe('close')
  })
  test('from Connect while connected shows Account', () => {
    expect(backTarget([{ view: 'Connect' }], true)).toEqual({ history: [{ view: 'Account' }] })
  })
})

describe('network-switch view choice (spec §2)', () => {
  const base: NetworkSwitchViewParameters = {
    targetId: 'eip155:8453',
    targetNamespace: 'eip155',
    activeId: 'eip155:1',
    requireConfirmation: false,
    authConnectorActive: false,
    authNamespaces: ['eip155', 'solana'],
    connected: true,
    accountNamespaces: ['eip155'],
  }
  test.each<[Partial<NetworkSwitchViewParameters>, string]>([
    [{ targetId: 'eip155:1' }, 'none'],
    [{ requireConfirmation: true }, 'confirm'],
    [{ authConnectorActive: true }, 'confirm'],
    [
      { authConnectorActive: true, targetNamespace: 'bip122', targetId: 'bip122:000' },
      'SwitchActiveChain',
    ],
    [{ targetNamespace: 'solana', targetId: 'solana:5eyk' }, 'SwitchActiveChain'],
    [
      {
        targetNamespace: 'solana',
        targetId: 'solana:5eyk',
        connected: false,
        accountNamespaces: [],
      },
      'SwitchNetwork',
    ],
    [{}, 'SwitchNetwork'],
  ])('%j → %s', (change, expected) => {
    expect(networkSwitchView({ ...base, ...change })).toBe(expected)
  })
})

describe('UnsupportedChain conditions (spec §2)', () => {
  const base = {
    connected: true,
    activeNetworkId: 'eip155:7',
    supportedNetworkIds: ['eip155:1'],
    enableNetworkSwitch: true,
    allowUnsupportedChain: false,
    basic: false,
  }
  test.each([
    [{}, true],
    [{ activeNetworkId: 'eip155:1' }, false],
    [{ enableNetworkSwitch: false }, false],
    [{ allowUnsupportedChain: true }, false],
    [{ basic: true }, false],
    [{ connected: false }, false],
  ])('%j → %s', (change, expected) => {
    expect(shouldShowUnsupportedChain({ ...base, ...change })).toBe(expected)
  })
})

const info = (name: string, rdns: string): InjectedProviderInfo => ({
  uuid: `u-${name}`,
  name,
  rdns,
  icon: '',
})

describe('injected wallet hiding (spec §5)', () => {
  const desktop = { isMobile: false, excludedRdns: [], excludedNames: [] }
  const mobile = { ...desktop, isMobile: true }
  test.each([
    [info('Browser Wallet', ''), desktop, true],
    [{ ...info('Browser Wallet', ''), installed: true }, mobile, false],
    [{ ...info('Browser Wallet', ''), installed: false }, mobile, true],
    [{ ...info('Browser Wallet', 'x.y'), installed: false }, mobile, false],
    [info('MetaMask', 'io.metamask'), desktop, false],
    [info('MetaMask', 'io.metamask'), { ...desktop, excludedRdns: ['io.metamask'] }, true],
    [info('MetaMask', 'io.metamask'), { ...desktop, excludedNames: ['metamask'] }, true],
  ])('%j on %j → hidden %s', (wallet, parameters, hidden) => {
    expect(isInjectedHidden(wallet, parameters)).toBe(hidden)
  })
})

const w = (id: string, extra: Partial<WalletEntry> = {}): WalletEntry => ({
  id,
  name: id,
  image: '',
  ...extra,
})

describe('Connect view wallet sections (spec §9 connector order)', () => {
  test('recent, injected, featured, recommended; each wallet once; recommended capped at 4', () => {
    const sections = connectSections({
      recent: [w('rainbow', { rdns: 'me.rainbow' })],
      injected: [w('metamask', { rdns: 'io.metamask' }), w('rainbow-ext', { rdns: 'me.rainbow' })],
      featured: [w('trust'), w('metamask')],
      recommended: ['a', 'b', 'c', 'd', 'e', 'trust'].map((id) => w(id)),
      excludedIds: ['c'],
    })
    expect(sections.map((s) => [s.type, s.wallets.map((x) => x.id)])).toEqual([
      ['recent', ['rainbow']],
      ['injected', ['metamask']],
      ['featured', ['trust']],
      ['recommended', ['a', 'b', 'd', 'e']],
    ])
  })

  test('AllWallets puts installed wallets first', () => {
    const list = allWalletsOrder([w('a'), w('b', { injected: info('B', 'b') }), w('a'), w('c')])
    expect(list.map((x) => x.id)).toEqual(['b', 'a', 'c'])
  })
})
