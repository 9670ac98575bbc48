import { expect, test } from 'vitest'
import { createBitcoinAdapter, isBitcoinWallet } from './bitcoinAdapter.js'
import { type FakeWallet, fakeBitcoinWallet, fakeSolanaWallet } from './fakeStandardWallet.js'

/** The accounts the fake wallet grants. */
const connected = async (wallet: FakeWallet) =>
  (
    await (
      wallet.features['standard:connect'] as {
        connect(): Promise<{ accounts: FakeWallet['accounts'] }>
      }
    ).connect()
  ).accounts

test('the four bip122 methods pass through to bitcoin:request unchanged', async () => {
  const wallet = fakeBitcoinWallet()
  wallet.setAccounts([...(await connected(wallet))])
  wallet.calls.length = 0
  const adapter = createBitcoinAdapter(wallet)
  const params = { account: 'bcrt1qfake', recipientAddress: 'bcrt1qother', amount: '1000' }
  expect(await adapter.request({ method: 'sendTransfer', params })).toEqual({
    echoed: { method: 'sendTransfer', params },
  })
  for (const method of ['getAccountAddresses', 'signMessage', 'signPsbt'])
    await adapter.request({ method, params: {} })
  expect(wallet.calls.map((c) => (c.input as { method: string }).method)).toEqual([
    'sendTransfer',
    'getAccountAddresses',
    'signMessage',
    'signPsbt',
  ])
})

test('a wallet with standard:connect and no account is connected first: silently, then asking for getAccountAddresses', async () => {
  const wallet = fakeBitcoinWallet()
  const connect = wallet.features['standard:connect'] as {
    connect(input?: { silent?: boolean }): Promise<{ accounts: unknown[] }>
  }
  const silentNothing = async (input?: { silent?: boolean }) => {
    wallet.calls.push({ feature: 'standard:connect', input })
    return { accounts: [] }
  }
  const original = connect.connect
  connect.connect = async (input) => (input?.silent ? silentNothing(input) : original(input))
  const adapter = createBitcoinAdapter(wallet)
  await adapter.request({ method: 'getAccountAddresses', params: {} })
  expect(wallet.calls.map((c) => [c.feature, c.input])).toEqual([
    ['standard:connect', { silent: true }],
    ['standard:connect', undefined],
    ['bitcoin:request', { method: 'getAccountAddresses', params: {} }],
  ])
  // Connected now: nothing more before the next call.
  await adapter.request({ method: 'signMessage', params: {} })
  expect(wallet.calls.at(-2)?.feature).toBe('bitcoin:request')
})

test('other methods are refused with 4200 before the wallet sees them', async () => {
  const wallet = fakeBitcoinWallet()
  for (const method of ['getBalance', 'wallet_connect', 'signMultipleTransactions'])
    await expect(createBitcoinAdapter(wallet).request({ method })).rejects.toMatchObject({
      code: 4200,
    })
  expect(wallet.calls).toEqual([])
})

test('account changes are followed as accountsChanged with the Bitcoin addresses', () => {
  const wallet = fakeBitcoinWallet()
  const seen: string[][] = []
  const off = createBitcoinAdapter(wallet).on('accountsChanged', (a) => seen.push(a))
  wallet.setAccounts([
    {
      address: 'bcrt1qnew',
      publicKey: new Uint8Array(33),
      chains: ['bitcoin:regtest'],
      features: [],
    },
  ])
  off()
  wallet.setAccounts([])
  expect(seen).toEqual([['bcrt1qnew']])
})

test('isBitcoinWallet wants a bitcoin chain and a bitcoin:request feature', () => {
  expect(isBitcoinWallet(fakeBitcoinWallet())).toBe(true)
  expect(isBitcoinWallet(fakeSolanaWallet())).toBe(false)
})
