import type { InjectedProviderInfo } from '@porthole/protocol'
import type { WalletEntry } from '../store/types.js'

/** A catalogue wallet as the API returns it (`/getWallets`). */
export type CatalogueWallet = {
  id: string
  name: string
  image_url: string | null
  rdns: string | null
  homepage: string | null
  order: number | null
  chrome_store?: string | null
  desktop_link?: string | null
  mobile_link?: string | null
  universal_link?: string | null
  webapp_link?: string | null
}

/** The wallet entry for a catalogue wallet, joined with its injected provider if installed. */
export function fromCatalogue(
  wallet: CatalogueWallet,
  injected: readonly InjectedProviderInfo[],
): WalletEntry {
  const installed = wallet.rdns ? injected.find((i) => i.rdns === wallet.rdns) : undefined
  return {
    id: wallet.id,
    name: wallet.name,
    image: wallet.image_url ?? '',
    ...(wallet.rdns ? { rdns: wallet.rdns } : {}),
    ...(installed ? { injected: installed } : {}),
    ...(wallet.homepage ? { homepage: wallet.homepage } : {}),
    ...(wallet.chrome_store ? { chromeStore: wallet.chrome_store } : {}),
    ...(wallet.mobile_link ? { mobileLink: wallet.mobile_link } : {}),
    ...(wallet.universal_link ? { universalLink: wallet.universal_link } : {}),
    ...(wallet.order !== null ? { order: wallet.order } : {}),
  }
}

/** The wallet entry for an injected provider (its catalogue twin supplies the id if known). */
export function fromInjected(
  info: InjectedProviderInfo,
  catalogue: readonly CatalogueWallet[],
): WalletEntry {
  const twin = info.rdns ? catalogue.find((w) => w.rdns === info.rdns) : undefined
  return {
    // Wallet Standard wallets have no rdns and a new uuid per page load: their name is stable.
    id:
      twin?.id ??
      (info.rdns ||
        (info.namespace && info.namespace !== 'eip155'
          ? `${info.namespace}:${info.name}`
          : info.uuid)),
    name: info.name,
    image: info.icon || twin?.image_url || '',
    ...(info.rdns ? { rdns: info.rdns } : {}),
    injected: info,
  }
}

/** Parameters of {@link isInjectedHidden}. */
export type HiddenParameters = {
  isMobile: boolean
  excludedRdns: readonly string[]
  excludedNames: readonly string[]
}

/**
 * Spec §5: the injected 'Browser Wallet' is hidden on desktop; on mobile it is hidden if it
 * has no rdns and is not installed; wallets excluded by rdns or name are hidden.
 *
 * @example
 * isInjectedHidden({ name: 'Browser Wallet', rdns: '', ... }, { isMobile: false, ... }) // true
 */
export function isInjectedHidden(
  info: InjectedProviderInfo & { installed?: boolean },
  parameters: HiddenParameters,
): boolean {
  const installed = info.installed ?? true
  if (info.name === 'Browser Wallet') {
    if (!parameters.isMobile) return true
    if (!info.rdns && !installed) return true
  }
  if (info.rdns && parameters.excludedRdns.includes(info.rdns)) return true
  return parameters.excludedNames.some((name) => name.toLowerCase() === info.name.toLowerCase())
}

/** A labelled group of the Connect view's wallet list. */
export type WalletSection = {
  type: 'recent' | 'injected' | 'featured' | 'custom' | 'recommended'
  wallets: WalletEntry[]
}

/** Parameters of {@link connectSections}. */
export type ConnectSectionsParameters = {
  recent: readonly WalletEntry[]
  injected: readonly WalletEntry[]
  featured: readonly WalletEntry[]
  /** The dapp's own wallets (`customWallets`). */
  custom?: readonly WalletEntry[]
  recommended: readonly WalletEntry[]
  excludedIds: readonly string[]
  /** How many recommended wallets to show at most (spec: recommended page 4). */
  recommendedCount?: number
}

/**
 * The Connect view's wallet sections in the spec's connector order (walletConnect, recent,
 * injected, featured, custom, external, recommended); a wallet appears once, in the first
 * section that has it (matched by id or rdns); excluded ids never appear.
 *
 * @example
 * connectSections({ recent, injected, featured, recommended, excludedIds: [] })
 */
export function connectSections(parameters: ConnectSectionsParameters): WalletSection[] {
  const seen = new Set<string>()
  const take = (wallets: readonly WalletEntry[], limit = Number.POSITIVE_INFINITY) => {
    const out: WalletEntry[] = []
    for (const wallet of wallets) {
      if (out.length >= limit) break
      const keys = [wallet.id, wallet.rdns ? `rdns:${wallet.rdns}` : ''].filter(Boolean)
      if (parameters.excludedIds.includes(wallet.id) || keys.some((k) => seen.has(k))) continue
      for (const key of keys) seen.add(key)
      out.push(wallet)
    }
    return out
  }
  const sections: WalletSection[] = [
    { type: 'recent', wallets: take(parameters.recent) },
    { type: 'injected', wallets: take(parameters.injected) },
    { type: 'featured', wallets: take(parameters.featured) },
    { type: 'custom', wallets: take(parameters.custom ?? []) },
    {
      type: 'recommended',
      wallets: take(parameters.recommended, parameters.recommendedCount ?? 4),
    },
  ]
  return sections.filter((section) => section.wallets.length > 0)
}

/**
 * The AllWallets list: installed (announced) wallets first, then the catalogue order,
 * without duplicates.
 *
 * @example
 * allWalletsOrder(catalogueEntries) // installed first
 */
export function allWalletsOrder(wallets: readonly WalletEntry[]): WalletEntry[] {
  const unique = new Map<string, WalletEntry>()
  for (const wallet of wallets) if (!unique.has(wallet.id)) unique.set(wallet.id, wallet)
  const list = [...unique.values()]
  return [...list.filter((w) => w.injected), ...list.filter((w) => !w.injected)]
}
