/**
 * The regtest's state in the JSON shapes of the Esplora REST API (Blockstream's
 * `blockstream.info/api`, `mempool.space/api`), so clients written for it read ours.
 */
import { hex } from '@scure/base'
import { scriptType } from './address.ts'
import { scriptAsm } from './asm.ts'
import type { Chain, ChainBlock, ChainOutput, ChainTransaction } from './Chain.ts'

/** `status` of a transaction or output: everything here is confirmed. */
export type EsploraStatus =
  | { confirmed: true; block_height: number; block_hash: string; block_time: number }
  | { confirmed: false }

/** An output (`vout[]`, `vin[].prevout`). */
export type EsploraOutput = {
  scriptpubkey: string
  scriptpubkey_asm: string
  scriptpubkey_type: string
  scriptpubkey_address?: string
  value: number
}

/** `GET /tx/:txid`. */
export type EsploraTransaction = {
  txid: string
  version: number
  locktime: number
  vin: {
    txid: string
    vout: number
    prevout: EsploraOutput | null
    scriptsig: string
    scriptsig_asm: string
    witness?: string[]
    is_coinbase: boolean
    sequence: number
  }[]
  vout: EsploraOutput[]
  size: number
  weight: number
  fee: number
  status: EsploraStatus
}

/** Funded and spent outputs of an address (`chain_stats`, `mempool_stats`). */
export type EsploraAddressStats = {
  funded_txo_count: number
  funded_txo_sum: number
  spent_txo_count: number
  spent_txo_sum: number
  tx_count: number
}

/** `GET /address/:address`. */
export type EsploraAddress = {
  address: string
  chain_stats: EsploraAddressStats
  mempool_stats: EsploraAddressStats
}

/** One entry of `GET /address/:address/utxo`. */
export type EsploraUtxo = { txid: string; vout: number; value: number; status: EsploraStatus }

/** `GET /block/:hash`. */
export type EsploraBlock = {
  id: string
  height: number
  version: number
  timestamp: number
  tx_count: number
  size: number
  weight: number
  merkle_root: string
  previousblockhash: string | null
  mediantime: number
  nonce: number
  bits: number
  difficulty: number
}

/**
 * `status` of what block `height` confirmed.
 *
 * @example
 * statusJson(chain, 1) // { confirmed: true, block_height: 1, block_hash: '…', block_time: 1764000000 }
 */
export function statusJson(chain: Chain, height: number): EsploraStatus {
  const block = chain.blockAt(height)
  if (!block) return { confirmed: false }
  return { confirmed: true, block_height: height, block_hash: block.hash, block_time: block.time }
}

/**
 * An output in Esplora's shape (`value` in satoshis).
 *
 * @example
 * outputJson(tx.outputs[0]) // { scriptpubkey: '0014…', scriptpubkey_type: 'v0_p2wpkh', scriptpubkey_address: 'bcrt1q…', value: 100000000, … }
 */
export function outputJson(output: ChainOutput): EsploraOutput {
  return {
    scriptpubkey: hex.encode(output.script),
    scriptpubkey_asm: scriptAsm(output.script),
    scriptpubkey_type: scriptType(output.script),
    ...(output.address ? { scriptpubkey_address: output.address } : {}),
    value: Number(output.amount),
  }
}

/**
 * A transaction in Esplora's shape.
 *
 * @example
 * transactionJson(chain, chain.transaction(txid)!).status.confirmed // true
 */
export function transactionJson(chain: Chain, tx: ChainTransaction): EsploraTransaction {
  return {
    txid: tx.txid,
    version: tx.version,
    locktime: tx.lockTime,
    vin: tx.inputs.map((input) => ({
      txid: input.txid,
      vout: input.vout,
      prevout: input.prevout ? outputJson(input.prevout) : null,
      scriptsig: hex.encode(input.scriptSig),
      scriptsig_asm: scriptAsm(input.scriptSig),
      ...(input.witness.length ? { witness: input.witness.map((item) => hex.encode(item)) } : {}),
      is_coinbase: input.coinbase,
      sequence: input.sequence,
    })),
    vout: tx.outputs.map(outputJson),
    size: tx.size,
    weight: tx.weight,
    fee: Number(tx.fee),
    status: statusJson(chain, tx.blockHeight),
  }
}

/**
 * `GET /address/:address`: what the address received and spent (all confirmed; the mempool
 * is always empty).
 *
 * @example
 * const { chain_stats } = addressJson(chain, 'bcrt1q…')
 * chain_stats.funded_txo_sum - chain_stats.spent_txo_sum // the balance in satoshis
 */
export function addressJson(chain: Chain, address: string): EsploraAddress {
  const stats: EsploraAddressStats = {
    funded_txo_count: 0,
    funded_txo_sum: 0,
    spent_txo_count: 0,
    spent_txo_sum: 0,
    tx_count: 0,
  }
  for (const tx of chain.transactionsOf(address)) {
    stats.tx_count++
    for (const output of tx.outputs)
      if (output.address === address) {
        stats.funded_txo_count++
        stats.funded_txo_sum += Number(output.amount)
      }
    for (const input of tx.inputs)
      if (input.prevout?.address === address) {
        stats.spent_txo_count++
        stats.spent_txo_sum += Number(input.prevout.amount)
      }
  }
  return {
    address,
    chain_stats: stats,
    mempool_stats: {
      funded_txo_count: 0,
      funded_txo_sum: 0,
      spent_txo_count: 0,
      spent_txo_sum: 0,
      tx_count: 0,
    },
  }
}

/**
 * `GET /address/:address/utxo`.
 *
 * @example
 * utxosJson(chain, 'bcrt1q…') // [{ txid, vout: 0, value: 100000000, status: { confirmed: true, … } }]
 */
export function utxosJson(chain: Chain, address: string): EsploraUtxo[] {
  return chain.utxos(address).map((utxo) => ({
    txid: utxo.txid,
    vout: utxo.vout,
    value: Number(utxo.amount),
    status: statusJson(chain, utxo.blockHeight),
  }))
}

/**
 * `GET /block/:hash`. Headers here are not ground; the genesis block's own transaction is not
 * kept (its output is unspendable), so it counts 0 transactions.
 *
 * @example
 * blockJson(chain, chain.tip()).height // the tip height
 */
export function blockJson(chain: Chain, block: ChainBlock): EsploraBlock {
  const txs = block.txids.map((txid) => chain.transaction(txid)!)
  const size = 81 + txs.reduce((sum, tx) => sum + tx.size, 0)
  return {
    id: block.hash,
    height: block.height,
    version: block.height === 0 ? 1 : 0x20000000,
    timestamp: block.time,
    tx_count: txs.length,
    size,
    weight: size * 4 - txs.reduce((sum, tx) => sum + (tx.size * 4 - tx.weight), 0),
    merkle_root: block.merkleRoot,
    previousblockhash: block.previousHash ?? null,
    mediantime: block.time,
    nonce: block.height === 0 ? 2 : 0,
    bits: block.bits,
    difficulty: 4.6565423739069247e-10,
  }
}

/**
 * `GET /fee-estimates`: confirmation target (blocks) → sat/vB. Every block here confirms at
 * once, so every target gets regtest's minimum relay fee, 1 sat/vB.
 *
 * @example
 * FEE_ESTIMATES['1'] // 1
 */
export const FEE_ESTIMATES: Readonly<Record<string, number>> = Object.fromEntries(
  [...Array.from({ length: 25 }, (_, i) => i + 1), 144, 504, 1008].map((target) => [
    String(target),
    1,
  ]),
)
