import { secp256k1 } from '@noble/curves/secp256k1'
import { BITCOIN_REGTEST_GENESIS, BITCOIN_REGTEST_NETWORK } from '@porthole/shared'
import { hex } from '@scure/base'
import { OutScript, RawTx, Transaction } from '@scure/btc-signer'
import { beforeEach, describe, expect, test } from 'vitest'
import { signedTransfer, testKeys } from '../test/keys.ts'
import { blockHash, merkleRoot, REGTEST_BITS } from './block.ts'
import { type Chain, createChain } from './Chain.ts'
import { TransactionRejectedError } from './errors.ts'

const [a0, a1, a2] = [testKeys(0), testKeys(1), testKeys(2)]

/** The reject reason `submit` throws, or 'accepted'. */
function outcome(chain: Chain, raw: Uint8Array): string {
  try {
    chain.submit(raw)
    return 'accepted'
  } catch (error) {
    if (error instanceof TransactionRejectedError) return error.reason
    throw error
  }
}

/** Re-encodes `tx` with input 0's witness replaced. */
function withWitness(tx: Transaction, witness: Uint8Array[]): Uint8Array {
  const decoded = RawTx.decode(tx.extract())
  return RawTx.encode({ ...decoded, witnesses: [witness, ...(decoded.witnesses ?? []).slice(1)] })
}

describe('block hashing', () => {
  test("the genesis header hashes to regtest's genesis block hash", () => {
    const hash = blockHash({
      version: 1,
      previousHash: '00'.repeat(32),
      merkleRoot: '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b',
      time: 1296688602,
      bits: REGTEST_BITS,
      nonce: 2,
    })
    expect(hash).toBe(BITCOIN_REGTEST_GENESIS)
  })

  test('the merkle root of one transaction is its txid; of two, their hash', () => {
    const txid = 'ab'.repeat(32)
    expect(merkleRoot([txid])).toBe(txid)
    expect(merkleRoot([txid, txid])).not.toBe(txid)
  })
})

