/**
 * zod-free checks of everything the modal receives before its first view is usable: the
 * envelope and `hello`, the host's requests and events (`HostToModal`) with the `hello.config`
 * options, and the wallet frame's events (`WalletToModal`). Each mirrors the zod schema of the
 * same name (`../schemas.ts`, `../contracts/`), which stays the reference: `toModal.test.ts`
 * keeps both answering alike. Written with `./check.ts` so that the modal's first download
 * carries no zod (issue 26).
 */
import { NS } from '../constants.js'
import type * as HostModal from '../contracts/hostModal.js'
import type * as ModalWallet from '../contracts/modalWallet.js'
import type * as Schemas from '../schemas.js'
import type { ContractSchema, Validator } from '../types.js'
import {
  array,
  boolean,
  type Check,
  int,
  maximum,
  maxLength,
  minimum,
  minLength,
  nullable,
  number,
  object,
  oneOf,
  optional,
  partial,
  positive,
  record,
  refine,
  regex,
  string,
  union,
  unknown,
} from './check.js'

const Text = (max: number) => string(maxLength(max))

// The envelope and the handshake (../schemas.ts).

const MessageId = number(int, positive, maximum(Number.MAX_SAFE_INTEGER))
const ErrorObject = object<Schemas.ErrorObject>({
  code: number(int),
  message: Text(2000),
  data: optional(unknown),
})
const head = { ns: oneOf(NS), v: number(int, positive) }
const Method = string(minLength(1), maxLength(64))

/** Any message on an established port (`Envelope`). */
export const Envelope: Check<Schemas.Envelope> = union(
  object({ ...head, kind: oneOf('req'), id: MessageId, method: Method, params: optional(unknown) }),
  refine(
    object<{ error?: unknown; result?: unknown }>({
      ...head,
      kind: oneOf('res'),
      id: MessageId,
      result: optional(unknown),
      error: optional(ErrorObject),
    }),
    (m) => m.error === undefined || m.result === undefined,
    'both result and error',
  ),
  object({ ...head, kind: oneOf('evt'), id: MessageId, topic: Method, data: optional(unknown) }),
  object({ ...head, kind: oneOf('cancel'), id: MessageId }),
  object({ ...head, kind: oneOf('ping'), id: MessageId }),
  object({ ...head, kind: oneOf('pong'), id: MessageId }),
)

/** The parent's `hello`, carrying the port (`HelloMessage`). */
export const HelloMessage = object<Schemas.HelloMessage>({
  ...head,
  kind: oneOf('hello'),
  nonce: string(minLength(16), maxLength(64)),
  versions: array(number(int, positive), 16, 1),
  projectId: Text(128),
  metadata: optional(unknown),
  config: optional(unknown),
})

// Host ⇄ modal (../contracts/hostModal.ts).

