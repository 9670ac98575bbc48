/**
 * Types of the modal's single store. Navigation is a stack of typed screens: each screen is a
 * value with exactly the data its view needs (DESIGN §3).
 */
import type {
  ConnectionStatus,
  ConnectorInfo,
  DeviceStep,
  EmbeddedUser,
  Features,
  InjectedProviderInfo,
  Locale,
  Metadata,
  SocialProvider,
} from '@porthole/protocol'
import type {
  BalanceEntry,
  ChainNamespace,
  IdentityResponse,
  Network,
  NftEntry,
} from '@porthole/shared'
import type { Cache } from '../rules/caches.js'
import type { CatalogueWallet, ConnectorTypeOrder } from '../rules/walletLists.js'
import type { TransactionListState } from './activityState.js'
import type { OnrampState } from './onrampState.js'
import type { SendState } from './sendState.js'
import type { SwapState } from './swapState.js'

/** A wallet as lists show it: from the catalogue, an injected announcement, or both. */
export type WalletEntry = {
  /** Catalogue id when known, else the connector id (rdns, or 'injected'). */
  id: string
  name: string
  /** Image URL (catalogue) or data URI (EIP-6963 icon); may be empty. */
  image: string
  rdns?: string
  /** Present when the wallet is installed in the host page. */
  injected?: InjectedProviderInfo
  homepage?: string
  chromeStore?: string
  /** WalletConnect deep links (native scheme, universal https link). */
  mobileLink?: string
  universalLink?: string
  /** Catalogue popularity rank. */
  order?: number
  /** A connector the host registered itself (type EXTERNAL): reachable only while it is. */
  external?: true
}

/** Every screen of the modal, each with its own data. */
export type Screen =
  | { view: 'Connect' }
  | { view: 'AllWallets' }
  | { view: 'WhatIsAWallet' }
  | { view: 'ConnectingExternal'; wallet: WalletEntry }
  | { view: 'ConnectingWalletConnect'; wallet?: WalletEntry; basic?: boolean }
  | { view: 'Account' }
  | { view: 'Networks' }
  | { view: 'SwitchNetwork'; network: Network; confirm: boolean }
  | {
      view: 'SwitchActiveChain'
      switchToChain: ChainNamespace
      navigateTo: 'Connect'
      navigateWithReplace: boolean
      network: Network
    }
  | { view: 'UnsupportedChain' }
  | { view: 'EmailLogin' }
  | { view: 'EmailVerifyOtp'; email: string }
  | { view: 'EmailVerifyDevice'; email: string | null; method: DeviceStep }
  | { view: 'ConnectingSocial'; provider: SocialProvider }
  /** Farcaster login: a QR code and link of the relay channel, until the user's app answers. */
  | { view: 'ConnectingFarcaster' }
  | { view: 'UpdateEmailWallet'; stage: 'new' | 'primary' | 'secondary'; email: string }
  | { view: 'ApproveTransaction'; method: string }
  | { view: 'WalletSend' }
  | { view: 'WalletSendSelectToken' }
  | { view: 'WalletSendPreview' }
  | { view: 'ProfileWallets' }
  /** `name` (with its suffix) and `error`: the last try, when registering failed (spec §2). */
  | { view: 'RegisterAccountName'; name?: string; error?: string }
  | { view: 'RegisterAccountNameSuccess'; name: string }
  | { view: 'SIWXSignMessage' }
  | { view: 'Receive' }
  /** Swap: from-token, to-token and amounts, quoted as the user types. */
  | { view: 'Swap' }
  | { view: 'SwapSelectToken'; side: 'from' | 'to' }
  /** The quote's details, then approve (when the allowance is short) and swap. */
  | { view: 'SwapPreview' }
  /** Buy crypto: amount, currencies and provider. */
  | { view: 'OnRamp' }
  /** The provider's checkout is open in a popup; the order is followed until the funds arrive. */
  | { view: 'OnRampStatus'; orderId: string; provider: string }

