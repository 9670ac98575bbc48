/**
 * The ERC-721 tokens an account holds now, from the index (`chain_nfts.owner`), paged by an
 * opaque cursor, spam flagged.
 */
import type { NftEntry, NftsResponse } from '@porthole/shared'
import { getAddress } from 'viem'
import { z } from 'zod'
import type { DbExecutor } from '../db/Db.js'
import { InvalidCursorError } from './history.js'

const NftCursor = z.tuple([
  z.string().regex(/^eip155:\d{1,16}$/),
  z.string().regex(/^0x[0-9a-f]{40}$/),
  z.string().regex(/^[0-9a-f]{64}$/),
])

/** Input of {@link queryNfts}. */
export type QueryNftsParameters = {
  /** Lower-case owner address. */
  owner: string
  chainIds: readonly string[]
  cursor: string | undefined
  limit: number
  /** Spam NFT contract? */
  isSpam(chainId: string, contract: string): boolean
}

/**
 * One page of the NFTs `owner` holds on `chainIds`, ordered by chain, contract and token id.
 * Throws `InvalidCursorError` for a cursor it did not make.
 *
 * @example
 * const { data, next } = await queryNfts(db, { owner, chainIds: ['eip155:31337'], cursor: undefined, limit: 50, isSpam })
 */
export async function queryNfts(
  db: DbExecutor,
  { owner, chainIds, cursor, limit, isSpam }: QueryNftsParameters,
): Promise<NftsResponse> {
  if (!chainIds.length) return { data: [], next: null }
  let after: [string, string, string] | undefined
  if (cursor !== undefined) {
    try {
      if (cursor.length > 300 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error()
      after = NftCursor.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')))
    } catch {
      throw new InvalidCursorError()
    }
  }
  const rows = await db.query<{
    chain_id: string
    contract: string
    token_id: string
    token_key: string
    name: string | null
    image_url: string | null
    collection_name: string | null
    collection_symbol: string | null
  }>(
    `SELECT n.chain_id, n.contract, n.token_id, n.token_key, n.name, n.image_url,
            t.name AS collection_name, t.symbol AS collection_symbol
     FROM chain_nfts n
     LEFT JOIN chain_tokens t ON t.chain_id = n.chain_id AND t.address = n.contract
     WHERE n.owner = ? AND n.chain_id IN (${chainIds.map(() => '?').join(', ')})
     ${after ? 'AND (n.chain_id, n.contract, n.token_key) > (?, ?, ?)' : ''}
     ORDER BY n.chain_id, n.contract, n.token_key
     LIMIT ?`,
    [owner, ...chainIds, ...(after ?? []), limit + 1],
  )
  const page = rows.slice(0, limit)
  const data: NftEntry[] = page.map((row) => {
    const collection = { name: row.collection_name ?? '', symbol: row.collection_symbol ?? '' }
    return {
      chainId: row.chain_id,
      contract: `${row.chain_id}:${getAddress(row.contract)}`,
      tokenId: row.token_id,
      name: row.name || `${collection.name || 'NFT'} #${row.token_id}`,
      imageUrl: row.image_url,
      collection,
      spam: isSpam(row.chain_id, row.contract),
    }
  })
  const last = page.at(-1)
  return {
    data,
    next:
      rows.length > limit && last
        ? Buffer.from(JSON.stringify([last.chain_id, last.contract, last.token_key])).toString(
            'base64url',
          )
        : null,
  }
}
