/**
 * The indexer's side of the database: the cursor per chain, batched writes of a decoded block
 * range in one transaction (with a compare-and-set on the cursor, so two indexers on one
 * database cannot both apply a range), reorg rollback and full reset. Portable SQL only.
 */
import type { Db, DbExecutor, SqlValue } from '../db/Db.js'
import {
  type AccountTokenRow,
  type AccountTxRow,
  type BlockRow,
  type NftOwnerRow,
  type TransactionRow,
  type TransferRow,
  tokenKey,
} from './decode.js'

/** Where indexing of a chain stands. */
export type ChainCursor = { genesisHash: string; blockNumber: number; blockHash: string }

/** Token metadata as stored (`chain_tokens`). */
export type TokenRow = {
  chainId: string
  address: string
  kind: 'erc20' | 'erc721'
  name: string
  symbol: string
  decimals: number
}

/**
 * Thrown when the stored cursor moved under a write (another indexer); the range is retried.
 *
 * @example
 * await writeRange(db, { …, previous: stale }) // throws CursorMovedError
 */
export class CursorMovedError extends Error {
  override name = 'CursorMovedError' as const
}

/**
 * The stored cursor of `chainId`, or `undefined` before the first range.
 *
 * @example
 * const cursor = await readCursor(db, 'eip155:31337') // { genesisHash, blockNumber: 120, blockHash }
 */
export async function readCursor(
  db: DbExecutor,
  chainId: string,
): Promise<ChainCursor | undefined> {
  const [row] = await db.query<{ genesis_hash: string; block_number: number; block_hash: string }>(
    'SELECT genesis_hash, block_number, block_hash FROM chain_cursors WHERE chain_id = ?',
    [chainId],
  )
  return row
    ? {
        genesisHash: row.genesis_hash,
        blockNumber: Number(row.block_number),
        blockHash: row.block_hash,
      }
    : undefined
}

/** Input of {@link writeRange}. */
export type WriteRangeParameters = {
  chainId: string
  genesisHash: string
  /** The cursor the range continues from (`undefined` for the first range). */
  previous: ChainCursor | undefined
  /** The new cursor: the range's last block. */
  next: { blockNumber: number; blockHash: string }
  blocks: readonly BlockRow[]
  transactions: readonly TransactionRow[]
  transfers: readonly TransferRow[]
  accountTxs: readonly AccountTxRow[]
  accountTokens: readonly AccountTokenRow[]
  nftOwners: readonly NftOwnerRow[]
  /** Metadata of contracts seen for the first time. */
  tokens: readonly TokenRow[]
  /** How many recent blocks to remember for reorg checks; default 256. */
  keepBlocks?: number
}

/**
 * Stores a decoded block range and moves the cursor, in one transaction. Rows already present
 * are left alone (a retried range is harmless). Throws {@link CursorMovedError} when the
 * stored cursor is not `previous` any more.
 *
 * @example
 * await writeRange(db, { chainId, genesisHash, previous, next, ...decoded, ...accountRows(…), tokens: [] })
 */