describe('the chain', () => {
  let chain: Chain
  let funding: { txid: string }
  beforeEach(() => {
    chain = createChain({ now: () => 1_764_000_000_000 })
    funding = chain.fund([
      { address: a0.payment.address, sats: 100_000_000n },
      { address: a0.ordinal.address, sats: 50_000n },
    ])
  })

  test('starts at genesis and mines each funding into a block of its own', () => {
    expect(chain.blockAt(0)?.hash).toBe(BITCOIN_REGTEST_GENESIS)
    expect(chain.tip().height).toBe(1)
    expect(chain.tip().previousHash).toBe(BITCOIN_REGTEST_GENESIS)
    expect(chain.tip().txids).toEqual([funding.txid])
    expect(chain.utxos(a0.payment.address).map((u) => u.amount)).toEqual([100_000_000n])
  })

  test('a signed P2WPKH transfer is mined at once and moves the coins', () => {
    const tx = signedTransfer({
      keys: a0,
      from: { txid: funding.txid, vout: 0, value: 100_000_000n },
      to: a1.payment.address,
      sats: 30_000_000n,
    })
    const mined = chain.submit(tx.extract())
    expect(mined.txid).toBe(tx.id)
    expect(mined.fee).toBe(1_000n)
    expect(mined.blockHeight).toBe(2)
    expect(chain.tip().txids).toEqual([tx.id])
    expect(chain.utxos(a1.payment.address).map((u) => u.amount)).toEqual([30_000_000n])
    expect(chain.utxos(a0.payment.address).map((u) => u.amount)).toEqual([69_999_000n])
    expect(chain.spentBy(funding.txid, 0)).toEqual({ txid: tx.id, vin: 0 })
    expect(mined.weight).toBeLessThan(mined.size * 4)
  })

  test('a P2TR key-path spend is accepted', () => {
    const tx = signedTransfer({
      keys: a0,
      kind: 'ordinal',
      from: { txid: funding.txid, vout: 1, value: 50_000n },
      to: a2.payment.address,
      sats: 40_000n,
      fee: 10_000n,
    })
    expect(outcome(chain, tx.extract())).toBe('accepted')
    expect(chain.utxos(a0.ordinal.address)).toEqual([])
    expect(chain.utxos(a2.payment.address).map((u) => u.amount)).toEqual([40_000n])
  })

  test('a second spend of the same output is refused', () => {
    const from = { txid: funding.txid, vout: 0, value: 100_000_000n }
    const first = signedTransfer({ keys: a0, from, to: a1.payment.address, sats: 1_000n })
    const second = signedTransfer({ keys: a0, from, to: a2.payment.address, sats: 2_000n })
    expect(outcome(chain, first.extract())).toBe('accepted')
    expect(outcome(chain, second.extract())).toBe('bad-txns-inputs-missingorspent')
    expect(outcome(chain, first.extract())).toBe('Transaction already in block chain')
  })

  test("a P2WPKH input signed with another account's key is refused", () => {
    const tx = signedTransfer({
      keys: a0,
      from: { txid: funding.txid, vout: 0, value: 100_000_000n },
      to: a1.payment.address,
      sats: 1_000n,
    })
    const digest = tx.preimageWitnessV0(
      0,
      OutScript.encode({ type: 'pkh', hash: a0.payment.script.subarray(2) }),
      1,
      100_000_000n,
    )
    const wrong = Uint8Array.from([
      ...secp256k1.sign(digest, a1.payment.privateKey, { prehash: false }).toDERRawBytes(),
      1,
    ])
    // Account 1's key and signature: the key does not hash to the output's program.
    expect(outcome(chain, withWitness(tx, [wrong, a1.payment.publicKey]))).toBe(
      'mandatory-script-verify-flag-failed (Script failed an OP_EQUALVERIFY operation)',
    )
    // Account 0's key with account 1's signature: the signature does not verify.
    expect(outcome(chain, withWitness(tx, [wrong, a0.payment.publicKey]))).toBe(
      'mandatory-script-verify-flag-failed (Signature must be zero for failed CHECK(MULTI)SIG operation)',
    )
    expect(chain.tip().height).toBe(1)
  })

  test("a P2TR input signed with another account's key is refused", () => {
    const from = { txid: funding.txid, vout: 1, value: 50_000n }
    const tx = signedTransfer({ keys: a0, kind: 'ordinal', from, to: a2.payment.address, sats: 1n })
    // A valid key-path signature, but by account 1's ordinal key for its own output script.
    const forged = new Transaction()
    forged.addInput({
      txid: funding.txid,
      index: 1,
      witnessUtxo: { script: a1.ordinal.script, amount: 50_000n },
      tapInternalKey: a1.ordinal.internalKey,
    })
    forged.addOutputAddress(a2.payment.address, 1n, BITCOIN_REGTEST_NETWORK)
    forged.addOutputAddress(a0.ordinal.address, 50_000n - 1n - 1_000n, BITCOIN_REGTEST_NETWORK)
    forged.signIdx(a1.ordinal.privateKey, 0)
    forged.finalize()
    const signature = RawTx.decode(forged.extract()).witnesses![0]!
    expect(outcome(chain, withWitness(tx, signature))).toBe(
      'mandatory-script-verify-flag-failed (Invalid Schnorr signature)',
    )
  })

  test('a transaction changed after signing is refused', () => {
    const tx = signedTransfer({
      keys: a0,
      from: { txid: funding.txid, vout: 0, value: 100_000_000n },
      to: a1.payment.address,
      sats: 1_000n,
    })
    const decoded = RawTx.decode(tx.extract())
    decoded.outputs[0]!.amount = 2_000n
    expect(outcome(chain, RawTx.encode(decoded))).toBe(
      'mandatory-script-verify-flag-failed (Signature must be zero for failed CHECK(MULTI)SIG operation)',
    )
  })

  test('outputs worth more than the inputs are refused', () => {
    const tx = signedTransfer({
      keys: a0,
      from: { txid: funding.txid, vout: 0, value: 100_000_000n },
      to: a1.payment.address,
      sats: 1_000n,
    })
    const decoded = RawTx.decode(tx.extract())
    decoded.outputs[0]!.amount = 100_000_000n
    expect(outcome(chain, RawTx.encode(decoded))).toBe('bad-txns-in-belowout')
  })

  test('garbage and unsigned inputs are refused', () => {
    expect(outcome(chain, hex.decode('deadbeef'))).toBe('TX decode failed')
    const unsigned = RawTx.decode(
      signedTransfer({
        keys: a0,
        from: { txid: funding.txid, vout: 0, value: 100_000_000n },
        to: a1.payment.address,
        sats: 1_000n,
      }).extract(),
    )
    expect(
      outcome(chain, RawTx.encode({ ...unsigned, segwitFlag: false, witnesses: undefined })),
    ).toBe('mandatory-script-verify-flag-failed (Witness program was passed an empty witness)')
  })
})
