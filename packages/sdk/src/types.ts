import type {
  CaipNetworkId,
  Features,
  HeadlessWallet,
  Locale,
  Metadata,
  NetworkInput,
  OpenableView,
  PortholeState,
} from '@porthole/protocol/lite'

export type {
  CaipNetworkId,
  HeadlessWallet,
  Locale,
  Metadata,
  NetworkInput,
  OpenableView,
  PortholeState,
}

/** One connection of `getState().connections` (`{ connectorId, namespace, address, caipAddress, active }`). */
export type ConnectionInfo = PortholeState['connections'][number]

/** Namespaces with a provider: EVM (EIP-1193), Solana and Bitcoin (WalletConnect's JSON-RPC methods). */
export type ProviderNamespace = 'eip155' | 'solana' | 'bip122'

/**
 * A connector of the dapp's own (spec §3 connector type EXTERNAL): an EIP-1193 provider the dapp
 * has, such as a wallet SDK it ships. The modal lists it in its own section of Connect (after
 * the custom wallets) and connects through it as through a browser wallet: the modal asks it
 * for accounts, and the dapp's calls go straight to it while it is the active connection.
 *
 * @example
 * const connector = { id: 'acme', name: 'Acme Wallet', imageUrl: 'https://acme.example/logo.png', provider: acmeSdk.provider }
 */
export type ExternalConnector = {
  /** Its connector id (`getState().connector.id`): 1–48 letters, digits, `.`, `_` or `-`. */
  id: string
  /** Shown in the modal: at most 50 characters, no control or hidden (bidi, zero-width) ones. */
  name: string
  /** A PNG, JPEG, GIF, WebP or SVG data URI, or an https URL; otherwise the row shows its initials. */
  imageUrl?: string | undefined
  /** The EIP-1193 provider (`request`; `on` / `removeListener` for its events when it has them). */
  provider: Pick<EIP1193Provider, 'request'> &
    Partial<Pick<EIP1193Provider, 'on' | 'removeListener'>>
}

/** Options of {@link createPorthole}. Only `projectId` is required. */
export type PortholeOptions = {
  /** Your project id (from `npm run admin -- project create`). */
  projectId?: string | undefined
  /** Networks the dapp supports: CAIP-2 ids (`'eip155:1'`) or network objects (viem chains work). Default `['eip155:1']`. */
  networks?: readonly (CaipNetworkId | NetworkInput)[] | undefined
  /** The network to start on (CAIP-2); default the first of `networks`. */
  defaultNetwork?: CaipNetworkId | undefined
  /** Your app's name, description, url and icons, shown in the modal and to wallets. */
  metadata?: Metadata | undefined
  /** `'dark'` (default) or `'light'`. */
  themeMode?: 'light' | 'dark' | undefined
  /** Theme tokens, e.g. `{ '--ph-accent': '#3b82f6', '--ph-border-radius-master': '4px' }`. */
  themeVariables?: Record<string, string | number> | undefined
  /** Feature switches; omitted ones take the defaults. */
  features?: Features | undefined
  /** Wallet ids shown first. */
  featuredWalletIds?: readonly string[] | undefined
  /** Only these wallet ids are listed (when set). */
  includeWalletIds?: readonly string[] | undefined
  /** These wallet ids are never listed. */
  excludeWalletIds?: readonly string[] | undefined
  /** Link to your terms, shown under the wallet list. */
  termsConditionsUrl?: string | undefined
  /** Link to your privacy policy, shown under the wallet list. */
  privacyPolicyUrl?: string | undefined
  /** Let users switch networks from the modal (default true). */
  enableNetworkSwitch?: boolean | undefined
  /** Keep a connection on a network not in `networks` without asking to switch (default false). */
  allowUnsupportedChain?: boolean | undefined
  /**
   * Restore the last visit's connections after a reload (default true). `false`: every page load
   * starts disconnected; the saved connections are listed as disconnected in Connected wallets.
   * Script tag: `data-enable-reconnect="false"`.
   */
  enableReconnect?: boolean | undefined
  /** Log protocol diagnostics to the console. */
  debug?: boolean | undefined
  /** Where the modal app lives; default: the origin `sdk.js` was loaded from. */
  modalUrl?: string | undefined
  /**
   * Connectors of your own (at most 8; {@link ExternalConnector}), listed in the modal's
   * `external` section. One with a bad id or name is left out, named in the modal frame's
   * console; the others are kept. Not a script-tag attribute: pass it to `Porthole.createPorthole`.
   * @example connectors: [{ id: 'acme', name: 'Acme Wallet', provider: acmeSdk.provider }]
   */
  connectors?: readonly ExternalConnector[] | undefined
  /** Announce the provider with EIP-6963 so wagmi, viem and ethers find it (default true). */
  announceProvider?: boolean | undefined
  /**
   * Sign in with the wallet (SIWX): after connecting, the user signs an EIP-4361 message (CAIP-122
   * on Solana) for this site; `required` keeps them from using the app unsigned. The session:
   * {@link Porthole.getSession}. Script tag: `data-siwx="required"` or `"optional"`.
   */
  siwx?: { required: boolean; statement?: string } | 'required' | 'optional' | undefined
  /**
   * The modal's language: `'en'`, `'de'`, `'es'`, `'fr'`, `'pt-BR'`, `'ja'`, `'ko'`, `'zh-CN'`,
   * `'tr'` or `'ar'` (right to left); a regional variant (`'de-AT'`) picks its language, any
   * other tag is refused with a console error. Default: the browser's preferred languages, else
   * English. Script tag: `data-locale="ja"`.
   */
  locale?: Locale | (string & {}) | undefined
}

/** A wallet sign-in: the signed message and its signature, for your server to verify. */
export type SiwxSession = {
  address: string
  caipNetworkId: string
  message: string
  signature: string
}