export async function writeRange(db: Db, parameters: WriteRangeParameters): Promise<void> {
  const { chainId, previous, next, keepBlocks = 256 } = parameters
  const now = Date.now()
  await db.transaction(async (tx) => {
    if (previous) {
      const { rowsAffected } = await tx.execute(
        `UPDATE chain_cursors SET block_number = ?, block_hash = ?, updated_at = ?
         WHERE chain_id = ? AND block_number = ? AND block_hash = ? AND genesis_hash = ?`,
        [
          next.blockNumber,
          next.blockHash,
          now,
          chainId,
          previous.blockNumber,
          previous.blockHash,
          previous.genesisHash,
        ],
      )
      if (rowsAffected !== 1) throw new CursorMovedError(`${chainId}: the cursor moved`)
    } else {
      const existing = await tx.query('SELECT 1 AS x FROM chain_cursors WHERE chain_id = ?', [
        chainId,
      ])
      if (existing.length) throw new CursorMovedError(`${chainId}: the cursor appeared`)
      await tx.execute(
        `INSERT INTO chain_cursors (chain_id, genesis_hash, block_number, block_hash, updated_at)
         VALUES (?, ?, ?, ?, ?)`,
        [chainId, parameters.genesisHash, next.blockNumber, next.blockHash, now],
      )
    }
    const blocks = parameters.blocks.slice(-keepBlocks)
    await insertRows(
      tx,
      'chain_blocks (chain_id, number, hash, timestamp)',
      blocks.map((b) => [b.chainId, b.number, b.hash, b.timestamp]),
      'ON CONFLICT (chain_id, number) DO UPDATE SET hash = excluded.hash, timestamp = excluded.timestamp',
    )
    await tx.execute('DELETE FROM chain_blocks WHERE chain_id = ? AND number <= ?', [
      chainId,
      next.blockNumber - keepBlocks,
    ])
    await insertRows(
      tx,
      'chain_transactions (chain_id, hash, block_number, tx_index, timestamp, from_address, to_address, nonce, status)',
      parameters.transactions.map((t) => [
        t.chainId,
        t.hash,
        t.blockNumber,
        t.txIndex,
        t.timestamp,
        t.from,
        t.to,
        t.nonce,
        t.status,
      ]),
      'ON CONFLICT (chain_id, hash) DO NOTHING',
    )
    await insertRows(
      tx,
      'chain_transfers (chain_id, tx_hash, log_index, block_number, kind, token, from_address, to_address, amount, token_id)',
      parameters.transfers.map((t) => [
        t.chainId,
        t.txHash,
        t.logIndex,
        t.blockNumber,
        t.kind,
        t.token,
        t.from,
        t.to,
        t.amount,
        t.tokenId,
      ]),
      'ON CONFLICT (chain_id, tx_hash, log_index) DO NOTHING',
    )
    await insertRows(
      tx,
      'chain_account_txs (account, chain_id, timestamp, block_number, tx_index, tx_hash)',
      parameters.accountTxs.map((a) => [
        a.account,
        a.chainId,
        a.timestamp,
        a.blockNumber,
        a.txIndex,
        a.txHash,
      ]),
      'ON CONFLICT (account, chain_id, block_number, tx_index) DO NOTHING',
    )
    await insertRows(
      tx,
      'chain_account_tokens (chain_id, account, token, kind, first_block)',
      parameters.accountTokens.map((a) => [a.chainId, a.account, a.token, a.kind, a.firstBlock]),
      'ON CONFLICT (chain_id, account, token) DO NOTHING',
    )
    await insertRows(
      tx,
      'chain_tokens (chain_id, address, kind, name, symbol, decimals, updated_at)',
      parameters.tokens.map((t) => [
        t.chainId,
        t.address,
        t.kind,
        t.name,
        t.symbol,
        t.decimals,
        now,
      ]),
      'ON CONFLICT (chain_id, address) DO NOTHING',
    )
    await insertRows(
      tx,
      'chain_nfts (chain_id, contract, token_id, token_key, owner, block_number, log_index, metadata_state)',
      parameters.nftOwners.map((n) => [
        n.chainId,
        n.contract,
        n.tokenId,
        tokenKey(n.tokenId),
        n.owner,
        n.blockNumber,
        n.logIndex,
        'pending',
      ]),
      `ON CONFLICT (chain_id, contract, token_id) DO UPDATE SET owner = excluded.owner,
       block_number = excluded.block_number, log_index = excluded.log_index`,
    )
  })
}

/**
 * The remembered recent blocks of `chainId` from `fromBlock` on, newest first.
 *
 * @example
 * const blocks = await recentBlocks(db, 'eip155:31337', 100)
 */
export async function recentBlocks(
  db: DbExecutor,
  chainId: string,
  fromBlock: number,
): Promise<{ number: number; hash: string }[]> {
  const rows = await db.query<{ number: number; hash: string }>(
    'SELECT number, hash FROM chain_blocks WHERE chain_id = ? AND number >= ? ORDER BY number DESC',
    [chainId, fromBlock],
  )
  return rows.map((row) => ({ number: Number(row.number), hash: row.hash }))
}

/**
 * Forgets everything of `chainId` after block `blockNumber` (a reorg replaced those blocks)
 * and moves the cursor back to it; NFT owners are recomputed from the remaining transfers.
 *
 * @example
 * await rollback(db, { chainId: 'eip155:31337', blockNumber: 99, blockHash: '0x…' })
 */
