/**
 * Account history from the index: pages of `chain_account_txs` (newest first, opaque cursor),
 * each transaction's transfers that concern the account grouped into one `Transaction` of the
 * shared schema, with direction, operation type, fungible or NFT info and prices.
 */
import type { HistoryResponse, Transaction, TransactionTransfer } from '@porthole/shared'
import { formatUnits, getAddress } from 'viem'
import { z } from 'zod'
import type { DbExecutor } from '../db/Db.js'
import { type TransferKind, type TransferRow, ZERO_ADDRESS } from './decode.js'
import { readTokens, type TokenRow } from './indexStore.js'

/**
 * Thrown for a cursor this API did not make.
 *
 * @example
 * expect(() => decodeCursor('nope')).toThrow(InvalidCursorError)
 */
export class InvalidCursorError extends Error {
  override name = 'InvalidCursorError' as const
  constructor() {
    super('cursor: not a cursor this service returned')
  }
}

/** A position in a newest-first list: (timestamp, chain, block, index within the block). */
export type HistoryPosition = {
  timestamp: number
  chainId: string
  blockNumber: number
  index: number
}

const CursorTuple = z.tuple([
  z.number().int().min(0),
  z.string().regex(/^eip155:\d{1,16}$/),
  z.number().int().min(0),
  z.number().int().min(-1),
])

/**
 * Encodes a position as an opaque cursor (base64url JSON).
 *
 * @example
 * encodeCursor({ timestamp: 1700000000000, chainId: 'eip155:1', blockNumber: 5, index: 0 }) // 'WzE3MDAw…'
 */
export function encodeCursor(position: HistoryPosition): string {
  return Buffer.from(
    JSON.stringify([position.timestamp, position.chainId, position.blockNumber, position.index]),
  ).toString('base64url')
}

/**
 * Decodes a cursor made by {@link encodeCursor}; throws {@link InvalidCursorError} otherwise.
 *
 * @example
 * decodeCursor(encodeCursor(position)) // position
 */
export function decodeCursor(cursor: string): HistoryPosition {
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw new InvalidCursorError()
  try {
    const [timestamp, chainId, blockNumber, index] = CursorTuple.parse(
      JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')),
    )
    return { timestamp, chainId, blockNumber, index }
  } catch {
    throw new InvalidCursorError()
  }
}

/** A transfer as the history reads it (`token`: lower-case contract, '' for native). */
export type HistoryTransfer = Pick<
  TransferRow,
  'kind' | 'token' | 'from' | 'to' | 'amount' | 'tokenId' | 'logIndex'
>

/**
 * The direction of a transfer for `account`: `self` when it sends to itself, `out` when it
 * sends, else `in`.
 *
 * @example
 * transferDirection({ from: a, to: b }, a) // 'out'
 */
export function transferDirection(
  transfer: Pick<HistoryTransfer, 'from' | 'to'>,
  account: string,
): 'in' | 'out' | 'self' {
  if (transfer.from === account && transfer.to === account) return 'self'
  return transfer.from === account ? 'out' : 'in'
}

/**
 * The operation type of a transaction for `account`, from the transfers that concern it:
 * `mint` when they all come from the zero address, `burn` when they all go to it, `send` when
 * all go out, `receive` when all come in, `execute` otherwise (mixed, or to itself).
 *
 * @example
 * operationType([{ from: ZERO_ADDRESS, to: account }], account) // 'mint'
 */
export function operationType(
  transfers: readonly Pick<HistoryTransfer, 'from' | 'to'>[],
  account: string,
): 'mint' | 'burn' | 'send' | 'receive' | 'execute' {
  if (!transfers.length) return 'execute'
  if (transfers.every((t) => t.from === ZERO_ADDRESS)) return 'mint'
  if (transfers.every((t) => t.to === ZERO_ADDRESS)) return 'burn'
  const directions = transfers.map((t) => transferDirection(t, account))
  if (directions.every((d) => d === 'out')) return 'send'
  if (directions.every((d) => d === 'in')) return 'receive'
  return 'execute'
}

/**
 * A base-unit amount as a human decimal string without trailing zeros.
 *
 * @example
 * formatQuantity('1500000', 6) // '1.5'
 */
export function formatQuantity(amount: string | bigint, decimals: number): string {
  return formatUnits(typeof amount === 'bigint' ? amount : BigInt(amount), decimals)
}

/** What {@link buildTransaction} needs to describe assets. */
export type AssetInfo = {
  /** Native currency of a chain. */
  native(chainId: string): { name: string; symbol: string; decimals: number }
  /** Stored metadata of a token contract. */
  token(chainId: string, address: string): TokenRow | undefined
  /** Name and image of an NFT, when resolved. */
  nft(
    chainId: string,
    contract: string,
    tokenId: string,
  ): { name: string | null; image: string | null } | undefined
  /** Icon URL of a fungible symbol. */
  icon(symbol: string): string
  /** Spam NFT contract? */
  isSpam(chainId: string, contract: string): boolean
  /** USD (or requested currency) price of an asset, if known. */
  price(chainId: string, token: string): number | undefined
}