const CaipNetworkId = string(regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/))
const ChainNamespace = oneOf('eip155', 'solana', 'polkadot', 'bip122', 'cosmos')
const HttpUrl = string(maxLength(2048), regex(/^https?:\/\//))
const OpenableUrl = string(
  maxLength(4096),
  regex(/^(?!(?:javascript|data|vbscript|file|blob):)[a-z][a-z0-9+.-]*:/i),
)

const NetworkInput = object<HostModal.NetworkInput>({
  id: union(number(int, positive), Text(64)),
  caipNetworkId: optional(CaipNetworkId),
  chainNamespace: optional(ChainNamespace),
  name: Text(64),
  nativeCurrency: object({
    name: Text(64),
    symbol: Text(16),
    decimals: number(int, minimum(0), maximum(36)),
  }),
  rpcUrls: record(Text(32), object({ http: array(HttpUrl, 8) }, 'loose')),
  blockExplorers: optional(record(Text(32), object({ name: Text(64), url: HttpUrl }, 'loose'))),
  testnet: optional(boolean),
  assets: optional(object({ imageId: optional(Text(128)), imageUrl: optional(HttpUrl) })),
})

/** Dapp metadata (`Metadata`). */
export const Metadata = object<HostModal.Metadata>({
  name: Text(100),
  description: optional(Text(500)),
  url: optional(HttpUrl),
  icons: optional(array(HttpUrl, 8)),
})

const OpenableView = oneOf('Connect', 'Account', 'AllWallets', 'Networks', 'WhatIsAWallet')

const Socials = union(array(Text(16), 16), oneOf(false))

/** Feature switches (`Features`); its `shape` checks one option at a time. */
export const Features = partial<HostModal.Features>({
  analytics: boolean,
  allWallets: boolean,
  email: boolean,
  socials: Socials,
  legalCheckbox: boolean,
  collapseWallets: boolean,
  smartSessions: boolean,
  send: boolean,
  receive: boolean,
  swaps: boolean,
  onramp: boolean,
  pay: boolean,
  history: boolean,
  connectMethodsOrder: array(oneOf('email', 'social', 'wallet'), 3),
  connectorTypeOrder: array(
    oneOf('walletConnect', 'recent', 'injected', 'featured', 'custom', 'external', 'recommended'),
    7,
  ),
})

const WalletIds = array(Text(128), 500)
const Providers = union(array(Text(32), 8), oneOf(false))

/** A project's remote features (`RemoteFeatures`). */
export const RemoteFeatures = partial<HostModal.RemoteFeatures>({
  swaps: Providers,
  onramp: Providers,
  email: boolean,
  socials: Socials,
  activity: boolean,
  multiWallet: boolean,
})

/** A wallet the dapp adds (`CustomWallet`): unknown keys are refused. */
export const CustomWallet = object<HostModal.CustomWallet>(
  {
    id: Text(128),
    name: Text(100),
    image_url: optional(HttpUrl),
    homepage: optional(HttpUrl),
    mobile_link: optional(OpenableUrl),
  },
  'strict',
)

const DefaultAccountTypes = record(
  ChainNamespace,
  oneOf('eoa', 'smartAccount', 'payment', 'ordinal'),
  true,
)

/** What `open()` asks for (`OpenParams`). */
export const OpenParams = object<HostModal.OpenParams>({
  view: optional(OpenableView),
  namespace: optional(ChainNamespace),
})

/** `hello.config` (`ModalConfig`); its `shape` checks one option at a time. */
export const ModalConfig = object<HostModal.ModalConfig>({
  networks: array(union(CaipNetworkId, NetworkInput), 100),
  defaultNetwork: optional(CaipNetworkId),
  themeMode: optional(oneOf('light', 'dark')),
  themeVariables: optional(record(Text(64), union(Text(256), number()))),
  features: optional(Features),
  featuredWalletIds: optional(WalletIds),
  includeWalletIds: optional(WalletIds),
  excludeWalletIds: optional(WalletIds),
  termsConditionsUrl: optional(HttpUrl),
  privacyPolicyUrl: optional(HttpUrl),
  enableNetworkSwitch: optional(boolean),
  allowUnsupportedChain: optional(boolean),
  enableReconnect: optional(boolean),
  debug: optional(boolean),
  remoteFeatures: optional(RemoteFeatures),
  customWallets: optional(array(CustomWallet, 50)),
  defaultAccountTypes: optional(DefaultAccountTypes),
  siwx: optional(
    union(
      object({ required: boolean, statement: optional(Text(300)) }),
      oneOf('required', 'optional'),
    ),
  ),
  siweConfig: optional(unknown),
  locale: optional(Text(35)),
  storage: optional(Text(100_000)),
  opening: optional(OpenParams),
})

/** An injected wallet the host page found (`InjectedProviderInfo`). */
export const InjectedProviderInfo = object<HostModal.InjectedProviderInfo>({
  uuid: string(maxLength(64), minLength(1)),
  name: Text(100),
  icon: Text(200_000),
  rdns: Text(128),
  legacy: optional(boolean),
  external: optional(boolean),
  namespace: optional(ChainNamespace),
  chains: optional(array(Text(64), 16)),
})

const JsonRpcParams = optional(
  union(array(unknown, Number.POSITIVE_INFINITY), record(string(), unknown)),
)
const NonEmpty = (max: number) => string(maxLength(max), minLength(1))
const Empty = object({})

/** Checks of `HostToModal` as {@link validator} takes them (params per method, data per topic). */
export const HostToModal = {
  requests: {
    open: OpenParams,
    close: Empty,
    disconnect: Empty,
    connect: object({ namespace: optional(ChainNamespace) }),
    wallets: Empty,
    connectWallet: object({ wallet: NonEmpty(128) }),
    connectEmail: object({ email: string(maxLength(254), minLength(3)) }),
    switchNetwork: object({ network: union(CaipNetworkId, NetworkInput) }),
    request: object({
      method: NonEmpty(64),
      params: JsonRpcParams,
      namespace: optional(ChainNamespace),
    }),
  },
  events: {
    injectedProviders: object({ providers: array(unknown, 50) }),
    injectedEvent: object({
      uuid: Text(64),
      event: oneOf('accountsChanged', 'chainChanged', 'connect', 'disconnect'),
      data: unknown,
    }),
  },
} satisfies Checks<typeof HostModal.HostToModalSchema>

// Wallet frame → modal (../contracts/modalWallet.ts).

const Address = string(regex(/^0x[0-9a-fA-F]{40}$/))
const AccountType = oneOf('eoa', 'smartAccount')
const EmbeddedUser = object<ModalWallet.EmbeddedUser>({
  email: nullable(
    string(maxLength(254), regex(/^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[A-Za-z]{2,}$/)),
  ),
  address: Address,
  chainId: union(number(int, positive), Text(64)),
  accounts: array(object({ address: Address, type: AccountType }), 4),
  userName: nullable(Text(100)),
  socialProvider: nullable(
    oneOf('google', 'github', 'apple', 'facebook', 'x', 'discord', 'farcaster'),
  ),
  preferredAccountType: AccountType,
  smartAccountDeployed: boolean,
  solanaAddress: optional(string(regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/))),
})

/** Checks of `WalletToModal` (events only: the frame asks the modal nothing). */
export const WalletToModal = {
  requests: {},
  events: {
    ready: object({ isConnected: boolean, user: optional(nullable(EmbeddedUser)) }),
    approvalRequested: object({ method: Text(64) }),
    approvalDone: object({ approved: boolean }),
    userChanged: object({ user: nullable(EmbeddedUser) }),
  },
} satisfies Checks<typeof ModalWallet.WalletToModalSchema>

/** A contract's checks: one per request's params and per event's data, the same keys as its schema. */
export type Checks<C extends ContractSchema = ContractSchema> = {
  requests: { [M in keyof C['requests']]: Check }
  events: { [T in keyof C['events']]: Check }
}

/**
 * Builds a channel validator for the inbound side of a contract from its checks (the zod-free
 * counterpart of `fromContract`).
 *
 * @example
 * Child.listen({ parentOrigin, validator: Checks.validator(Checks.HostToModal), onChannel })
 */
export function validator(checks: Checks): Validator {
  return {
    envelope(raw) {
      const parsed = Envelope.safeParse(raw)
      return parsed.success ? parsed.data : undefined
    },
    params(method, params) {
      return Object.hasOwn(checks.requests, method)
        ? (checks.requests[method] as Check).safeParse(params)
        : undefined
    },
    event(topic, data) {
      return Object.hasOwn(checks.events, topic)
        ? (checks.events[topic] as Check).safeParse(data)
        : undefined
    },
  }
}
