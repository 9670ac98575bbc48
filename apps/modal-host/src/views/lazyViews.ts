/**
 * Views that load on demand (their code is not in the modal's first download, issue 26): the QR
 * view, All Wallets, a browser wallet's connecting view, the e-mail sign-in's later steps, what follows a connection (Account and its tabs, Networks, the sign-in
 * card, the approval and network-switch cards) and the Send, Swap and Buy views. Each is fetched
 * ahead of time where the user is likely to go next, so none shows its spinner in practice.
 */
import { lazyView } from '../components/lazyView.js'

/** A browser wallet's connecting view, fetched while Connect idles. */
export const ConnectingExternalView = lazyView(
  async () => (await import('./ConnectingExternal.js')).ConnectingExternal,
)

/** The QR view (and its QR encoder), fetched while Connect idles. */
export const ConnectingWalletConnectView = lazyView(
  async () => (await import('./ConnectingWalletConnect.js')).ConnectingWalletConnect,
)

/** All Wallets: the catalogue's grid and search, fetched while Connect idles. */
export const AllWalletsView = lazyView(async () => (await import('./AllWallets.js')).AllWallets)

/** The Tokens / NFTs / Activity tabs of Account. */
export const AccountTabsView = lazyView(async () => (await import('./AccountTabs.js')).AccountTabs)

const send = () => import('./WalletSend.js')

/** Send: token, amount and receiver. */
export const WalletSendView = lazyView(async () => (await send()).WalletSend)
/** Send: choosing the token. */
export const WalletSendSelectTokenView = lazyView(async () => (await send()).WalletSendSelectToken)
/** Send: the preview. */
export const WalletSendPreviewView = lazyView(async () => (await send()).WalletSendPreview)

/** The embedded user's smart account and owner, with the switch (users who have both). */
export const AccountTypesView = lazyView(
  async () => (await import('./AccountTypes.js')).AccountTypes,
)

/** The smart account's sessions, with Revoke (embedded smart-account users). */
export const SmartSessionsView = lazyView(
  async () => (await import('./SmartSessions.js')).SmartSessions,
)

/** The embedded wallet's devices, with the notice of a new one and Remove. */
export const DevicesView = lazyView(async () => (await import('./Devices.js')).Devices)

const swap = () => import('./Swap.js')

/** Swap: tokens and amounts. */
export const SwapView = lazyView(async () => (await swap()).Swap)
/** Swap: choosing a token. */
export const SwapSelectTokenView = lazyView(async () => (await swap()).SwapSelectToken)
/** Swap: the quote's details, approve and swap. */
export const SwapPreviewView = lazyView(async () => (await swap()).SwapPreview)

const onramp = () => import('./OnRamp.js')

/** Buy crypto: amount, currencies and provider. */
export const OnRampView = lazyView(async () => (await onramp()).OnRamp)
/** Buy crypto: the checkout is open. */
export const OnRampStatusView = lazyView(async () => (await onramp()).OnRampStatus)

/** Receive: the address as a QR code (its encoder stays out of the first download). */
export const ReceiveView = lazyView(async () => (await import('./Receive.js')).Receive)

/** Account: the connected user's card. */
export const AccountView = lazyView(async () => (await import('./Account.js')).Account)
/** Networks: the network list. */
export const NetworksView = lazyView(async () => (await import('./Networks.js')).Networks)
/** The switch of network a host or the user asked for. */
export const SwitchNetworkView = lazyView(
  async () => (await import('./SwitchNetwork.js')).SwitchNetwork,
)
/** The switch between namespaces (EVM ↔ Solana ↔ Bitcoin). */
export const SwitchActiveChainView = lazyView(
  async () => (await import('./SwitchActiveChain.js')).SwitchActiveChain,
)
/** The wallet is on a network this app does not support. */
export const UnsupportedChainView = lazyView(
  async () => (await import('./UnsupportedChain.js')).UnsupportedChain,
)
/** The approval card of the embedded wallet's requests. */
export const ApproveTransactionView = lazyView(
  async () => (await import('./ApproveTransaction.js')).ApproveTransaction,
)
/** The wallets of a multi-wallet profile. */
export const ProfileWalletsView = lazyView(
  async () => (await import('./ProfileWallets.js')).ProfileWallets,
)
/** Sign in with the wallet (SIWX). */
export const SIWXSignMessageView = lazyView(
  async () => (await import('./SIWXSignMessage.js')).SIWXSignMessage,
)
const emailSteps = () => import('./EmailSteps.js')

/** The e-mail sign-in's code view (fetched while the address is typed). */
export const EmailVerifyOtpView = lazyView(async () => (await emailSteps()).EmailVerifyOtp)
/** The e-mail sign-in's device check. */
export const EmailVerifyDeviceView = lazyView(async () => (await emailSteps()).EmailVerifyDevice)
/** Changing the embedded wallet's e-mail. */
export const UpdateEmailWalletView = lazyView(async () => (await emailSteps()).UpdateEmailWallet)
/** What is a wallet?, from Connect's help link. */
export const WhatIsAWalletView = lazyView(
  async () => (await import('./WhatIsAWallet.js')).WhatIsAWallet,
)

/**
 * Fetches, at the next idle moment, the views a connection leads to: called when Connect is
 * on screen (the user may connect within seconds) and whenever the modal is connected (a
 * returning visitor's restored session, a headless connect), so the view after a connection
 * is drawn in the frame the connection lands in, not after a chunk's round trip.
 *
 * @example
 * useEffect(() => { if (connected) preloadConnectedViews() }, [connected])
 */
export function preloadConnectedViews(): void {
  const start = () => {
    // A failed fetch is tried again when the view is shown (lazyView forgets it).
    for (const view of [
      AccountView,
      SIWXSignMessageView,
      NetworksView,
      ApproveTransactionView,
      SwitchNetworkView,
      SwitchActiveChainView,
      UnsupportedChainView,
      ProfileWalletsView,
      WhatIsAWalletView,
      EmailVerifyOtpView,
      ConnectingExternalView,
    ])
      void view.preload().catch(() => {})
  }
  if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: 1000 })
  else setTimeout(start, 50)
}