/** The stored transaction fields a history entry shows. */
export type HistoryTransaction = {
  chainId: string
  hash: string
  timestamp: number
  from: string
  to: string | null
  nonce: number
  status: 'confirmed' | 'failed'
}

/**
 * One history entry: the account's transfers of one transaction (native first, then by log),
 * `sentFrom`/`sentTo` the first transfer's sender and recipient (for a token transfer that is
 * the counterparty, not the token contract).
 *
 * @example
 * const entry = buildTransaction(tx, transfers, account, assets)
 * entry.metadata.operationType // 'send'
 */
export function buildTransaction(
  tx: HistoryTransaction,
  transfers: readonly HistoryTransfer[],
  account: string,
  assets: AssetInfo,
): Transaction {
  const mine = transfers
    .filter((t) => t.from === account || t.to === account)
    .sort((a, b) => a.logIndex - b.logIndex)
  const main = mine[0]
  return {
    id: `${tx.chainId}:${tx.hash}`,
    metadata: {
      operationType: operationType(mine, account),
      hash: tx.hash,
      minedAt: new Date(tx.timestamp).toISOString(),
      sentFrom: getAddress(main?.from ?? tx.from),
      sentTo: getAddress(main?.to ?? tx.to ?? ZERO_ADDRESS),
      status: tx.status,
      nonce: tx.nonce,
      chain: tx.chainId,
    },
    transfers: mine.map((transfer) => buildTransfer(tx.chainId, transfer, account, assets)),
  }
}

function buildTransfer(
  chainId: string,
  transfer: HistoryTransfer,
  account: string,
  assets: AssetInfo,
): TransactionTransfer {
  const direction = transferDirection(transfer, account)
  if (transfer.kind === 'erc721') {
    const collection = assets.token(chainId, transfer.token)
    const nft = assets.nft(chainId, transfer.token, transfer.tokenId ?? '0')
    const image = nft?.image ? { url: nft.image, content_type: contentType(nft.image) } : null
    return {
      nft_info: {
        name: nft?.name || `${collection?.name || 'NFT'} #${transfer.tokenId}`,
        content: { preview: image, detail: image },
        flags: { is_spam: assets.isSpam(chainId, transfer.token) },
      },
      direction,
      quantity: { numeric: '1' },
    }
  }
  const info =
    transfer.kind === 'native'
      ? assets.native(chainId)
      : (assets.token(chainId, transfer.token) ?? { name: '', symbol: '', decimals: 0 })
  const numeric = formatQuantity(transfer.amount, info.decimals)
  const price = assets.price(chainId, transfer.token)
  return {
    fungible_info: {
      name: info.name,
      symbol: info.symbol,
      icon: { url: assets.icon(info.symbol) },
    },
    direction,
    quantity: { numeric },
    ...(price === undefined ? {} : { price, value: Number(numeric) * price }),
  }
}

function contentType(url: string): string | undefined {
  if (/\.svg(\?|$)/i.test(url) || /^data:image\/svg/i.test(url)) return 'image/svg+xml'
  if (/\.png(\?|$)/i.test(url)) return 'image/png'
  return undefined
}

/** Input of {@link queryHistory}. */
export type QueryHistoryParameters = {
  /** Lower-case address. */
  account: string
  chainIds: readonly string[]
  cursor: string | undefined
  limit: number
  /**
   * Builds asset info once the page's tokens (keyed `chain|address`) and NFTs (keyed
   * `chain|contract|tokenId`) are known.
   */
  assets: (
    tokens: ReadonlyMap<string, TokenRow>,
    nfts: ReadonlyMap<string, NftInfo>,
  ) => Promise<AssetInfo>
}

/** Resolved NFT metadata by `chain|contract|tokenId`. */
export type NftInfo = { name: string | null; image: string | null }

/**
 * One page of history from the index: `limit` transactions before the cursor, newest first,
 * and the cursor of the next page (null on the last).
 *
 * @example
 * const page = await queryHistory(db, { account, chainIds: ['eip155:31337'], cursor: undefined, limit: 50, assets })
 */