/** What {@link Porthole.connect} resolves with. */
export type ConnectResult = {
  address: string
  caipAddress: string
  chainId: number | string
  caipNetworkId: CaipNetworkId
}

/**
 * What {@link Porthole.connect} takes: nothing or `{ namespace }` opens the modal; `{ wallet }`
 * (an id of {@link Porthole.wallets}) or `{ email }` connects headless, without the Connect view.
 */
export type ConnectOptions =
  | { namespace?: ProviderNamespace; wallet?: never; email?: never }
  | { wallet: string; namespace?: never; email?: never }
  | { email: string; namespace?: never; wallet?: never }

/** An EIP-1193 request. */
export type RequestArguments = { method: string; params?: readonly unknown[] | object | undefined }

/**
 * The provider returned by {@link Porthole.getProvider}: EIP-1193 for `eip155`; for `solana` and
 * `bip122` the same shape speaking WalletConnect's JSON-RPC methods (`solana_signMessage`
 * `{ message: base58, pubkey }` → `{ signature: base58 }`, …; `signPsbt`, `sendTransfer`, …).
 */
export type EIP1193Provider = {
  request(args: RequestArguments): Promise<unknown>
  on(event: string, listener: (...args: unknown[]) => void): EIP1193Provider
  removeListener(event: string, listener: (...args: unknown[]) => void): EIP1193Provider
}

/** A Porthole instance. */
export type Porthole = {
  /**
   * Shows the modal: Account when connected, else Connect, or the view you ask for.
   * @example await porthole.open({ view: 'Networks' })
   */
  open(options?: { view?: OpenableView; namespace?: ProviderNamespace }): Promise<void>
  /**
   * Hides the modal.
   * @example await porthole.close()
   */
  close(): Promise<void>
  /**
   * Opens the modal and resolves when an account connects (at once when already connected),
   * of any namespace or of the one asked for (`caipAddress` is `solana:<ref>:<address>` for
   * Solana). Rejects with 'Modal closed' (code 4001) if the user closes the modal first.
   * @example const { address, chainId } = await porthole.connect()
   * @example const { address } = await porthole.connect({ namespace: 'solana' })
   *
   * Headless: `{ wallet: id }` connects a wallet of {@link Porthole.wallets} without showing
   * Connect (an installed one asks its user in the page; any other, and `'walletConnect'`,
   * pairs: draw the URI of the `display_uri` event as a QR code); `{ email }` starts the e-mail
   * sign-in, and the modal shows only the code entry. Rejects with 'Connection rejected' (4001)
   * when the wallet refuses, 'Modal closed' (4001) when the code entry is closed.
   * @example porthole.on('display_uri', drawQr); await porthole.connect({ wallet: 'walletConnect' })
   * @example await porthole.connect({ email: 'ada@example.com' })
   */
  connect(options?: ConnectOptions): Promise<ConnectResult>
  /**
   * Headless mode: the wallets the Connect view would list, in its order (the spec's connector
   * order) — the plain `walletConnect` entry, then `section` `recent`, `installed`, `featured`,
   * `custom`, `external` (your `connectors`), `recommended` — each
   * `{ id, name, icon, type, section, installed, namespace? }`. `type` is how
   * `connect({ wallet: id })` reaches it: `'injected'` (in this page, yours included) or
   * `'walletConnect'` (a pairing; its URI comes as the `display_uri` event).
   * @example const list = await porthole.wallets()
   */
  wallets(): Promise<HeadlessWallet[]>
  /**
   * Disconnects the current wallet; the session is not restored after a reload.
   * @example await porthole.disconnect()
   */
  disconnect(): Promise<void>
  /**
   * Switches the connected wallet (and the modal) to another network.
   * @example await porthole.switchNetwork('eip155:8453')
   */
  switchNetwork(network: CaipNetworkId | NetworkInput): Promise<void>
  /**
   * The current state, synchronously.
   * @example if (porthole.getState().status === 'connected') showApp()
   */
  getState(): PortholeState
  /**
   * The wallet sign-in (SIWX) of the active account and network, or null; `on('session')`
   * hears each new one (null when it ends). Verify it on your server (README: "Sign in with the
   * wallet").
   * @example const session = porthole.getSession()
   */
  getSession(): SiwxSession | null
  /**
   * Calls `listener` on every state change; returns an unsubscribe function.
   * @example const off = porthole.subscribe((state) => render(state.address))
   */
  subscribe(listener: (state: PortholeState) => void): () => void
  /**
   * The provider of a namespace: EIP-1193 for `'eip155'`; WalletConnect's Solana or Bitcoin
   * JSON-RPC methods for `'solana'` and `'bip122'`. Each emits its own namespace's
   * `accountsChanged`, `chainChanged`, `connect` and `disconnect`.
   * @example const client = createWalletClient({ transport: custom(porthole.getProvider('eip155')) })
   * @example const { signature } = await porthole.getProvider('solana').request({ method: 'solana_signMessage', params: { message, pubkey } })
   */
  getProvider(namespace: ProviderNamespace): EIP1193Provider
  /**
   * Listens to an instance event: `'state'`, `'session'` (a wallet sign-in made or ended),
   * `'display_uri'`, and the EIP-1193 provider's events.
   * @example porthole.on('state', (state) => console.log(state.status))
   */
  on(event: string, listener: (...args: unknown[]) => void): () => void
  /**
   * Removes a listener added with {@link Porthole.on}.
   * @example porthole.off('state', listener)
   */
  off(event: string, listener: (...args: unknown[]) => void): void
  /**
   * Removes the modal frame and every listener; the instance cannot be used again.
   * @example porthole.destroy()
   */
  destroy(): void
}
