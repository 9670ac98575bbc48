/**
 * The Connect view's wallet list as a pure function of the store: the view (through
 * `hooks/useWallets.ts`) and headless `wallets()` (`actions/headless.ts`) read the same list, so
 * a host that draws its own sees exactly what the modal would show, in the same order.
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
 * Visible injected wallets, joined with the catalogue (spec §5 hiding rules): only those of a
 * namespace with a configured network (of the namespace `connect({ namespace })` asked for,
 * when it did).
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
 * The Connect view's sections (recent, installed, featured, custom, recommended) and the count
 * All Wallets shows. `injected` is {@link visibleInjected} of the same state.
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
  const sections = connectSections({
    recent: recent.filter(offered).map(join),
    injected,
    featured: catalogue.featured.map((w) => fromCatalogue(w, shown)).filter(offered),
    custom: config.customWallets,
    recommended: catalogue.wallets.map((w) => fromCatalogue(w, shown)).filter(offered),
    excludedIds: config.excludeWalletIds,
  })
  const count =
    Math.max(catalogue.count, 0) +
    injected.filter((w) => !catalogue.wallets.some((c) => c.id === w.id)).length
  return { sections, count }
}
