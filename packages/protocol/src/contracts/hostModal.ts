/**
 * The host page (SDK) ⇄ modal frame contract. `HostToModal` is what the SDK sends and the
 * modal handles; `ModalToHost` the reverse. The SDK validates inbound traffic with the
 * zod-free guards in `../guards/hostModal.ts`, which a test keeps equal to these schemas.
 */
import * as z from 'zod/mini'
import type { InferContract } from '../types.js'

const Text = (max: number) => z.string().check(z.maxLength(max))

/** A CAIP-2 chain id such as `eip155:1` (namespace 3–8 chars, reference up to 32). */
export const CaipNetworkId = z.string().check(z.regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/))
export type CaipNetworkId = z.infer<typeof CaipNetworkId>

/** A chain namespace Porthole supports (spec §5). */
export const ChainNamespace = z.enum(['eip155', 'solana', 'polkadot', 'bip122', 'cosmos'])
export type ChainNamespace = z.infer<typeof ChainNamespace>

const HttpUrl = z.string().check(z.maxLength(2048), z.regex(/^https?:\/\//))

/** A URL the host may open for the modal: any scheme but script-capable or local ones. */
export const OpenableUrl = z
  .string()
  .check(
    z.maxLength(4096),
    z.regex(/^(?!(?:javascript|data|vbscript|file|blob):)[a-z][a-z0-9+.-]*:/i),
  )

/** A network given as an object (viem `Chain` shape plus CAIP fields). */
export const NetworkInput = z.object({
  id: z.union([z.number().check(z.int(), z.positive()), Text(64)]),
  caipNetworkId: z.optional(CaipNetworkId),
  chainNamespace: z.optional(ChainNamespace),
  name: Text(64),
  nativeCurrency: z.object({
    name: Text(64),
    symbol: Text(16),
    decimals: z.number().check(z.int(), z.minimum(0), z.maximum(36)),
  }),
  rpcUrls: z.record(Text(32), z.looseObject({ http: z.array(HttpUrl).check(z.maxLength(8)) })),
  blockExplorers: z.optional(z.record(Text(32), z.looseObject({ name: Text(64), url: HttpUrl }))),
  testnet: z.optional(z.boolean()),
  assets: z.optional(z.object({ imageId: z.optional(Text(128)), imageUrl: z.optional(HttpUrl) })),
})
export type NetworkInput = z.infer<typeof NetworkInput>

/** Dapp metadata (spec §3, "Dapp data sync"). */
export const Metadata = z.object({
  name: Text(100),
  description: z.optional(Text(500)),
  url: z.optional(HttpUrl),
  icons: z.optional(z.array(HttpUrl).check(z.maxLength(8))),
})
export type Metadata = z.infer<typeof Metadata>

/** Views the host may ask `open()` to show. */
export const OpenableView = z.enum([
  'Connect',
  'Account',
  'AllWallets',
  'Networks',
  'WhatIsAWallet',
])
export type OpenableView = z.infer<typeof OpenableView>

/** Feature switches (spec §9 defaults apply to what is omitted). */
export const Features = z.partial(
  z.object({
    analytics: z.boolean(),
    allWallets: z.boolean(),
    email: z.boolean(),
    socials: z.union([z.array(Text(16)).check(z.maxLength(16)), z.literal(false)]),
    legalCheckbox: z.boolean(),
    collapseWallets: z.boolean(),
    /** The Account view lists the smart account's sessions even when there are none. */
    smartSessions: z.boolean(),
    send: z.boolean(),
    receive: z.boolean(),
    swaps: z.boolean(),
    onramp: z.boolean(),
    /** Pay: forces e-mail and social login off (spec §5). */
    pay: z.boolean(),
    history: z.boolean(),
    connectMethodsOrder: z.array(z.enum(['email', 'social', 'wallet'])).check(z.maxLength(3)),
    /**
     * AppKit's connector order on Connect: the types named come first, in this order, then the
     * others in the spec's default order (walletConnect, recent, injected, featured, custom,
     * external, recommended).
     */
    connectorTypeOrder: z
      .array(
        z.enum([
          'walletConnect',
          'recent',
          'injected',
          'featured',
          'custom',
          'external',
          'recommended',
        ]),
      )
      .check(z.maxLength(7)),
  }),
)
export type Features = z.infer<typeof Features>

const WalletIds = z.array(Text(128)).check(z.maxLength(500))

/**
 * A project's remote features (spec §9, `GET /appkit/v1/config`): a list feature is its enabled
 * providers or `false`. As the host's `remoteFeatures` option it can only narrow what the project
 * allows.
 */
export const RemoteFeatures = z.partial(
  z.object({
    swaps: z.union([z.array(Text(32)).check(z.maxLength(8)), z.literal(false)]),
    onramp: z.union([z.array(Text(32)).check(z.maxLength(8)), z.literal(false)]),
    email: z.boolean(),
    socials: z.union([z.array(Text(16)).check(z.maxLength(16)), z.literal(false)]),
    activity: z.boolean(),
    multiWallet: z.boolean(),
  }),
)
export type RemoteFeatures = z.infer<typeof RemoteFeatures>

/** A wallet the dapp adds to the list (AppKit's `customWallets` shape); pairs over WalletConnect. */
export const CustomWallet = z.strictObject({
  id: Text(128),
  name: Text(100),
  image_url: z.optional(HttpUrl),
  homepage: z.optional(HttpUrl),
  /** Its WalletConnect deep link: a native scheme (`wallet://`) or a universal https link. */
  mobile_link: z.optional(OpenableUrl),
})
export type CustomWallet = z.infer<typeof CustomWallet>

/** The account type per namespace a new embedded account starts with (spec §6 defaults). */
export const DefaultAccountTypes = z.partialRecord(
  ChainNamespace,
  z.enum(['eoa', 'smartAccount', 'payment', 'ordinal']),
)
export type DefaultAccountTypes = z.infer<typeof DefaultAccountTypes>

/** What `open()` asks for: a view, or Connect listing one namespace's wallets. */
export const OpenParams = z.object({
  view: z.optional(OpenableView),
  namespace: z.optional(ChainNamespace),
})
export type OpenParams = z.infer<typeof OpenParams>

/** Configuration the SDK hands to the modal in `hello.config` (spec §3 options). */
export const ModalConfig = z.object({
  networks: z.array(z.union([CaipNetworkId, NetworkInput])).check(z.maxLength(100)),
  defaultNetwork: z.optional(CaipNetworkId),
  themeMode: z.optional(z.enum(['light', 'dark'])),
  themeVariables: z.optional(z.record(Text(64), z.union([Text(256), z.number()]))),
  features: z.optional(Features),
  featuredWalletIds: z.optional(WalletIds),
  includeWalletIds: z.optional(WalletIds),
  excludeWalletIds: z.optional(WalletIds),
  termsConditionsUrl: z.optional(HttpUrl),
  privacyPolicyUrl: z.optional(HttpUrl),
  enableNetworkSwitch: z.optional(z.boolean()),
  allowUnsupportedChain: z.optional(z.boolean()),
  /**
   * Restore the last visit's connections after a reload (spec §4 "Adapter sync"; AppKit's
   * `enableReconnect`, default true). `false`: every page load starts disconnected.
   */
  enableReconnect: z.optional(z.boolean()),
  debug: z.optional(z.boolean()),
  remoteFeatures: z.optional(RemoteFeatures),
  customWallets: z.optional(z.array(CustomWallet).check(z.maxLength(50))),
  defaultAccountTypes: z.optional(DefaultAccountTypes),
  /**
   * Sign in with the wallet (SIWX, spec §4): `{ required, statement? }`, or the script tag's
   * `data-siwx="required"` / `"optional"`.
   */
  siwx: z.optional(
    z.union([
      z.object({ required: z.boolean(), statement: z.optional(Text(300)) }),
      z.enum(['required', 'optional']),
    ]),
  ),
  /** AppKit's older sign-in option: refused together with `siwx` (spec §5). */
  siweConfig: z.optional(z.unknown()),
  /**
   * The modal's language: one of `LOCALES` (constants.ts), or a regional variant of one
   * (`'de-AT'`); the modal refuses any other. Default: the browser's preferred languages.
   */
  locale: z.optional(Text(35)),
  /**
   * The modal's persisted state as the host keeps it, for browsers that give the modal frame
   * no storage of its own (third-party storage blocked); see the `persist` event.
   */
  storage: z.optional(z.string().check(z.maxLength(100_000))),
  /**
   * Set by the SDK, not the dapp: an `open()` called before the modal's handshake (a visitor who
   * clicked while the page loaded). The modal opens as the handshake completes, one round trip
   * sooner than an `open` request would.
   */
  opening: z.optional(OpenParams),
})
export type ModalConfig = z.infer<typeof ModalConfig>

/** Connector types (spec §3). */
export const ConnectorType = z.enum([
  'INJECTED',
  'ANNOUNCED',
  'EXTERNAL',
  'MULTI_CHAIN',
  'WALLET_CONNECT',
  'AUTH',
])
export type ConnectorType = z.infer<typeof ConnectorType>

/** The connector behind the current connection, as the host sees it. */
export const ConnectorInfo = z.object({
  id: Text(128),
  type: ConnectorType,
  name: Text(100),
  rdns: z.optional(Text(128)),
  uuid: z.optional(Text(64)),
})
export type ConnectorInfo = z.infer<typeof ConnectorInfo>

/** Connection status per namespace (spec §4). */
export const ConnectionStatus = z.enum(['disconnected', 'connecting', 'connected'])
export type ConnectionStatus = z.infer<typeof ConnectionStatus>

/**
 * One connection of `getState().connections`: a connector's account in one namespace
 * (several may be live at once, across and within namespaces; spec §3 "Connection").
 */
export const ConnectionInfo = z.object({
  connectorId: Text(128),
  namespace: ChainNamespace,
  address: Text(128),
  caipAddress: Text(200),
  /** The active connection of its namespace (the one `getProvider(namespace)` talks to). */
  active: z.boolean(),
})
export type ConnectionInfo = z.infer<typeof ConnectionInfo>

/** Everything `getState()` returns; pushed by the modal on every change. */
export const PortholeState = z.object({
  open: z.boolean(),
  status: ConnectionStatus,
  address: z.nullable(Text(128)),
  caipAddress: z.nullable(Text(200)),
  caipNetworkId: z.nullable(CaipNetworkId),
  chainId: z.nullable(z.union([z.number(), Text(64)])),
  connector: z.nullable(ConnectorInfo),
  view: z.nullable(Text(64)),
  /** A fatal configuration alert (e.g. 'Invalid Project ID'), or null. */
  error: z.nullable(z.object({ code: z.number().check(z.int()), message: Text(200) })),
  /** Every live connection; `address` / `caipAddress` above stay the active one. */
  connections: z.array(ConnectionInfo).check(z.maxLength(20)),
  /**
   * The wallet sign-in (SIWX) of the active account and network, or null: what `getSession()`
   * returns, for the host's server to verify.
   */
  session: z.nullable(
    z.object({
      address: Text(128),
      caipNetworkId: CaipNetworkId,
      message: Text(8192),
      signature: Text(2048),
    }),
  ),
})
export type PortholeState = z.infer<typeof PortholeState>

/** What `connect()` resolves with. */
export const ConnectResult = z.object({
  address: Text(128),
  caipAddress: Text(200),
  chainId: z.union([z.number(), Text(64)]),
  caipNetworkId: CaipNetworkId,
})
export type ConnectResult = z.infer<typeof ConnectResult>

/** Which namespace's provider emits an event (absent: eip155). */
const EventNamespace = { namespace: z.optional(ChainNamespace) }

/**
 * An event a dapp's provider emits (EIP-1193 for eip155, the same names for the other
 * namespaces' providers), decided by the modal from connection changes.
 */
export const ProviderEvent = z.union([
  z.object({
    event: z.literal('connect'),
    data: z.object({ chainId: Text(66) }),
    ...EventNamespace,
  }),
  z.object({
    event: z.literal('disconnect'),
    data: z.object({ code: z.number().check(z.int()), message: Text(200) }),
    ...EventNamespace,
  }),
  z.object({
    event: z.literal('accountsChanged'),
    data: z.array(Text(128)).check(z.maxLength(100)),
    ...EventNamespace,
  }),
  z.object({ event: z.literal('chainChanged'), data: Text(66), ...EventNamespace }),
  /** A WalletConnect pairing URI, for a dapp that draws its own QR code (or a test). */
  z.object({ event: z.literal('display_uri'), data: Text(4096), ...EventNamespace }),
])
export type ProviderEvent = z.infer<typeof ProviderEvent>

/**
 * An injected wallet the host page found: EIP-6963 info, the legacy `window.ethereum`, or a
 * Wallet Standard wallet (Solana, Bitcoin) with its namespace and chains.
 */
export const InjectedProviderInfo = z.object({
  uuid: Text(64).check(z.minLength(1)),
  name: Text(100),
  icon: Text(200_000),
  rdns: Text(128),
  /** True for the legacy `window.ethereum` entry. */
  legacy: z.optional(z.boolean()),
  /**
   * True for a connector the host registered itself (the SDK's `connectors` option, spec §3
   * type EXTERNAL): its uuid is `external:<id>`; the modal checks its id, name and image further
   * (`@porthole/protocol/external`).
   */
  external: z.optional(z.boolean()),
  /** The namespace the wallet serves (absent: eip155). */
  namespace: z.optional(ChainNamespace),
  /** Wallet Standard chains it declares, e.g. `solana:localnet`, `bitcoin:regtest`. */
  chains: z.optional(z.array(Text(64)).check(z.maxLength(16))),
})
export type InjectedProviderInfo = z.infer<typeof InjectedProviderInfo>

/**
 * One wallet of `wallets()` (headless mode): what the Connect view would list, in its order.
 * `type` says how `connect({ wallet: id })` reaches it (the page's own wallet, or a WalletConnect
 * pairing); `section` is the Connect view's group it sits in.
 */
export const HeadlessWallet = z.object({
  /** Pass it to `connect({ wallet })`. */
  id: Text(128).check(z.minLength(1)),
  name: Text(100),
  /** A `data:image/…` URI (installed wallets), an http(s) URL (the catalogue's), or ''. */
  icon: z.union([z.literal(''), Text(200_000).check(z.regex(/^(?:data:image\/|https?:\/\/)/))]),
  type: z.enum(['injected', 'walletConnect']),
  section: z.enum([
    'walletConnect',
    'recent',
    'installed',
    'featured',
    'custom',
    'external',
    'recommended',
  ]),
  /** Installed in this page (an EIP-6963 or Wallet Standard wallet, or the host's own connector, found now). */
  installed: z.boolean(),
  /** The namespace an installed wallet serves. */
  namespace: z.optional(ChainNamespace),
})
export type HeadlessWallet = z.infer<typeof HeadlessWallet>

const JsonRpcParams = z.optional(z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]))

