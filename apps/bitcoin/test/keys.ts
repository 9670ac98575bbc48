/**
 * Test helpers: the test accounts' private keys (derived from the public test mnemonic) and
 * signed transfers built with `@scure/btc-signer`, as a wallet builds them.
 */
import {
  BITCOIN_REGTEST_NETWORK,
  BITCOIN_TEST_ACCOUNTS,
  BITCOIN_TEST_MNEMONIC,
} from '@porthole/shared'
import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import { p2tr, p2wpkh, Transaction } from '@scure/btc-signer'

const root = HDKey.fromMasterSeed(mnemonicToSeedSync(BITCOIN_TEST_MNEMONIC))

/** Keys of test account `index`: payment (P2WPKH) and ordinal (P2TR, x-only internal key). */
export function testKeys(index: number) {
  const account = BITCOIN_TEST_ACCOUNTS[index]!
  const payment = root.derive(account.payment.path)
  const ordinal = root.derive(account.ordinal.path)
  return {
    payment: {
      address: account.payment.address,
      privateKey: payment.privateKey!,
      publicKey: payment.publicKey!,
      script: p2wpkh(payment.publicKey!, BITCOIN_REGTEST_NETWORK).script,
    },
    ordinal: {
      address: account.ordinal.address,
      privateKey: ordinal.privateKey!,
      internalKey: ordinal.publicKey!.slice(1),
      script: p2tr(ordinal.publicKey!.slice(1), undefined, BITCOIN_REGTEST_NETWORK).script,
    },
  }
}

/** An output to spend. */
export type Spendable = { txid: string; vout: number; value: bigint }

/** Spends `from` (P2WPKH of `keys.payment`, or P2TR key path of `keys.ordinal`) to `to`. */
export function signedTransfer({
  keys,
  kind = 'payment',
  from,
  to,
  sats,
  fee = 1_000n,
  change,
}: {
  keys: ReturnType<typeof testKeys>
  kind?: 'payment' | 'ordinal'
  from: Spendable
  to: string
  sats: bigint
  fee?: bigint
  change?: string
}): Transaction {
  const tx = new Transaction()
  const own = keys[kind]
  tx.addInput({
    txid: from.txid,
    index: from.vout,
    witnessUtxo: { script: own.script, amount: from.value },
    ...(kind === 'ordinal' ? { tapInternalKey: keys.ordinal.internalKey } : {}),
  })
  tx.addOutputAddress(to, sats, BITCOIN_REGTEST_NETWORK)
  const rest = from.value - sats - fee
  if (rest > 0n) tx.addOutputAddress(change ?? own.address, rest, BITCOIN_REGTEST_NETWORK)
  tx.signIdx(own.privateKey, 0)
  tx.finalize()
  return tx
}
