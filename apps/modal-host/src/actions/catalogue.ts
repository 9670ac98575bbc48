/**
 * The wallet catalogue (spec §9 paging: list pages of 40, search pages of 100 with a 300 ms
 * minimum wait; featured, included and excluded ids honoured).
 */
import { alertFor, getWallets } from '../api/client.js'
import { EARLY_WALLET_ENTRIES } from '../early.js'
import type { CatalogueWallet } from '../rules/walletLists.js'
import { store } from '../store/store.js'

export const PAGE_SIZE = 40
export const SEARCH_PAGE_SIZE = 100
export const SEARCH_MIN_WAIT_MS = 300

function filters() {
  const { includeWalletIds, excludeWalletIds } = store.getState().config
  return { include: includeWalletIds, exclude: excludeWalletIds }
}

function report(error: unknown): void {
  const alert = alertFor(error)
  store.setState((s) => ({
    catalogue: { ...s.catalogue, status: 'error' },
    ...(alert ? { alert } : {}),
  }))
}

/**
 * The longest the first wallets wait for their images (spec §9 "Image preload wait: 2 s"): Connect
 * draws its rows with their images in the same frame, or without the late ones after 2 s.
 */
export const IMAGE_PRELOAD_WAIT_MS = 2000

/**
 * Loads the images at `urls`, resolving when all have loaded or failed, or after
 * {@link IMAGE_PRELOAD_WAIT_MS}, whichever comes first. The early script has usually fetched them
 * already (then they come from the HTTP cache). Never rejects.
 *
 * @example
 * await preloadImages(wallets.map((w) => w.image_url))
 */
export function preloadImages(
  urls: readonly (string | null | undefined)[],
  waitMs = IMAGE_PRELOAD_WAIT_MS,
): Promise<void> {
  if (typeof Image === 'undefined') return Promise.resolve()
  const loads = urls
    .filter((url): url is string => !!url && /^https?:\/\//.test(url))
    .map(
      (url) =>
        new Promise<void>((resolve) => {
          const image = new Image()
          // Its load, not `decode()`: with `decode()` in a closed modal's frame (not rendered)
          // the list came late, and the bench's preloaded click saw 9 requests after it instead
          // of 0. A failed image shows its letter tile (components/Images.tsx): nothing to wait
          // for either.
          image.onload = image.onerror = () => resolve()
          image.src = url
        }),
    )
  if (loads.length === 0) return Promise.resolve()
  let timer: ReturnType<typeof setTimeout> | undefined
  return Promise.race([
    Promise.all(loads).then(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs)
    }),
  ]).finally(() => clearTimeout(timer))
}

/**
 * How many catalogue wallets Connect shows (its recommended row): all that is fetched before
 * the first click. AllWallets then loads the pages of 40 (spec §9), the first included.
 */
export const CONNECT_ENTRIES = EARLY_WALLET_ENTRIES

/**
 * Loads the featured wallets and the few Connect shows, once (AllWallets asks for the pages).
 *
 * @example
 * void loadInitial()
 */
export async function loadInitial(): Promise<void> {
  const { catalogue, config } = store.getState()
  if (catalogue.status === 'loading' || catalogue.status === 'ready') return
  store.setState({ catalogue: { ...catalogue, status: 'loading' } })
  try {
    const [page, featured] = await Promise.all([
      getWallets({ page: 1, entries: CONNECT_ENTRIES, ...filters() }),
      config.featuredWalletIds.length
        ? getWallets({
            page: 1,
            entries: config.featuredWalletIds.length,
            include: config.featuredWalletIds,
            exclude: config.excludeWalletIds,
          })
        : Promise.resolve({ data: [] as CatalogueWallet[], count: 0 }),
    ])
    const order = config.featuredWalletIds
    const sorted = [...featured.data].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id))
    await preloadImages([...page.data, ...sorted].map((wallet) => wallet.image_url))
    store.setState({
      catalogue: {
        status: 'ready',
        wallets: page.data,
        count: page.count,
        // No page of 40 yet: the first loadMore() asks for page 1 (its first few are these).
        page: 0,
        featured: sorted,
      },
    })
  } catch (error) {
    report(error)
  }
}

/**
 * Loads the next page of 40 (AllWallets' infinite scroll).
 *
 * @example
 * void loadMore()
 */
export async function loadMore(): Promise<void> {
  const { catalogue } = store.getState()
  if (catalogue.status !== 'ready' || catalogue.wallets.length >= catalogue.count) return
  store.setState({ catalogue: { ...catalogue, status: 'loading' } })
  try {
    const next = await getWallets({ page: catalogue.page + 1, entries: PAGE_SIZE, ...filters() })
    store.setState((s) => {
      const known = new Set(s.catalogue.wallets.map((w) => w.id))
      return {
        catalogue: {
          ...s.catalogue,
          status: 'ready',
          page: s.catalogue.page + 1,
          count: next.count,
          wallets: [...s.catalogue.wallets, ...next.data.filter((w) => !known.has(w.id))],
        },
      }
    })
  } catch (error) {
    report(error)
  }
}

/**
 * Searches the catalogue by name: one page of 100, never answering faster than 300 ms (so
 * the list does not flicker while typing).
 *
 * @example
 * const { data, count } = await search('rain')
 */
export async function search(query: string): Promise<{ data: CatalogueWallet[]; count: number }> {
  const wait = new Promise((resolve) => setTimeout(resolve, SEARCH_MIN_WAIT_MS))
  const [result] = await Promise.all([
    getWallets({ page: 1, entries: SEARCH_PAGE_SIZE, search: query.trim(), ...filters() }),
    wait,
  ])
  return result
}