export async function rollback(
  db: Db,
  { chainId, blockNumber, blockHash }: { chainId: string; blockNumber: number; blockHash: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    const affected = await tx.query<{ contract: string; token_id: string }>(
      'SELECT contract, token_id FROM chain_nfts WHERE chain_id = ? AND block_number > ?',
      [chainId, blockNumber],
    )
    for (const table of [
      'chain_transfers',
      'chain_transactions',
      'chain_account_txs',
      'chain_nfts',
    ] as const)
      await tx.execute(`DELETE FROM ${table} WHERE chain_id = ? AND block_number > ?`, [
        chainId,
        blockNumber,
      ])
    await tx.execute('DELETE FROM chain_account_tokens WHERE chain_id = ? AND first_block > ?', [
      chainId,
      blockNumber,
    ])
    await tx.execute('DELETE FROM chain_blocks WHERE chain_id = ? AND number > ?', [
      chainId,
      blockNumber,
    ])
    for (const nft of affected) {
      const [last] = await tx.query<{
        to_address: string
        block_number: number
        log_index: number
      }>(
        `SELECT to_address, block_number, log_index FROM chain_transfers
         WHERE chain_id = ? AND token = ? AND token_id = ? AND kind = 'erc721'
         ORDER BY block_number DESC, log_index DESC LIMIT 1`,
        [chainId, nft.contract, nft.token_id],
      )
      if (last)
        await tx.execute(
          `INSERT INTO chain_nfts (chain_id, contract, token_id, token_key, owner, block_number, log_index, metadata_state)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'pending')`,
          [
            chainId,
            nft.contract,
            nft.token_id,
            tokenKey(nft.token_id),
            last.to_address,
            Number(last.block_number),
            Number(last.log_index),
          ],
        )
    }
    await tx.execute(
      'UPDATE chain_cursors SET block_number = ?, block_hash = ?, updated_at = ? WHERE chain_id = ?',
      [blockNumber, blockHash, Date.now(), chainId],
    )
  })
}

/**
 * Deletes every indexed row of `chainId` and its cursor (a new chain behind the same id, such
 * as a restarted devnet, or a reorg deeper than the remembered blocks).
 *
 * @example
 * await resetChain(db, 'eip155:31337')
 */
export async function resetChain(db: Db, chainId: string): Promise<void> {
  await db.transaction(async (tx) => {
    for (const table of [
      'chain_transfers',
      'chain_transactions',
      'chain_account_txs',
      'chain_account_tokens',
      'chain_tokens',
      'chain_nfts',
      'chain_blocks',
      'chain_cursors',
    ] as const)
      await tx.execute(`DELETE FROM ${table} WHERE chain_id = ?`, [chainId])
  })
}

/**
 * Which of `addresses` (lower case) already have stored token metadata on `chainId`.
 *
 * @example
 * const known = await knownTokenAddresses(db, 'eip155:31337', ['0x5fbd…'])
 */
export async function knownTokenAddresses(
  db: DbExecutor,
  chainId: string,
  addresses: readonly string[],
): Promise<Set<string>> {
  const known = new Set<string>()
  for (let i = 0; i < addresses.length; i += 500) {
    const chunk = addresses.slice(i, i + 500)
    const rows = await db.query<{ address: string }>(
      `SELECT address FROM chain_tokens WHERE chain_id = ? AND address IN (${chunk.map(() => '?').join(', ')})`,
      [chainId, ...chunk],
    )
    for (const row of rows) known.add(row.address)
  }
  return known
}

/**
 * Token metadata of `addresses` (lower case) on `chainId`, by address.
 *
 * @example
 * const tokens = await readTokens(db, 'eip155:31337', ['0x5fbd…']) // Map { '0x5fbd…' => { symbol: 'pUSD', … } }
 */
export async function readTokens(
  db: DbExecutor,
  chainId: string,
  addresses: readonly string[],
): Promise<Map<string, TokenRow>> {
  const out = new Map<string, TokenRow>()
  for (let i = 0; i < addresses.length; i += 500) {
    const chunk = addresses.slice(i, i + 500)
    if (!chunk.length) continue
    const rows = await db.query<{
      address: string
      kind: 'erc20' | 'erc721'
      name: string
      symbol: string
      decimals: number
    }>(
      `SELECT address, kind, name, symbol, decimals FROM chain_tokens
       WHERE chain_id = ? AND address IN (${chunk.map(() => '?').join(', ')})`,
      [chainId, ...chunk],
    )
    for (const row of rows)
      out.set(row.address, {
        chainId,
        address: row.address,
        kind: row.kind,
        name: row.name,
        symbol: row.symbol,
        decimals: Number(row.decimals),
      })
  }
  return out
}

/** Rows per INSERT statement: about 8 000 bound values (both engines allow far more). */
const MAX_VALUES = 8000

/**
 * Inserts `rows` into `target` ("table (col, …)") with multi-row VALUES, chunked.
 *
 * @example
 * await insertRows(tx, 'chain_blocks (chain_id, number, hash, timestamp)', rows, 'ON CONFLICT DO NOTHING')
 */
export async function insertRows(
  tx: DbExecutor,
  target: string,
  rows: readonly (readonly SqlValue[])[],
  conflict: string,
): Promise<void> {
  if (!rows.length) return
  const width = rows[0]!.length
  const perStatement = Math.max(1, Math.floor(MAX_VALUES / width))
  const tuple = `(${new Array(width).fill('?').join(', ')})`
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement)
    await tx.execute(
      `INSERT INTO ${target} VALUES ${chunk.map(() => tuple).join(', ')} ${conflict}`,
      chunk.flat(),
    )
  }
}
