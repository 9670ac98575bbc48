import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { loadImageAssets } from '../assets/loadImageAssets.js'
import { loadCatalogue } from './catalogue.js'

const wallets = loadCatalogue()

describe('wallet catalogue', () => {
  test('lists at least 30 real wallets with unique ids, image ids and orders', () => {
    expect(wallets.length).toBeGreaterThanOrEqual(30)
    expect(new Set(wallets.map((w) => w.image_id)).size).toBe(wallets.length)
    expect(new Set(wallets.map((w) => w.order)).size).toBe(wallets.length)
    for (const name of [
      'MetaMask',
      'Trust Wallet',
      'Coinbase Wallet',
      'Rainbow',
      'Phantom',
      'OKX Wallet',
      'Ledger Live',
      'Zerion',
      'Uniswap Wallet',
      'Rabby',
      'Safe',
      'Argent',
      'imToken',
      'TokenPocket',
      'Bitget Wallet',
      'Exodus',
      '1inch Wallet',
      'Frame',
      'Brave Wallet',
      'Crypto.com DeFi Wallet',
      'SafePal',
      'Binance Web3 Wallet',
      'Taho',
      'Enkrypt',
      'Backpack',
      'Keplr',
      'Solflare',
      'Xverse',
      'Unstoppable Domains',
      'MEW wallet',
      'Zengo',
      'Coin98',
    ])
      expect(wallets.map((w) => w.name)).toContain(name)
  })

  test('keeps the known WalletConnect explorer ids', () => {
    const byName = new Map(wallets.map((w) => [w.name, w]))
    expect(byName.get('MetaMask')?.id).toBe(
      'c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96',
    )
    expect(byName.get('MetaMask')?.rdns).toBe('io.metamask')
    expect(byName.get('Coinbase Wallet')?.rdns).toBe('com.coinbase.wallet')
  })

  test('a derived id is sha256 of the name', () => {
    const derived = wallets.filter((w) => w.idSource === 'derived')
    for (const wallet of derived)
      expect(wallet.id).toBe(createHash('sha256').update(wallet.name).digest('hex'))
  })

  test('every wallet has a generated logo', () => {
    const images = loadImageAssets().wallets
    for (const wallet of wallets) expect(images.has(wallet.image_id), wallet.name).toBe(true)
    expect(images.size).toBe(wallets.length)
  })
})
