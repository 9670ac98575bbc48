/**
 * Block and transaction hashing of the regtest: txids, merkle roots, block header hashes and
 * the coinbase transactions that create coins (the faucet and the start-up funding).
 */
import { sha256 } from '@noble/hashes/sha2'
import { hex } from '@scure/base'
import { RawTx, Script } from '@scure/btc-signer'

/** Regtest's proof-of-work target in compact form (`nBits`); headers here are not ground. */
export const REGTEST_BITS = 0x207fffff

const sha256d = (data: Uint8Array) => sha256(sha256(data))
/** Display order (big-endian hex) ↔ internal byte order. */
const reversed = (bytes: Uint8Array) => Uint8Array.from(bytes).reverse()

/** A decoded transaction as `RawTx` gives it. */
export type RawTransaction = ReturnType<typeof RawTx.decode>

/**
 * The txid of a transaction: sha256d of its serialization without witnesses, in display order.
 *
 * @example
 * txidOf(RawTx.decode(raw)) // 'f4184fc5…'
 */
export function txidOf(tx: RawTransaction): string {
  return hex.encode(reversed(sha256d(strippedBytes(tx))))
}

/**
 * The serialization without witnesses (its length is the "base size" of BIP141 weight).
 *
 * @example
 * const weight = strippedBytes(tx).length * 3 + raw.length
 */
export function strippedBytes(tx: RawTransaction): Uint8Array {
  return RawTx.encode({ ...tx, segwitFlag: false, witnesses: undefined })
}

/**
 * The merkle root of txids (display order in and out), Bitcoin's way: an odd level repeats its
 * last hash.
 *
 * @example
 * merkleRoot([txid]) // txid: a block of one transaction has that txid as its root
 */
export function merkleRoot(txids: readonly string[]): string {
  if (txids.length === 0) return '00'.repeat(32)
  let level: Uint8Array[] = txids.map((txid) => reversed(hex.decode(txid)))
  while (level.length > 1) {
    const next: Uint8Array[] = []
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i]!
      const right = level[i + 1] ?? left
      const pair = new Uint8Array(64)
      pair.set(left)
      pair.set(right, 32)
      next.push(sha256d(pair))
    }
    level = next
  }
  return hex.encode(reversed(level[0]!))
}

/** The fields of an 80-byte block header. */
export type BlockHeader = {
  version: number
  previousHash: string
  merkleRoot: string
  time: number
  bits: number
  nonce: number
}

/**
 * The hash of a block header (sha256d of its 80 bytes, display order).
 *
 * @example
 * blockHash({ version: 0x20000000, previousHash, merkleRoot, time, bits: REGTEST_BITS, nonce: 0 })
 */
export function blockHash(header: BlockHeader): string {
  const bytes = new Uint8Array(80)
  const view = new DataView(bytes.buffer)
  view.setInt32(0, header.version, true)
  bytes.set(reversed(hex.decode(header.previousHash)), 4)
  bytes.set(reversed(hex.decode(header.merkleRoot)), 36)
  view.setUint32(68, header.time, true)
  view.setUint32(72, header.bits, true)
  view.setUint32(76, header.nonce, true)
  return hex.encode(reversed(sha256d(bytes)))
}

/**
 * A coinbase transaction of block `height` paying `outputs`: one input spending the null
 * outpoint, its scriptSig starting with the height (BIP34) and a tag.
 *
 * @example
 * const raw = coinbase(1, [{ script, amount: 100_000_000n }])
 */
export function coinbase(
  height: number,
  outputs: readonly { script: Uint8Array; amount: bigint }[],
): Uint8Array {
  const heightBytes: number[] = []
  for (let rest = height; rest > 0; rest = Math.floor(rest / 256)) heightBytes.push(rest % 256)
  if ((heightBytes[heightBytes.length - 1] ?? 0) & 0x80) heightBytes.push(0)
  const scriptSig = Script.encode([
    Uint8Array.from(heightBytes.length ? heightBytes : [0]),
    new TextEncoder().encode('porthole regtest'),
  ])
  return RawTx.encode({
    version: 2,
    segwitFlag: false,
    inputs: [
      {
        txid: new Uint8Array(32),
        index: 0xffffffff,
        finalScriptSig: scriptSig,
        sequence: 0xffffffff,
      },
    ],
    outputs: outputs.map(({ script, amount }) => ({ script, amount })),
    witnesses: undefined,
    lockTime: 0,
  })
}