/** A view name. */
export type ViewName = Screen['view']

/** A toast (spec §3). */
export type Toast = {
  message: string
  variant: 'success' | 'error' | 'loading'
  open: boolean
  autoClose: boolean
}

/** A blocking configuration or service alert (spec §8 "Alerts"). */
export type Alert = {
  code: number
  message: string
  fatal: boolean
  /** What the alert's own button does: `retrySignOut` asks the wallet to sign out again. */
  action?: 'retrySignOut' | undefined
}

/**
 * The active connection of the active namespace, as views read it (derived from
 * `connections` by `actions/connection.ts`, never set elsewhere).
 */
export type Connection = {
  status: ConnectionStatus
  connector: ConnectorInfo | null
  address: string | null
  /** The chain the wallet is on (may be outside the configured networks). */
  caipNetworkId: string | null
}

/** A Bitcoin account of a connection (spec §3 "Bitcoin account": payment first, ordinal second). */
export type BitcoinAccount = {
  address: string
  purpose: 'payment' | 'ordinal'
  publicKey?: string
  path?: string
}

/**
 * One live connection: a connector's account in one namespace (spec §3 "Connection"). Several
 * may be live at once, across and within namespaces; `connector.id` + `namespace` identify it
 * (ids compared case-insensitively).
 */
export type LiveConnection = {
  connector: ConnectorInfo
  namespace: ChainNamespace
  address: string
  /** The chain the wallet is on (may be outside the configured networks). */
  caipNetworkId: string
  /** bip122: every account the wallet gave, payment first. */
  accounts?: BitcoinAccount[]
}

/** A wallet sign-in the modal keeps (spec §4 "Wallet sign-in"); `token` reads and revokes it. */
export type SiwxSession = {
  address: string
  caipNetworkId: string
  message: string
  signature: string
  expiresAt: number
  token: string
}

/** Configuration after validation and defaults. */
export type ResolvedConfig = {
  projectId: string
  metadata: Metadata
  networks: Network[]
  defaultNetwork: Network | undefined
  themeMode: 'light' | 'dark'
  themeVariables: Record<string, string | number>
  features: Required<
    Pick<
      Features,
      | 'allWallets'
      | 'email'
      | 'legalCheckbox'
      | 'collapseWallets'
      | 'smartSessions'
      | 'analytics'
      | 'send'
      | 'receive'
      | 'history'
    >
  > & {
    socials: string[] | false
    connectMethodsOrder: ('email' | 'social' | 'wallet')[]
    /** Connect's connector types, all seven in the order drawn (`features.connectorTypeOrder`). */
    connectorTypeOrder: ConnectorTypeOrder[]
    /** Swap and on-ramp views (a provider is named and the host did not turn them off). */
    swaps: boolean
    onramp: boolean
    /** The project's on-ramp providers (spec §5: a list of strings, else empty). */
    onrampProviders: string[]
    /** Several wallets may share a namespace (the project's `multiWallet`, spec §9 default off). */
    multiWallet: boolean
  }
  featuredWalletIds: string[]
  includeWalletIds: string[]
  excludeWalletIds: string[]
  /** The dapp's own wallets (`customWallets`), listed after the featured ones. */
  customWallets: WalletEntry[]
  termsConditionsUrl: string | undefined
  privacyPolicyUrl: string | undefined
  enableNetworkSwitch: boolean
  allowUnsupportedChain: boolean
  /** Restore the last visit's connections after a reload (AppKit's `enableReconnect`, default true). */
  enableReconnect: boolean
  debug: boolean
  isMobile: boolean
  /** The eip155 account type a new embedded user starts with (spec §6: smartAccount). */
  evmAccountType: 'eoa' | 'smartAccount'
  /** Sign in with the wallet (SIWX), or null when the host did not ask for it. */
  siwx: { required: boolean; statement?: string | undefined } | null
  /** The language the modal shows (the `locale` option, else the browser's). */
  locale: Locale
}

