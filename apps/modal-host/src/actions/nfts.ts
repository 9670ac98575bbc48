/**
 * The NFTs tab: the account's NFTs on the active network from the data service, page by page
 * (spam is hidden; the service flags it).
 */
import { getNfts } from '../api/blockchain.js'
import { cacheKey } from '../rules/caches.js'
import { store } from '../store/store.js'
import { reportError } from './analytics.js'

/**
 * Loads the first page (again when the account or network changed, or with `refresh`), or
 * with `more` the next.
 *
 * @example
 * await loadNfts({ more: true })
 */
export async function loadNfts(options: { more?: boolean; refresh?: boolean } = {}): Promise<void> {
  const { connection, nfts } = store.getState()
  const address = connection.address
  const chainId = connection.caipNetworkId
  if (connection.status !== 'connected' || !address || !chainId) return
  const key = cacheKey({ caipNetworkId: chainId, address })
  const more = options.more === true && nfts.key === key
  if (nfts.loading || (more && !nfts.next)) return
  if (!more && !options.refresh && nfts.key === key && !nfts.failed) return
  store.setState((s) => ({
    nfts: more
      ? { ...s.nfts, loading: true }
      : { key, entries: [], next: null, loading: true, failed: false },
  }))
  try {
    const page = await getNfts(address, { chainId, cursor: more ? nfts.next : undefined })
    if (store.getState().nfts.key !== key) return
    store.setState((s) => ({
      nfts: {
        key,
        entries: [...s.nfts.entries, ...page.data.filter((nft) => !nft.spam)],
        next: page.next,
        loading: false,
        failed: false,
      },
    }))
  } catch (error) {
    store.setState((s) => ({ nfts: { ...s.nfts, loading: false, failed: true } }))
    reportError(error, { category: 'API_ERROR' })
  }
}
