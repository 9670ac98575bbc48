import type { InjectedProviderInfo } from '@porthole/protocol'
import { describe, expect, test } from 'vitest'
import type { WalletEntry } from '../store/types.js'
import { allowedNamespaces, MULTI_WALLET_NOT_ENABLED } from './multiWallet.js'
import { INVALID_CONNECTION_STATUS, switchAction } from './switchAction.js'

const metamaskEvm = { connector: { id: 'io.metamask' }, namespace: 'eip155' as const }
const phantomSolana = { connector: { id: 'solana:Phantom' }, namespace: 'solana' as const }

describe('allowedNamespaces: one wallet per namespace unless multi-wallet is on', () => {
  test('off: a second EVM wallet gets no namespace; its Solana side stays free', () => {
    const parameters = {
      multiWallet: false,
      connections: [metamaskEvm],
      connectorId: 'walletConnect',
    }
    expect(allowedNamespaces({ ...parameters, namespaces: ['eip155'] })).toEqual([])
    expect(allowedNamespaces({ ...parameters, namespaces: ['eip155', 'solana'] })).toEqual([
      'solana',
    ])
  })

  test('off: an EVM and a Solana wallet side by side (multichain), and the same wallet again', () => {
    expect(
      allowedNamespaces({
        multiWallet: false,
        connections: [metamaskEvm],
        connectorId: 'solana:Phantom',
        namespaces: ['solana'],
      }),
    ).toEqual(['solana'])
    // Connector ids compare case-insensitively (spec §3).
    expect(
      allowedNamespaces({
        multiWallet: false,
        connections: [metamaskEvm, phantomSolana],
        connectorId: 'IO.MetaMask',
        namespaces: ['eip155'],
      }),
    ).toEqual(['eip155'])
  })

  test('on: every namespace, whoever holds it', () => {
    expect(
      allowedNamespaces({
        multiWallet: true,
        connections: [metamaskEvm, phantomSolana],
        connectorId: 'AUTH',
        namespaces: ['eip155', 'solana'],
      }),
    ).toEqual(['eip155', 'solana'])
  })

  test("the error is the spec's 'Multi-wallet support is not enabled…'", () => {
    expect(MULTI_WALLET_NOT_ENABLED.startsWith('Multi-wallet support is not enabled')).toBe(true)
  })
})

const injected: InjectedProviderInfo = {
  uuid: 'u1',
  name: 'MetaMask',
  icon: '',
  rdns: 'io.metamask',
}
const metamask: WalletEntry = { id: 'io.metamask', name: 'MetaMask', image: '', injected }
const socialNames = { Google: 'google', Farcaster: 'farcaster' } as const

describe('switchAction: choosing a connection in Connected wallets (spec §4)', () => {
  test('a connected or active connection is selected', () => {
    for (const status of ['connected', 'active'])
      expect(
        switchAction({
          connector: { id: 'io.metamask', type: 'ANNOUNCED', name: 'MetaMask' },
          status,
          wallets: [metamask],
          socialNames,
        }),
      ).toEqual({ kind: 'select' })
  })

  test('a disconnected one reopens its login flow: e-mail, social, WalletConnect, the installed wallet', () => {
    const reopen = (connector: {
      id: string
      type: 'AUTH' | 'WALLET_CONNECT' | 'ANNOUNCED'
      name: string
    }) => switchAction({ connector, status: 'disconnected', wallets: [metamask], socialNames })
    expect(reopen({ id: 'AUTH', type: 'AUTH', name: 'Email' })).toEqual({
      kind: 'reopen',
      screen: { view: 'EmailLogin' },
    })
    expect(reopen({ id: 'AUTH', type: 'AUTH', name: 'Google' })).toEqual({
      kind: 'social',
      provider: 'google',
    })
    expect(reopen({ id: 'AUTH', type: 'AUTH', name: 'Farcaster' })).toEqual({
      kind: 'social',
      provider: 'farcaster',
    })
    expect(reopen({ id: 'walletConnect', type: 'WALLET_CONNECT', name: 'WalletConnect' })).toEqual({
      kind: 'reopen',
      screen: { view: 'ConnectingWalletConnect' },
    })
    expect(reopen({ id: 'IO.METAMASK', type: 'ANNOUNCED', name: 'MetaMask' })).toEqual({
      kind: 'reopen',
      screen: { view: 'ConnectingExternal', wallet: metamask },
    })
  })

  test('a disconnected wallet that is no longer installed reopens Connect', () => {
    expect(
      switchAction({
        connector: { id: 'io.rabby', type: 'ANNOUNCED', name: 'Rabby' },
        status: 'disconnected',
        wallets: [metamask],
        socialNames,
      }),
    ).toEqual({ kind: 'reopen', screen: { view: 'Connect' } })
  })

  test('an auth name that only looks like an inherited key is e-mail, not a social provider', () => {
    expect(
      switchAction({
        connector: { id: 'AUTH', type: 'AUTH', name: 'toString' },
        status: 'disconnected',
        wallets: [],
        socialNames,
      }),
    ).toEqual({ kind: 'reopen', screen: { view: 'EmailLogin' } })
  })

  // Unit only: Connected wallets passes one of the three statuses it draws, so a browser cannot
  // stage another; the rule is what keeps a future caller honest.
  test("any other status throws 'Invalid connection status'", () => {
    for (const status of ['connecting', '', 'Connected'])
      expect(() =>
        switchAction({
          connector: { id: 'io.metamask', type: 'ANNOUNCED', name: 'MetaMask' },
          status,
          wallets: [metamask],
          socialNames,
        }),
      ).toThrow(INVALID_CONNECTION_STATUS)
  })
})
