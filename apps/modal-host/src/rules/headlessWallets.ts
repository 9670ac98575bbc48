/**
 * Headless mode's wallet list (`porthole.wallets()`): the WalletConnect row, then the Connect
 * view's sections as the host receives them, one flat list in the view's order (the spec's
 * connector order: walletConnect, recent, injected, featured, custom, external, recommended).
 */
import type { HeadlessWallet, InjectedProviderInfo } from '@porthole/protocol'
import type { WalletEntry } from '../store/types.js'
import { CONNECTOR_TYPE_ORDER, type ConnectorTypeOrder, type WalletSection } from './walletLists.js'

/** The id of the plain WalletConnect pairing (the Connect view's "WalletConnect" row). */
export const WALLET_CONNECT_ID = 'walletConnect'

/** What the host may put in an `<img src>`: an image data URI or an http(s) URL. */
const ICON = /^(?:data:image\/|https?:\/\/)/
const MAX_ICON = 200_000
/** Room for the list in one port message (the receiver drops anything over 1 MiB of text). */
export const MAX_LIST_TEXT = 900_000

const SECTION: Record<WalletSection['type'], HeadlessWallet['section']> = {
  recent: 'recent',
  injected: 'installed',
  featured: 'featured',
  custom: 'custom',
  external: 'external',
  recommended: 'recommended',
}

/**
 * The installed wallet behind an entry, when it is in the page now (a recent wallet may carry
 * the descriptor of an earlier visit).
 *
 * @example
 * const live = liveInjected(entry, store.getState().injected)
 */
export function liveInjected(
  wallet: WalletEntry,
  injected: readonly InjectedProviderInfo[],
): InjectedProviderInfo | undefined {
  const uuid = wallet.injected?.uuid
  return uuid === undefined ? undefined : injected.find((i) => i.uuid === uuid)
}

/**
 * Flattens the Connect view's sections into the headless list: the plain WalletConnect entry
 * where Connect draws its row (first, unless `order` moves it: `features.connectorTypeOrder`),
 * and each wallet once, in the sections' order, with how `connect({ wallet: id })`
 * reaches it (`injected` when in the page now, a host connector included, else
 * `walletConnect`). Icons that are neither image data URIs nor http(s) URLs are left empty, and
 * the largest icons are dropped while the list would not fit in one message.
 *
 * @example
 * headlessWallets(connectList(state, visibleInjected(state)).sections, state.injected)
 */
export function headlessWallets(
  sections: readonly WalletSection[],
  injected: readonly InjectedProviderInfo[],
  order: readonly ConnectorTypeOrder[] = CONNECTOR_TYPE_ORDER,
): HeadlessWallet[] {
  const list: HeadlessWallet[] = []
  // The sections come in `order` already: the WalletConnect entry goes before the first section
  // that follows it there.
  const after = new Set(order.slice(order.indexOf('walletConnect') + 1))
  const walletConnect = () =>
    list.push({
      id: WALLET_CONNECT_ID,
      name: 'WalletConnect',
      icon: '',
      type: 'walletConnect',
      section: 'walletConnect',
      installed: false,
    })
  for (const section of sections) {
    if (after.has(section.type) && !list.some((w) => w.section === 'walletConnect')) walletConnect()
    for (const wallet of section.wallets) {
      if (!wallet.id || wallet.id.length > 128 || wallet.id === WALLET_CONNECT_ID) continue
      const live = liveInjected(wallet, injected)
      list.push({
        id: wallet.id,
        name: wallet.name.slice(0, 100),
        icon: ICON.test(wallet.image) && wallet.image.length <= MAX_ICON ? wallet.image : '',
        type: live ? 'injected' : 'walletConnect',
        section: SECTION[section.type],
        installed: !!live,
        ...(live ? { namespace: live.namespace ?? 'eip155' } : {}),
      })
    }
  }
  if (!list.some((w) => w.section === 'walletConnect')) walletConnect()
  let size = JSON.stringify(list).length
  for (const wallet of [...list].sort((a, b) => b.icon.length - a.icon.length)) {
    if (size <= MAX_LIST_TEXT || !wallet.icon) break
    size -= wallet.icon.length
    wallet.icon = ''
  }
  return list
}
