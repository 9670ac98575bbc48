/**
 * Headless mode (issue 16): the host draws its own wallet list and asks for a connection, and
 * the Connect view never shows. `wallets()` is the list Connect would show; `connectWallet`
 * connects one of it (an installed wallet through the page, any other by a WalletConnect pairing
 * whose URIs the host receives as `display_uri`); `connectEmail` starts the e-mail sign-in, and
 * the modal shows only the code entry (then the device step and approvals, as usual).
 */
import {
  type ConnectResult,
  type HeadlessWallet,
  InvalidParamsError,
  UnauthorizedError,
  UnsupportedMethodError,
  UserRejectedRequestError,
} from '@porthole/protocol'
import { type ChainNamespace, isEmail } from '@porthole/shared'
import * as Injected from '../connectors/injected.js'
import { t } from '../i18n/en.js'
import { connectList, isShortList, shownSections, visibleInjected } from '../rules/connectList.js'
import { headlessWallets, liveInjected, WALLET_CONNECT_ID } from '../rules/headlessWallets.js'
import { detectPlatform, visibleSocials } from '../rules/socials.js'
import { runtime } from '../runtime.js'
import { store } from '../store/store.js'
import type { WalletEntry } from '../store/types.js'
import * as Auth from './auth.js'
import * as Catalogue from './catalogue.js'
import * as Waiters from './waiters.js'
import * as WalletConnect from './walletconnect.js'

/**
 * The wallets the Connect view would list now, the same rows in its order and sections (see
 * `rules/headlessWallets.ts`), once the catalogue's first page has answered (or failed: then
 * without it). Below e-mail or social login Connect's list is short (`rules/connectList.ts`
 * `shownSections`), and so is this one; `features.collapseWallets` only hides Connect's rows
 * behind one more click, so it changes nothing here.
 *
 * @example
 * const list = await wallets() // [{ id: 'dev.porthole.wallet', type: 'injected', … }, …]
 */
export async function wallets(): Promise<HeadlessWallet[]> {
  configured()
  await listReady()
  const state = store.getState()
  const features = state.config.features
  // The social logins Connect shows on this device (as `views/Connect.tsx` reads them).
  const socials = visibleSocials(
    features.socials === false ? [] : features.socials,
    detectPlatform(
      globalThis.navigator?.userAgent ?? '',
      typeof window !== 'undefined' && 'Telegram' in window,
    ),
  )
  return headlessWallets(
    shownSections(entries().sections, isShortList(state.config, socials)),
    state.injected,
    state.config.features.connectorTypeOrder,
  )
}

/**
 * Connects the wallet `id` of {@link wallets} without the Connect view: an installed wallet
 * asks its user in the page; any other (and `'walletConnect'`) starts a WalletConnect pairing,
 * renewed until a wallet approves it or `signal` aborts. Resolves as `connect()` does (after
 * the wallet sign-in when it is required); a refusal rejects with 'Connection rejected' (4001).
 *
 * @example
 * await connectWallet('dev.porthole.wallet', signal)
 */
export async function connectWallet(id: string, signal?: AbortSignal): Promise<ConnectResult> {
  configured()
  if (id === WALLET_CONNECT_ID) return settle(undefined, pair(signal))
  await listReady()
  const wallet = entries()
    .sections.flatMap((s) => s.wallets)
    .find((w) => w.id === id)
  if (!wallet) throw new InvalidParamsError(`Wallet not found: ${id}`)
  const live = liveInjected(wallet, store.getState().injected)
  if (!live) return settle(undefined, pair(signal))
  const installed: WalletEntry = { ...wallet, injected: live }
  return settle(Injected.namespaceOf(live), Injected.connectInjected(installed))
}

/**
 * Starts the e-mail sign-in without the Connect view: the modal opens on the code entry alone
 * (or connects at once when the wallet knows the device). Resolves when connected; closing the
 * modal rejects with 'Modal closed' (4001).
 *
 * @example
 * await connectEmail('ada@example.com')
 */
export async function connectEmail(email: string): Promise<ConnectResult> {
  configured()
  const address = email.trim()
  const { email: emailOn, socials } = store.getState().config.features
  // No e-mail and no social login: the project has no embedded wallet (AppKit's auth connector).
  if (!emailOn && !(socials && socials.length > 0))
    throw new UnsupportedMethodError('No auth connector found')
  if (!emailOn) throw new UnsupportedMethodError('E-mail login is turned off')
  if (!isEmail(address)) throw new InvalidParamsError(t('invalidEmail'))
  const controller = new AbortController()
  const result = Waiters.wait(undefined, controller.signal)
  try {
    await Auth.emailLogin(address)
  } catch (error) {
    controller.abort(error)
    return result
  }
  // Connected at once (a device the wallet knows), or the code to enter.
  const screen = store.getState().history.at(-1)
  if (screen?.view === 'EmailVerifyOtp') {
    // The code entry alone: no Connect under it, so Back and Escape close (and reject), and a
    // sign-in that fails after the code closes the modal too (`Auth.finish`).
    store.setState({ open: true, history: [screen], toast: null })
  }
  return result
}

/** 'Project ID Not Configured' before any work, as `connect()` answers. */
function configured(): void {
  if (!runtime.projectId) throw new UnauthorizedError(t('projectIdNotConfigured'))
}

/** The Connect view's sections, for any namespace (headless calls name no namespace). */
function entries() {
  const state = { ...store.getState(), connectNamespace: null }
  return connectList(state, visibleInjected(state))
}

/** How long `wallets()` waits for the catalogue's first page before answering without it. */
export const CATALOGUE_WAIT_MS = 10_000

/**
 * Waits for the persisted recent wallets and the catalogue's first page (its failure, or
 * {@link CATALOGUE_WAIT_MS}: then the list has no catalogue wallets).
 */
async function listReady(): Promise<void> {
  if (!store.persist.hasHydrated())
    await new Promise<void>((resolve) => {
      const off = store.persist.onFinishHydration(() => {
        off()
        resolve()
      })
    })
  void Catalogue.loadInitial()
  if (store.getState().catalogue.status !== 'loading') return
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      off()
      resolve()
    }
    const timer = setTimeout(done, CATALOGUE_WAIT_MS)
    const off = store.subscribe(({ catalogue }) => {
      if (catalogue.status !== 'loading') done()
    })
  })
}

/** A WalletConnect pairing; aborting stops renewing its URI. */
function pair(signal: AbortSignal | undefined): Promise<void> {
  signal?.addEventListener('abort', () => WalletConnect.cancelPairing(), { once: true })
  return WalletConnect.connectWalletConnect()
}

/**
 * Resolves with the connection once `flow` has connected and the `connect()` rules settle it
 * (after a required wallet sign-in); rejects with the flow's error, a refusal as 'Connection
 * rejected' (4001).
 */
function settle(namespace: ChainNamespace | undefined, flow: Promise<void>) {
  const controller = new AbortController()
  const result = Waiters.wait(namespace, controller.signal)
  flow.catch((error: unknown) =>
    controller.abort(
      (error as { code?: unknown })?.code === 4001
        ? new UserRejectedRequestError('Connection rejected')
        : error,
    ),
  )
  return result
}
