import type { Db } from '../db/Db.js'
import { type CatalogueWallet, loadCatalogue } from './catalogue.js'

/** Options for {@link seedWallets}. */
export type SeedWalletsParameters = { wallets?: readonly CatalogueWallet[] }

/** How many wallets the table holds afterwards, and how many were removed. */
export type SeedWalletsReturnType = { count: number; removed: number }

/**
 * Makes the `wallets` table match the catalogue: upserts every wallet with its chains and
 * removes wallets no longer listed. Idempotent; one transaction.
 *
 * @example
 * await seedWallets(db) // { count: 42, removed: 0 }
 */
export async function seedWallets(
  db: Db,
  { wallets = loadCatalogue() }: SeedWalletsParameters = {},
): Promise<SeedWalletsReturnType> {
  return db.transaction(async (tx) => {
    // Replicas starting together seed one after another (the same rows, in the same order).
    if (tx.dialect === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(7340235)')
    for (const wallet of wallets) {
      const values = [
        wallet.idSource,
        wallet.name,
        wallet.homepage,
        wallet.image_id,
        wallet.order,
        wallet.rdns,
        JSON.stringify(wallet.chains),
        wallet.mobile_link,
        wallet.universal_link,
        wallet.desktop_link,
        wallet.webapp_link,
        wallet.app_store,
        wallet.play_store,
        wallet.injected ? JSON.stringify(wallet.injected) : null,
        wallet.badge_type,
      ]
      await tx.execute(
        `INSERT INTO wallets (id, id_source, name, homepage, image_id, sort_order, rdns, chains,
           mobile_link, universal_link, desktop_link, webapp_link, app_store, play_store, injected, badge_type)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET
           id_source = excluded.id_source, name = excluded.name, homepage = excluded.homepage,
           image_id = excluded.image_id, sort_order = excluded.sort_order, rdns = excluded.rdns,
           chains = excluded.chains, mobile_link = excluded.mobile_link,
           universal_link = excluded.universal_link, desktop_link = excluded.desktop_link,
           webapp_link = excluded.webapp_link, app_store = excluded.app_store,
           play_store = excluded.play_store, injected = excluded.injected,
           badge_type = excluded.badge_type`,
        [wallet.id, ...values],
      )
      await tx.execute('DELETE FROM wallet_chains WHERE wallet_id = ?', [wallet.id])
      for (const chain of new Set(wallet.chains))
        await tx.execute('INSERT INTO wallet_chains (wallet_id, chain) VALUES (?, ?)', [
          wallet.id,
          chain,
        ])
    }
    const listed = new Set(wallets.map((wallet) => wallet.id))
    const stale = (await tx.query<{ id: string }>('SELECT id FROM wallets')).filter(
      (row) => !listed.has(row.id),
    )
    for (const { id } of stale) {
      await tx.execute('DELETE FROM wallet_chains WHERE wallet_id = ?', [id])
      await tx.execute('DELETE FROM wallets WHERE id = ?', [id])
    }
    return { count: wallets.length, removed: stale.length }
  })
}
