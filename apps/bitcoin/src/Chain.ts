/**
 * The regtest's state: a chain of blocks from regtest's real genesis, the transactions in
 * them, the unspent outputs, and an index by address. Transactions are checked like a node
 * checks them (inputs unspent, amounts balanced, signatures valid; see {@link Chain.submit})
 * and each accepted one is mined at once into a block of its own: no mempool, instant
 * confirmation. Blocks are not proof-of-work ground, coinbase outputs have no maturity, lock
 * times and sequence locks are not enforced, and of bitcoind's standardness policy only the
 * version rule (1 to 3) is applied (no dust or minimum fee rule: a fee of 0 is accepted).
 */
import { BITCOIN_REGTEST_GENESIS } from '@porthole/shared'
import { hex } from '@scure/base'
import { RawTx, Transaction } from '@scure/btc-signer'
import { addressOf, normalizeAddress, scriptOf } from './address.ts'
import {
  blockHash,
  coinbase,
  merkleRoot,
  type RawTransaction,
  REGTEST_BITS,
  strippedBytes,
  txidOf,
} from './block.ts'
import { RPC_ERROR, TransactionRejectedError } from './errors.ts'
import { type Prevout, verifyInput } from './verifyInput.ts'

/** 21 million BTC in satoshis: no output or total may exceed it. */
export const MAX_MONEY = 2_100_000_000_000_000n

/** Regtest genesis block's time (2011-02-02). */
const GENESIS_TIME = 1296688602
const GENESIS_MERKLE_ROOT = '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b'

/** An output of a transaction. */
export type ChainOutput = {
  script: Uint8Array
  amount: bigint
  /** The regtest address it pays, if it pays one. */
  address: string | undefined
}

/** An input of a transaction. */
export type ChainInput = {
  /** The transaction whose output it spends (`00…00` for a coinbase). */
  txid: string
  vout: number
  sequence: number
  scriptSig: Uint8Array
  witness: Uint8Array[]
  coinbase: boolean
  /** The output it spends (undefined for a coinbase). */
  prevout: ChainOutput | undefined
}

/** A confirmed transaction. */
export type ChainTransaction = {
  txid: string
  raw: Uint8Array
  version: number
  lockTime: number
  inputs: ChainInput[]
  outputs: ChainOutput[]
  /** Bytes with witnesses. */
  size: number
  /** BIP141 weight. */
  weight: number
  /** Inputs minus outputs (0 for a coinbase). */
  fee: bigint
  blockHeight: number
}

/** A block. */
export type ChainBlock = {
  height: number
  hash: string
  previousHash: string | undefined
  merkleRoot: string
  time: number
  bits: number
  txids: string[]
}

/** An unspent output. */
export type Utxo = {
  txid: string
  vout: number
  amount: bigint
  script: Uint8Array
  blockHeight: number
}

/** Where an output was spent. */
export type Spend = { txid: string; vin: number }

/** The regtest's state and the ways to change it. */
export type Chain = {
  /** The newest block. */
  tip(): ChainBlock
  /** The block at `height`, if any. */
  blockAt(height: number): ChainBlock | undefined
  /** The block with `hash`, if any. */
  block(hash: string): ChainBlock | undefined
  /** A confirmed transaction. */
  transaction(txid: string): ChainTransaction | undefined
  /** The input spending output `vout` of `txid`, if it was spent. */
  spentBy(txid: string, vout: number): Spend | undefined
  /** Unspent outputs paying `address` (canonical form), oldest first. */
  utxos(address: string): Utxo[]
  /** Transactions paying or spending from `address` (canonical form), oldest first. */
  transactionsOf(address: string): ChainTransaction[]
  /**
   * Checks a raw signed transaction and mines it into a new block. Throws
   * {@link TransactionRejectedError} when it is not valid.
   */
  submit(raw: Uint8Array): ChainTransaction
  /** Mines a block whose coinbase pays `outputs` (amounts in satoshis): new coins. */
  fund(outputs: readonly { address: string; sats: bigint }[]): ChainTransaction
}

