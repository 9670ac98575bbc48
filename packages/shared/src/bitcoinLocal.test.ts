import { hex } from '@scure/base'
import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import { p2tr, p2wpkh } from '@scure/btc-signer'
import { expect, test } from 'vitest'
import {
  BITCOIN_REGTEST_CAIP,
  BITCOIN_REGTEST_GENESIS,
  BITCOIN_REGTEST_NETWORK,
  BITCOIN_TEST_ACCOUNTS,
  BITCOIN_TEST_MNEMONIC,
} from './bitcoinLocal.js'

test('the test accounts are what the mnemonic derives (BIP84 payment, BIP86 ordinal)', () => {
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(BITCOIN_TEST_MNEMONIC))
  const derived = [0, 1, 2].map((index) => {
    const payment = root.derive(`m/84'/1'/0'/0/${index}`).publicKey!
    const internal = root.derive(`m/86'/1'/0'/0/${index}`).publicKey!.slice(1)
    return {
      index,
      payment: {
        path: `m/84'/1'/0'/0/${index}`,
        address: p2wpkh(payment, BITCOIN_REGTEST_NETWORK).address,
        publicKey: hex.encode(payment),
      },
      ordinal: {
        path: `m/86'/1'/0'/0/${index}`,
        address: p2tr(internal, undefined, BITCOIN_REGTEST_NETWORK).address,
        publicKey: hex.encode(internal),
      },
    }
  })
  expect(derived).toEqual(BITCOIN_TEST_ACCOUNTS)
})

test('payment addresses are native segwit v0 and ordinal addresses taproot, on regtest', () => {
  for (const account of BITCOIN_TEST_ACCOUNTS) {
    expect(account.payment.address).toMatch(/^bcrt1q[02-9ac-hj-np-z]{38}$/)
    expect(account.ordinal.address).toMatch(/^bcrt1p[02-9ac-hj-np-z]{58}$/)
  }
})

test('the CAIP-2 id is bip122 and the first 32 hex characters of the genesis hash', () => {
  expect(BITCOIN_REGTEST_CAIP).toBe('bip122:0f9188f13cb7b2c71f2a335e3a4fc328')
  expect(BITCOIN_REGTEST_GENESIS.startsWith(BITCOIN_REGTEST_CAIP.slice(7))).toBe(true)
})
