/**
 * The wallet lists the Connect and AllWallets views show, derived from the store.
 */
import { useEffect, useMemo } from 'react'
import * as Catalogue from '../actions/catalogue.js'
import {
  allWalletsOrder,
  connectSections,
  fromCatalogue,
  fromInjected,
  isInjectedHidden,
  type WalletSection,
} from '../rules/walletLists.js'
import { useModal } from '../store/store.js'
import type { WalletEntry } from '../store/types.js'

/**
 * Visible injected wallets, joined with the catalogue (spec §5 hiding rules): only those of a
 * namespace with a configured network (of the namespace `connect({ namespace })` asked for,
 * when it did).
 */
export function useInjectedWallets(): WalletEntry[] {
  const injected = useModal((s) => s.injected)
  const catalogue = useModal((s) => s.catalogue)
  const config = useModal((s) => s.config)
  const wanted = useModal((s) => s.connectNamespace)
  return useMemo(() => {
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
  }, [injected, catalogue, config, wanted])
}

/** The Connect view's sections, loading the catalogue on first use. */
export function useConnectSections(): { sections: WalletSection[]; count: number } {
  const catalogue = useModal((s) => s.catalogue)
  const injectedInfo = useModal((s) => s.injected)
  const recent = useModal((s) => s.recentWallets)
  const config = useModal((s) => s.config)
  const injected = useInjectedWallets()
  useEffect(() => {
    void Catalogue.loadInitial()
  }, [])
  return useMemo(() => {
    const join = (w: WalletEntry) => {
      const live = injected.find((i) => i.id === w.id || (w.rdns && i.rdns === w.rdns))
      return live ? { ...w, injected: live.injected as NonNullable<WalletEntry['injected']> } : w
    }
    // Installed wallets of a namespace not offered now (not configured, or not the one
    // `connect({ namespace })` asked for) are left out everywhere, recent ones included.
    const shown = injected.map((w) => w.injected as NonNullable<WalletEntry['injected']>)
    const left = injectedInfo
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
  }, [catalogue, injectedInfo, recent, config, injected])
}

/** Installed wallets first, then the loaded catalogue pages. */
export function useAllWallets(): WalletEntry[] {
  const catalogue = useModal((s) => s.catalogue)
  const injectedInfo = useModal((s) => s.injected)
  const injected = useInjectedWallets()
  return useMemo(
    () =>
      allWalletsOrder([
        ...injected,
        ...catalogue.wallets.map((w) => fromCatalogue(w, injectedInfo)),
      ]),
    [catalogue, injectedInfo, injected],
  )
}
