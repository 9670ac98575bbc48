import { describe, expect, test } from 'vitest'
import type { WalletEntry } from '../store/types.js'
import { checkAccountTypes } from './accountTypes.js'
import { fromCustomWallet } from './customWallets.js'
import { walletConnectLink } from './deepLinks.js'
import { connectSections } from './walletLists.js'

const entry = (id: string): WalletEntry => ({ id, name: id, image: '' })

describe('custom wallets', () => {
  test('are listed after the featured wallets and before the recommended ones (spec §9 order)', () => {
    const sections = connectSections({
      recent: [],
      injected: [entry('installed')],
      featured: [entry('featured')],
      custom: [fromCustomWallet({ id: 'acme', name: 'Acme' }), entry('featured')],
      recommended: [entry('acme'), entry('other')],
      excludedIds: [],
    })
    expect(sections.map((s) => [s.type, s.wallets.map((w) => w.id)])).toEqual([
      ['injected', ['installed']],
      ['featured', ['featured']],
      ['custom', ['acme']],
      ['recommended', ['other']],
    ])
  })

  test('an excluded id hides a custom wallet too', () => {
    const sections = connectSections({
      recent: [],
      injected: [],
      featured: [],
      custom: [entry('acme')],
      recommended: [],
      excludedIds: ['acme'],
    })
    expect(sections).toEqual([])
  })

  test('open on a phone through their own link (universal https or native scheme)', () => {
    const universal = fromCustomWallet({ id: 'a', name: 'A', mobile_link: 'https://a.example/app' })
    const native = fromCustomWallet({ id: 'b', name: 'B', mobile_link: 'bwallet://' })
    expect(walletConnectLink('wc:1@2', universal)?.url).toBe(
      'https://a.example/app/wc?uri=wc%3A1%402',
    )
    expect(walletConnectLink('wc:1@2', native)?.url).toBe('bwallet://wc?uri=wc%3A1%402')
  })
})

describe('defaultAccountTypes', () => {
  test('eoa (and Bitcoin payment) are accepted; other types are refused by name', () => {
    expect(checkAccountTypes({ eip155: 'eoa', solana: 'eoa', bip122: 'payment' })).toEqual([])
    expect(checkAccountTypes({ eip155: 'smartAccount' })).toEqual([])
    expect(checkAccountTypes({ solana: 'smartAccount', bip122: 'ordinal' })).toEqual([
      'Option "defaultAccountTypes.solana": "smartAccount" is not available; Porthole\'s solana accounts are eoa',
      'Option "defaultAccountTypes.bip122": "ordinal" is not available; Porthole\'s bip122 accounts are payment',
    ])
    expect(checkAccountTypes(undefined)).toEqual([])
  })
})
