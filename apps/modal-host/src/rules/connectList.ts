/**
 * The Connect view's wallet list as a pure function of the store: the view (through
 * `hooks/useWallets.ts`) and headless `wallets()` (`actions/headless.ts`) read the same list, so
 * a host that draws its own sees exactly what the modal would show, in the same order (the short
 * list below e-mail or social login included, see {@link shownSections}).
 */
import type { ModalState, WalletEntry } from '../store/types.js'
import {
  connectSections,
  fromCatalogue,
  fromInjected,
  isInjectedHidden,
  type WalletSection,
} from './walletLists.js'

/** The parts of the store the list depends on. */
export type ConnectListState = Pick<
  ModalState,
  'injected' | 'catalogue' | 'config' | 'connectNamespace' | 'recentWallets'
>

/**
 * Visible injected wallets, joined with the catalogue (spec §5 hiding rules), and the host's
 * own connectors (`external`, eip155): only those of a namespace with a configured network (of
 * the namespace `connect({ namespace })` asked for, when it did).
 *
 * @example
 * const installed = visibleInjected(store.getState())
 */
export function visibleInjected(
  state: Pick<ConnectListState, 'injected' | 'catalogue' | 'config' | 'connectNamespace'>,
): WalletEntry[] {
  const { injected, catalogue, config, connectNamespace: wanted } = state
  const known = [...catalogue.featured, ...catalogue.wallets]
  const excludedRdns = known
    .filter((w) => config.excludeWalletIds.includes(w.id) && w.rdns)
    .map((w) => w.rdns as string)
  const namespaces = new Set(config.networks.map((n) => n.chainNamespace))
  return injected
    .filter((info) => {
      const namespace = info.namespace ?? 'eip155'
      return wanted ? namespace === wanted : namespaces.has(namespace)
    })
    .filter(
      (info) =>
        // A host connector is the host's choice: only `excludeWalletIds` hides it (below).
        info.external ||
        !isInjectedHidden(info, {
          isMobile: config.isMobile,
          excludedRdns,
          excludedNames: [],
        }),
    )
    .map((info) => fromInjected(info, known))
    .filter((w) => !config.excludeWalletIds.includes(w.id))
}

/**
 * The Connect view's sections (recent, installed, featured, custom, external, recommended) and
 * the count All Wallets shows. `injected` is {@link visibleInjected} of the same state: its
 * host connectors make the external section, the others the installed one. A recent host
 * connector the host did not register this time is left out (nothing else reaches it).
 *
 * @example
 * const { sections } = connectList(state, visibleInjected(state))
 */
export function connectList(
  state: ConnectListState,
  injected: readonly WalletEntry[],
): { sections: WalletSection[]; count: number } {
  const { catalogue, config, recentWallets: recent } = state
  const join = (w: WalletEntry) => {
    const live = injected.find((i) => i.id === w.id || (w.rdns && i.rdns === w.rdns))
    return live ? { ...w, injected: live.injected as NonNullable<WalletEntry['injected']> } : w
  }
  // Installed wallets of a namespace not offered now (not configured, or not the one
  // `connect({ namespace })` asked for) are left out everywhere, recent ones included.
  const shown = injected.map((w) => w.injected as NonNullable<WalletEntry['injected']>)
  const left = state.injected
    .filter((i) => !shown.some((x) => x.uuid === i.uuid))
    .map((i) => fromInjected(i, []))
  const offered = (w: WalletEntry) =>
    !left.some((h) => h.id === w.id || (!!w.rdns && h.rdns === w.rdns))
  const external = injected.filter((w) => w.external)
  const installed = injected.filter((w) => !w.external)
  const sections = connectSections({
    recent: recent
      .filter(offered)
      .filter((w) => !w.external || external.some((e) => e.id === w.id))
      .map(join),
    injected: installed,
    featured: catalogue.featured.map((w) => fromCatalogue(w, shown)).filter(offered),
    custom: config.customWallets,
    external,
    recommended: catalogue.wallets.map((w) => fromCatalogue(w, shown)).filter(offered),
    excludedIds: config.excludeWalletIds,
    order: config.features.connectorTypeOrder,
  })
  const count =
    Math.max(catalogue.count, 0) +
    installed.filter((w) => !catalogue.wallets.some((c) => c.id === w.id)).length
  return { sections, count }
}

/** Catalogue wallets on Connect below e-mail or social login (with the pinned ones). */
export const CATALOGUE_ROWS = 2

/**
 * Whether Connect shows the short wallet list: e-mail or a social login sits above it and All
 * Wallets holds the rest (so the card fits a laptop screen). `socials` are the providers shown.
 *
 * @example
 * isShortList(config, ['google']) // true when All Wallets is on
 */
export function isShortList(
  config: Pick<ConnectListState['config'], 'features'>,
  socials: readonly string[],
): boolean {
  return !!config.features.allWallets && (!!config.features.email || socials.length > 0)
}

/**
 * The sections Connect shows, in its order. The whole list, unless it is short
 * ({@link isShortList}): then every recent, installed and custom wallet, and catalogue wallets
 * (featured, recommended) only while the rows stay within {@link CATALOGUE_ROWS}; the others are
 * one step away in All Wallets. Headless `wallets()` lists exactly these.
 *
 * @example
 * shownSections(connectList(state, injected).sections, true)
 */
export function shownSections(sections: readonly WalletSection[], short: boolean): WalletSection[] {
  if (!short) return [...sections]
  const fromCatalogue = (section: WalletSection) =>
    section.type === 'featured' || section.type === 'recommended'
  let room =
    CATALOGUE_ROWS -
    sections.filter((s) => !fromCatalogue(s)).reduce((rows, s) => rows + s.wallets.length, 0)
  return sections
    .map((section) =>
      fromCatalogue(section)
        ? { ...section, wallets: section.wallets.filter(() => room-- > 0) }
        : section,
    )
    .filter((section) => section.wallets.length > 0)
}