/** Options of {@link createChain}. */
export type CreateChainParameters = {
  /** Block times come from this clock (ms); default `Date.now`. */
  now?: () => number
}

const reject = (code: number, reason: string) => new TransactionRejectedError(code, reason)
const outpoint = (txid: string, vout: number) => `${txid}:${vout}`

/**
 * A regtest holding only its genesis block.
 *
 * @example
 * const chain = createChain()
 * chain.fund([{ address: 'bcrt1q…', sats: 100_000_000n }])
 * const tx = chain.submit(signedRawTransaction)
 * tx.blockHeight // 2
 */
export function createChain({ now = Date.now }: CreateChainParameters = {}): Chain {
  const blocks: ChainBlock[] = [
    {
      height: 0,
      hash: BITCOIN_REGTEST_GENESIS,
      previousHash: undefined,
      merkleRoot: GENESIS_MERKLE_ROOT,
      time: GENESIS_TIME,
      bits: REGTEST_BITS,
      txids: [],
    },
  ]
  const byHash = new Map(blocks.map((block) => [block.hash, block]))
  const transactions = new Map<string, ChainTransaction>()
  const unspent = new Map<string, Utxo>()
  const spends = new Map<string, Spend>()
  const byAddress = new Map<string, string[]>()

  const tip = () => blocks[blocks.length - 1]!

  /** Appends a block holding `tx` and applies it to the UTXO set and the address index. */
  const mine = (tx: Omit<ChainTransaction, 'blockHeight'>): ChainTransaction => {
    const previous = tip()
    const height = previous.height + 1
    const header = {
      version: 0x20000000,
      previousHash: previous.hash,
      merkleRoot: merkleRoot([tx.txid]),
      time: Math.max(Math.floor(now() / 1000), previous.time),
      bits: REGTEST_BITS,
      nonce: 0,
    }
    const block: ChainBlock = {
      height,
      hash: blockHash(header),
      previousHash: previous.hash,
      merkleRoot: header.merkleRoot,
      time: header.time,
      bits: header.bits,
      txids: [tx.txid],
    }
    blocks.push(block)
    byHash.set(block.hash, block)
    const confirmed = { ...tx, blockHeight: height }
    transactions.set(tx.txid, confirmed)
    const touched = new Set<string>()
    tx.inputs.forEach((input, vin) => {
      if (input.coinbase) return
      unspent.delete(outpoint(input.txid, input.vout))
      spends.set(outpoint(input.txid, input.vout), { txid: tx.txid, vin })
      if (input.prevout?.address) touched.add(input.prevout.address)
    })
    tx.outputs.forEach((output, vout) => {
      // OP_RETURN outputs are provably unspendable: never in the UTXO set.
      if (output.script[0] !== 0x6a)
        unspent.set(outpoint(tx.txid, vout), {
          txid: tx.txid,
          vout,
          amount: output.amount,
          script: output.script,
          blockHeight: height,
        })
      if (output.address) touched.add(output.address)
    })
    for (const address of touched)
      byAddress.set(address, [...(byAddress.get(address) ?? []), tx.txid])
    return confirmed
  }

  const outputsOf = (decoded: RawTransaction): ChainOutput[] =>
    decoded.outputs.map((output) => ({
      script: output.script,
      amount: output.amount,
      address: addressOf(output.script),
    }))

  const describe = (
    raw: Uint8Array,
    decoded: RawTransaction,
    prevouts: (ChainOutput | undefined)[],
  ): Omit<ChainTransaction, 'blockHeight' | 'fee'> => ({
    txid: txidOf(decoded),
    raw,
    version: decoded.version,
    lockTime: decoded.lockTime,
    inputs: decoded.inputs.map((input, i) => ({
      txid: hex.encode(input.txid),
      vout: input.index,
      sequence: input.sequence,
      scriptSig: input.finalScriptSig,
      witness: decoded.witnesses?.[i] ?? [],
      coinbase: prevouts[i] === undefined,
      prevout: prevouts[i],
    })),
    outputs: outputsOf(decoded),
    size: raw.length,
    weight: strippedBytes(decoded).length * 3 + raw.length,
  })

  return {
    tip,
    blockAt: (height) => blocks[height],
    block: (hash) => byHash.get(hash.toLowerCase()),
    transaction: (txid) => transactions.get(txid.toLowerCase()),
    spentBy: (txid, vout) => spends.get(outpoint(txid.toLowerCase(), vout)),
    utxos: (address) => [...unspent.values()].filter((utxo) => addressOf(utxo.script) === address),
    transactionsOf: (address) =>
      (byAddress.get(address) ?? []).map((txid) => transactions.get(txid)!),

    submit(raw) {
      let decoded: RawTransaction
      let tx: Transaction
      try {
        decoded = RawTx.decode(raw)
      } catch {
        throw reject(RPC_ERROR.deserialization, 'TX decode failed')
      }
      // Standardness, as bitcoind's policy: versions 1 to 3 only.
      if (![1, 2, 3].includes(decoded.version)) throw reject(RPC_ERROR.rejected, 'version')
      try {
        tx = Transaction.fromRaw(raw, {
          allowUnknownInputs: true,
          allowUnknownOutputs: true,
          disableScriptCheck: true,
        })
      } catch {
        throw reject(RPC_ERROR.deserialization, 'TX decode failed')
      }
      const txid = txidOf(decoded)
      if (transactions.has(txid))
        throw reject(RPC_ERROR.alreadyInChain, 'Transaction already in block chain')
      if (decoded.inputs.length === 0) throw reject(RPC_ERROR.rejected, 'bad-txns-vin-empty')
      if (decoded.outputs.length === 0) throw reject(RPC_ERROR.rejected, 'bad-txns-vout-empty')
      let totalOut = 0n
      for (const output of decoded.outputs) {
        if (output.amount > MAX_MONEY) throw reject(RPC_ERROR.rejected, 'bad-txns-vout-toolarge')
        totalOut += output.amount
        if (totalOut > MAX_MONEY) throw reject(RPC_ERROR.rejected, 'bad-txns-txouttotal-toolarge')
      }
      const seen = new Set<string>()
      const prevouts: ChainOutput[] = decoded.inputs.map((input) => {
        const key = outpoint(hex.encode(input.txid), input.index)
        if (seen.has(key)) throw reject(RPC_ERROR.rejected, 'bad-txns-inputs-duplicate')
        seen.add(key)
        const utxo = unspent.get(key)
        if (!utxo) throw reject(RPC_ERROR.verify, 'bad-txns-inputs-missingorspent')
        return { script: utxo.script, amount: utxo.amount, address: addressOf(utxo.script) }
      })
      const totalIn = prevouts.reduce((sum, prevout) => sum + prevout.amount, 0n)
      if (totalIn < totalOut) throw reject(RPC_ERROR.rejected, 'bad-txns-in-belowout')
      const checked: Prevout[] = prevouts.map(({ script, amount }) => ({ script, amount }))
      decoded.inputs.forEach((input, index) => {
        verifyInput({
          tx,
          index,
          prevouts: checked,
          scriptSig: input.finalScriptSig,
          witness: decoded.witnesses?.[index] ?? [],
        })
      })
      return mine({ ...describe(raw, decoded, prevouts), fee: totalIn - totalOut })
    },

    fund(outputs) {
      if (outputs.length === 0) throw new RangeError('fund: no outputs')
      const paid = outputs.map(({ address, sats }) => {
        const canonical = normalizeAddress(address)
        if (!canonical) throw new RangeError(`fund: not a regtest address: ${address}`)
        if (sats <= 0n || sats > MAX_MONEY)
          throw new RangeError(`fund: ${sats} sats is not between 1 and 21 million BTC`)
        return { script: scriptOf(canonical), amount: sats }
      })
      const raw = coinbase(tip().height + 1, paid)
      const decoded = RawTx.decode(raw)
      return mine({ ...describe(raw, decoded, [undefined]), fee: 0n })
    },
  }
}