/** Provider events the host forwards from an injected wallet. */
export const InjectedEventName = z.enum([
  'accountsChanged',
  'chainChanged',
  'connect',
  'disconnect',
])
export type InjectedEventName = z.infer<typeof InjectedEventName>

const Null = z.null()

/** Requests the host sends and the modal handles; events the host emits. */
export const HostToModalSchema = {
  requests: {
    open: {
      params: OpenParams,
      result: Null,
    },
    close: { params: z.object({}), result: Null },
    disconnect: { params: z.object({}), result: Null },
    /** Opens the modal (Connect) and resolves when an account connects; 4001 'Modal closed' if closed first. */
    connect: {
      /** `namespace`: resolve only when an account of that namespace connects (Connect lists its wallets). */
      params: z.object({ namespace: z.optional(ChainNamespace) }),
      result: ConnectResult,
    },
    /** Headless: the wallets Connect would list (installed, recent, catalogue), in its order. */
    wallets: { params: z.object({}), result: z.array(HeadlessWallet).check(z.maxLength(1000)) },
    /**
     * Headless: connects one wallet of `wallets()` without the Connect view (an installed one
     * through the page, any other by WalletConnect: its URIs go out as `display_uri`).
     */
    connectWallet: {
      params: z.object({ wallet: Text(128).check(z.minLength(1)) }),
      result: ConnectResult,
    },
    /** Headless: e-mail sign-in; the modal shows only the code entry (and later approvals). */
    connectEmail: {
      params: z.object({ email: Text(254).check(z.minLength(3)) }),
      result: ConnectResult,
    },
    switchNetwork: {
      params: z.object({ network: z.union([CaipNetworkId, NetworkInput]) }),
      result: Null,
    },
    /**
     * A provider call for a connection the modal holds (WalletConnect, embedded): EIP-1193 for
     * eip155, WalletConnect's JSON-RPC methods for solana and bip122.
     */
    request: {
      params: z.object({
        method: Text(64).check(z.minLength(1)),
        params: JsonRpcParams,
        namespace: z.optional(ChainNamespace),
      }),
      result: z.unknown(),
    },
  },
  events: {
    /** Each entry is checked on its own against {@link InjectedProviderInfo}; bad ones are skipped. */
    injectedProviders: z.object({ providers: z.array(z.unknown()).check(z.maxLength(50)) }),
    injectedEvent: z.object({ uuid: Text(64), event: InjectedEventName, data: z.unknown() }),
  },
} as const
export type HostToModal = InferContract<typeof HostToModalSchema>

/** Requests the modal sends and the host handles; events the modal emits. */
export const ModalToHostSchema = {
  requests: {
    /** Run an EIP-1193 call on the injected provider with this uuid. */
    injectedRequest: {
      params: z.object({
        uuid: Text(64).check(z.minLength(1)),
        method: Text(64).check(z.minLength(1)),
        params: JsonRpcParams,
      }),
      result: z.unknown(),
    },
    /** Open a URL from the host's top window (deep links). */
    openUrl: {
      params: z.object({ url: OpenableUrl, target: z.enum(['_blank', '_self']) }),
      result: Null,
    },
  },
  events: {
    state: PortholeState,
    providerEvent: ProviderEvent,
    /** Asks the host to keep the modal's persisted state (only when the frame has no storage). */
    persist: z.object({ value: z.string().check(z.maxLength(100_000)) }),
  },
} as const
export type ModalToHost = InferContract<typeof ModalToHostSchema>
