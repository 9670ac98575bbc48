/**
 * Views that load on demand (their code is not in the modal's first download): the QR view,
 * All Wallets, the Account tabs and the Send views. Each is fetched ahead of time where the user is likely
 * to go next.
 */
import { lazyView } from '../components/lazyView.js'

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
