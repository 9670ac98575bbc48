import type { DbExecutor, SqlValue } from '../db/Db.js'
import type { BadgeType } from './catalogue.js'

/** An injected-provider marker of a wallet. */
export type WalletInjected = { namespace: string; injected_id: string }

/**
 * A wallet as `GET /getWallets` returns it. Absent values are `null`. `universal_link` is the
 * wallet's universal (https) link, beside the native `mobile_link` scheme.
 */
export type Wallet = {
  id: string
  name: string
  homepage: string | null
  image_id: string
  image_url: string
  order: number
  rdns: string | null
  chains: string[]
  mobile_link: string | null
  universal_link: string | null
  desktop_link: string | null
  webapp_link: string | null
  app_store: string | null
  play_store: string | null
  injected: WalletInjected[] | null
  badge_type: BadgeType
}

/** Filters and paging of {@link queryWallets} (already validated). */
export type QueryWalletsParameters = {
  /** 1-based page. */
  page: number
  /** Page size. */
  entries: number
  /** Only these wallet ids (when non-empty). */
  include?: readonly string[]
  /** Never these wallet ids. */
  exclude?: readonly string[]
  /** Wallets supporting any of these CAIP-2 ids (when non-empty). */
  chains?: readonly string[]
  /** Case-insensitive substring of the name (empty: no filter). */
  search?: string
  badgeType?: BadgeType
  /** Builds `image_url` from an image id. */
  imageUrl: (imageId: string) => string
}

/** One page and the number of wallets matching before paging. */
export type QueryWalletsReturnType = { data: Wallet[]; count: number }

type WalletRow = {
  id: string
  name: string
  homepage: string | null
  image_id: string
  sort_order: number
  rdns: string | null
  chains: string
  mobile_link: string | null
  universal_link: string | null
  desktop_link: string | null
  webapp_link: string | null
  app_store: string | null
  play_store: string | null
  injected: string | null
  badge_type: BadgeType
}

/**
 * Reads one page of the wallet catalogue, most popular first (`order` ascending, then name).
 *
 * @example
 * const { data, count } = await queryWallets(db, { page: 1, entries: 40, search: 'meta', imageUrl })
 */
export async function queryWallets(
  db: DbExecutor,
  parameters: QueryWalletsParameters,
): Promise<QueryWalletsReturnType> {
  const where: string[] = []
  const params: SqlValue[] = []
  const list = (values: readonly string[]) => values.map(() => '?').join(', ')
  if (parameters.include?.length) {
    where.push(`w.id IN (${list(parameters.include)})`)
    params.push(...parameters.include)
  }
  if (parameters.exclude?.length) {
    where.push(`w.id NOT IN (${list(parameters.exclude)})`)
    params.push(...parameters.exclude)
  }
  if (parameters.chains?.length) {
    where.push(
      `EXISTS (SELECT 1 FROM wallet_chains c WHERE c.wallet_id = w.id AND c.chain IN (${list(parameters.chains)}))`,
    )
    params.push(...parameters.chains)
  }
  const search = parameters.search?.trim().toLowerCase()
  if (search) {
    where.push("LOWER(w.name) LIKE ? ESCAPE '\\'")
    params.push(`%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`)
  }
  if (parameters.badgeType) {
    where.push('w.badge_type = ?')
    params.push(parameters.badgeType)
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : ''
  const [total] = await db.query<{ count: number }>(
    `SELECT CAST(COUNT(*) AS INTEGER) AS count FROM wallets w ${clause}`,
    params,
  )
  const rows = await db.query<WalletRow>(
    `SELECT w.id, w.name, w.homepage, w.image_id, w.sort_order, w.rdns, w.chains, w.mobile_link,
       w.universal_link, w.desktop_link, w.webapp_link, w.app_store, w.play_store, w.injected,
       w.badge_type
     FROM wallets w ${clause}
     ORDER BY w.sort_order, w.name, w.id
     LIMIT ? OFFSET ?`,
    [...params, parameters.entries, (parameters.page - 1) * parameters.entries],
  )
  return {
    data: rows.map((row) => toWallet(row, parameters.imageUrl)),
    count: Number(total?.count ?? 0),
  }
}

function toWallet(row: WalletRow, imageUrl: (imageId: string) => string): Wallet {
  return {
    id: row.id,
    name: row.name,
    homepage: row.homepage,
    image_id: row.image_id,
    image_url: imageUrl(row.image_id),
    order: Number(row.sort_order),
    rdns: row.rdns,
    chains: JSON.parse(row.chains) as string[],
    mobile_link: row.mobile_link,
    universal_link: row.universal_link,
    desktop_link: row.desktop_link,
    webapp_link: row.webapp_link,
    app_store: row.app_store,
    play_store: row.play_store,
    injected: row.injected ? (JSON.parse(row.injected) as WalletInjected[]) : null,
    badge_type: row.badge_type,
  }
}