/** A native balance reading. */
export type Balance = {
  key: string
  value: bigint | null
  symbol: string
  decimals: number
  fetchedAt: number
  failed: boolean
}

/** The Account view's tabs (spec §2). */
export type AccountTab = 'tokens' | 'nfts' | 'activity'

/** Token balances of the blockchain data service (or the wallet's own asset discovery). */
export type TokensState = {
  /** Balances by account on a network (`cacheKey`), 30 s fresh (spec §9). */
  cache: Cache<BalanceEntry[]>
  /** When the last fetch failed: the next waits 30 s from it (spec §5). */
  lastFailure: number | null
  loading: boolean
}

/** The NFTs the account holds on the active network. */
export type NftsState = {
  /** The account on a network these belong to (`cacheKey`). */
  key: string | null
  entries: NftEntry[]
  next: string | null
  loading: boolean
  failed: boolean
}

/** The Activity list (spec §3 transaction list state) and the account it belongs to. */
export type ActivityState = TransactionListState & { account: string | null }

/** The wallet catalogue as loaded so far (`/getWallets`). */
export type CatalogueState = {
  status: 'idle' | 'loading' | 'ready' | 'error'
  wallets: CatalogueWallet[]
  count: number
  page: number
  featured: CatalogueWallet[]
}

/** The modal's whole state. */
export type ModalState = {
  ready: boolean
  open: boolean
  loading: boolean
  shake: boolean
  history: Screen[]
  toast: Toast | null
  alert: Alert | null
  config: ResolvedConfig
  injected: InjectedProviderInfo[]
  /** The active connection of the active namespace (derived from `connections`). */
  connection: Connection
  /** Every live connection. */
  connections: LiveConnection[]
  /** Connections of the last visit not yet re-synced (spec §4 "Adapter sync"). */
  savedConnections: LiveConnection[]
  /**
   * Disconnected connections Connected wallets still lists (spec §3 "Connection … disconnected",
   * §4 "Switching connections"): disconnected there one by one, or not restored because
   * `enableReconnect` is false. Choosing one reopens its login flow.
   */
  recentConnections: LiveConnection[]
  /** A reopened connection's login flow returns to Connected wallets instead of closing. */
  returnToProfileWallets: boolean
  /** The active connector id per namespace. */
  activeConnectorIds: Partial<Record<ChainNamespace, string>>
  /** The namespace the modal (and `getState().address`) follows. */
  activeNamespace: ChainNamespace
  /** `connect({ namespace })` asked for this namespace: Connect lists only its wallets. */
  connectNamespace: ChainNamespace | null
  /** Wallet sign-ins (SIWX) per address and network. */
  siwxSessions: SiwxSession[]
  /** The network the modal is on (CAIP-2), connected or not. */
  activeNetworkId: string | null
  balance: Balance | null
  recentWallets: WalletEntry[]
  disconnectedConnectorIds: string[]
  catalogue: CatalogueState
  /** The embedded-wallet user when the connector is AUTH. */
  authUser: EmbeddedUser | null
  /** When the last e-mail login code was asked for (cooldown, spec §5). */
  lastEmailLoginAt: number | null
  /** The WalletConnect pairing URI on screen and when it was made. */
  walletConnectUri: { uri: string; createdAt: number } | null
  /** The user ticked the terms checkbox (`features.legalCheckbox`) in this session. */
  legalAccepted: boolean
  accountTab: AccountTab
  /** Names and avatars by lower-cased address (`/v1/identity`, 5 min). */
  identities: Cache<IdentityResponse>
  tokens: TokensState
  nfts: NftsState
  activity: ActivityState
  send: SendState
  /** Swap state (spec §2 swap view); set by the swap views when first opened. */
  swap?: SwapState
  /** On-ramp state (spec §3); set by the on-ramp views when first opened. */
  onramp?: OnrampState
}