export async function queryHistory(
  db: DbExecutor,
  { account, chainIds, cursor, limit, assets }: QueryHistoryParameters,
): Promise<HistoryResponse> {
  if (!chainIds.length) return { data: [], next: null }
  const after = cursor === undefined ? undefined : decodeCursor(cursor)
  const rows = await db.query<{
    chain_id: string
    tx_hash: string
    timestamp: number
    block_number: number
    tx_index: number
  }>(
    `SELECT chain_id, tx_hash, timestamp, block_number, tx_index FROM chain_account_txs
     WHERE account = ? AND chain_id IN (${chainIds.map(() => '?').join(', ')})
     ${after ? 'AND (timestamp, chain_id, block_number, tx_index) < (?, ?, ?, ?)' : ''}
     ORDER BY timestamp DESC, chain_id DESC, block_number DESC, tx_index DESC
     LIMIT ?`,
    [
      account,
      ...chainIds,
      ...(after ? [after.timestamp, after.chainId, after.blockNumber, after.index] : []),
      limit + 1,
    ],
  )
  const page = rows.slice(0, limit)
  const byChain = new Map<string, string[]>()
  for (const row of page) {
    let hashes = byChain.get(row.chain_id)
    if (!hashes) {
      hashes = []
      byChain.set(row.chain_id, hashes)
    }
    hashes.push(row.tx_hash)
  }
  const txs = new Map<string, HistoryTransaction>()
  const transfers = new Map<string, HistoryTransfer[]>()
  const tokens = new Map<string, TokenRow>()
  const nfts = new Map<string, NftInfo>()
  for (const [chainId, hashes] of byChain) {
    const marks = hashes.map(() => '?').join(', ')
    const txRows = await db.query<{
      hash: string
      timestamp: number
      from_address: string
      to_address: string | null
      nonce: number
      status: 'confirmed' | 'failed'
    }>(
      `SELECT hash, timestamp, from_address, to_address, nonce, status FROM chain_transactions
       WHERE chain_id = ? AND hash IN (${marks})`,
      [chainId, ...hashes],
    )
    for (const row of txRows)
      txs.set(`${chainId}|${row.hash}`, {
        chainId,
        hash: row.hash,
        timestamp: Number(row.timestamp),
        from: row.from_address,
        to: row.to_address,
        nonce: Number(row.nonce),
        status: row.status,
      })
    const transferRows = await db.query<{
      tx_hash: string
      log_index: number
      kind: TransferKind
      token: string
      from_address: string
      to_address: string
      amount: string
      token_id: string | null
    }>(
      `SELECT tx_hash, log_index, kind, token, from_address, to_address, amount, token_id
       FROM chain_transfers
       WHERE chain_id = ? AND tx_hash IN (${marks}) AND (from_address = ? OR to_address = ?)`,
      [chainId, ...hashes, account, account],
    )
    const contracts = new Set<string>()
    const nftKeys: { contract: string; tokenId: string }[] = []
    for (const row of transferRows) {
      const key = `${chainId}|${row.tx_hash}`
      let list = transfers.get(key)
      if (!list) {
        list = []
        transfers.set(key, list)
      }
      list.push({
        kind: row.kind,
        token: row.token,
        from: row.from_address,
        to: row.to_address,
        amount: row.amount,
        tokenId: row.token_id,
        logIndex: Number(row.log_index),
      })
      if (row.kind !== 'native') contracts.add(row.token)
      if (row.kind === 'erc721' && row.token_id !== null)
        nftKeys.push({ contract: row.token, tokenId: row.token_id })
    }
    for (const [address, token] of await readTokens(db, chainId, [...contracts]))
      tokens.set(`${chainId}|${address}`, token)
    for (const [key, info] of await readNftInfo(db, chainId, nftKeys)) nfts.set(key, info)
  }
  const info = await assets(tokens, nfts)
  const data = page.flatMap((row) => {
    const tx = txs.get(`${row.chain_id}|${row.tx_hash}`)
    return tx
      ? [buildTransaction(tx, transfers.get(`${row.chain_id}|${row.tx_hash}`) ?? [], account, info)]
      : []
  })
  const last = page.at(-1)
  return {
    data,
    next:
      rows.length > limit && last
        ? encodeCursor({
            timestamp: Number(last.timestamp),
            chainId: last.chain_id,
            blockNumber: Number(last.block_number),
            index: Number(last.tx_index),
          })
        : null,
  }
}

/**
 * Stored names and images of NFTs, keyed `chain|contract|tokenId`.
 *
 * @example
 * const info = await readNftInfo(db, 'eip155:31337', [{ contract: '0x4ed7…', tokenId: '1' }])
 */
export async function readNftInfo(
  db: DbExecutor,
  chainId: string,
  keys: readonly { contract: string; tokenId: string }[],
): Promise<Map<string, NftInfo>> {
  const out = new Map<string, NftInfo>()
  for (let i = 0; i < keys.length; i += 200) {
    const chunk = keys.slice(i, i + 200)
    const rows = await db.query<{
      contract: string
      token_id: string
      name: string | null
      image_url: string | null
    }>(
      `SELECT contract, token_id, name, image_url FROM chain_nfts
       WHERE chain_id = ? AND (${chunk.map(() => '(contract = ? AND token_id = ?)').join(' OR ')})`,
      [chainId, ...chunk.flatMap((key) => [key.contract, key.tokenId])],
    )
    for (const row of rows)
      out.set(`${chainId}|${row.contract}|${row.token_id}`, {
        name: row.name,
        image: row.image_url,
      })
  }
  return out
}
