/**
 * The wallet lists the Connect and AllWallets views show, derived from the store.
 */
import { useEffect, useMemo } from 'react'
import * as Catalogue from '../actions/catalogue.js'
import { connectList, visibleInjected } from '../rules/connectList.js'
import { allWalletsOrder, fromCatalogue, type WalletSection } from '../rules/walletLists.js'
import { useModal } from '../store/store.js'
import type { WalletEntry } from '../store/types.js'

/**
 * Visible injected wallets, joined with the catalogue (spec §5 hiding rules; see
 * `rules/connectList.ts`).
 */
export function useInjectedWallets(): WalletEntry[] {
  const injected = useModal((s) => s.injected)
  const catalogue = useModal((s) => s.catalogue)
  const config = useModal((s) => s.config)
  const connectNamespace = useModal((s) => s.connectNamespace)
  return useMemo(
    () => visibleInjected({ injected, catalogue, config, connectNamespace }),
    [injected, catalogue, config, connectNamespace],
  )
}

/** The Connect view's sections, loading the catalogue on first use. */
export function useConnectSections(): { sections: WalletSection[]; count: number } {
  const catalogue = useModal((s) => s.catalogue)
  const injectedInfo = useModal((s) => s.injected)
  const recentWallets = useModal((s) => s.recentWallets)
  const config = useModal((s) => s.config)
  const connectNamespace = useModal((s) => s.connectNamespace)
  const injected = useInjectedWallets()
  useEffect(() => {
    void Catalogue.loadInitial()
  }, [])
  return useMemo(
    () =>
      connectList(
        { injected: injectedInfo, catalogue, config, connectNamespace, recentWallets },
        injected,
      ),
    [catalogue, injectedInfo, recentWallets, config, connectNamespace, injected],
  )
}

/** Installed wallets first, then the loaded catalogue pages (the host's connectors are on Connect). */
export function useAllWallets(): WalletEntry[] {
  const catalogue = useModal((s) => s.catalogue)
  const injectedInfo = useModal((s) => s.injected)
  const injected = useInjectedWallets()
  return useMemo(
    () =>
      allWalletsOrder([
        ...injected.filter((w) => !w.external),
        ...catalogue.wallets.map((w) => fromCatalogue(w, injectedInfo)),
      ]),
    [catalogue, injectedInfo, injected],
  )
}
