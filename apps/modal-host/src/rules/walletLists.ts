import type { InjectedProviderInfo } from '@porthole/protocol'
import { EXTERNAL_PREFIX } from '@porthole/protocol/external'
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

/**
 * The wallet entry for an injected provider (its catalogue twin supplies the id if known); a
 * host connector (`external`) keeps the host's id and is never joined with the catalogue.
 */
export function fromInjected(
  info: InjectedProviderInfo,
  catalogue: readonly CatalogueWallet[],
): WalletEntry {
  if (info.external)
    return {
      id: info.uuid.slice(EXTERNAL_PREFIX.length),
      name: info.name,
      image: info.icon,
      injected: info,
      external: true,
    }
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

/**
 * The Connect view's connector types in the spec's order ("Defaults": walletConnect, recent,
 * injected, featured, custom, external, recommended). `walletConnect` is the one WalletConnect
 * row (a QR code for any wallet); the others are sections of wallets.
 */
export const CONNECTOR_TYPE_ORDER = [
  'walletConnect',
  'recent',
  'injected',
  'featured',
  'custom',
  'external',
  'recommended',
] as const
export type ConnectorTypeOrder = (typeof CONNECTOR_TYPE_ORDER)[number]

/**
 * AppKit's `features.connectorTypeOrder`: the types it names first, in its order (each once),
 * then the others in the spec's default order — always all seven.
 *
 * @example
 * connectorTypeOrder(['external', 'walletConnect'])
 * // ['external', 'walletConnect', 'recent', 'injected', 'featured', 'custom', 'recommended']
 */
export function connectorTypeOrder(
  named: readonly ConnectorTypeOrder[] = [],
): ConnectorTypeOrder[] {
  return [...new Set([...named, ...CONNECTOR_TYPE_ORDER])]
}

/** A labelled group of the Connect view's wallet list. */
export type WalletSection = {
  type: Exclude<ConnectorTypeOrder, 'walletConnect'>
  wallets: WalletEntry[]
}

/** Parameters of {@link connectSections}. */
export type ConnectSectionsParameters = {
  recent: readonly WalletEntry[]
  injected: readonly WalletEntry[]
  featured: readonly WalletEntry[]
  /** The dapp's own wallets (`customWallets`). */
  custom?: readonly WalletEntry[]
  /** The host's own connectors (the SDK's `connectors` option, type EXTERNAL). */
  external?: readonly WalletEntry[]
  recommended: readonly WalletEntry[]
  excludedIds: readonly string[]
  /** How many recommended wallets to show at most (spec: recommended page 4). */
  recommendedCount?: number
  /** The order of the sections ({@link connectorTypeOrder}); default the spec's. */
  order?: readonly ConnectorTypeOrder[]
}

/**
 * Which section keeps a wallet listed by two (matched by id or rdns): recent, then what the
 * page has now (installed, then the host's connectors), then the dapp's lists, then the
 * catalogue's. A live connector wins over a catalogue entry of the same wallet, as AppKit
 * filters featured and recommended wallets that are connectors already.
 */
const CLAIM_ORDER: readonly WalletSection['type'][] = [
  'recent',
  'injected',
  'external',
  'featured',
  'custom',
  'recommended',
]

/**
 * The Connect view's wallet sections in the spec's connector order (walletConnect, recent,
 * injected, featured, custom, external, recommended; the WalletConnect row is the view's, see
 * {@link CONNECTOR_TYPE_ORDER}), or the host's (`order`); a wallet appears once, in the section that claims it first
 * ({@link CLAIM_ORDER}: matched by id or rdns); excluded ids never appear.
 *
 * @example
 * connectSections({ recent, injected, featured, external, recommended, excludedIds: [] })
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
  const lists: Record<WalletSection['type'], () => WalletEntry[]> = {
    recent: () => take(parameters.recent),
    injected: () => take(parameters.injected),
    external: () => take(parameters.external ?? []),
    featured: () => take(parameters.featured),
    custom: () => take(parameters.custom ?? []),
    recommended: () => take(parameters.recommended, parameters.recommendedCount ?? 4),
  }
  const claimed = new Map(CLAIM_ORDER.map((type) => [type, lists[type]()]))
  return (parameters.order ?? CONNECTOR_TYPE_ORDER).flatMap((type) => {
    const wallets = type === 'walletConnect' ? [] : (claimed.get(type) ?? [])
    return wallets.length > 0 ? [{ type: type as WalletSection['type'], wallets }] : []
  })
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
