/**
 * What the dev wallets share. The EVM Porthole Dev Wallet takes the approval step
 * ({@link approve}) and the coded errors; the Solana and the Bitcoin one, which speak the Wallet
 * Standard, take the rest too: the permission and account remembered in storage and shared by
 * the site's tabs, `standard:connect` / `standard:disconnect` / `standard:events`, the controls a
 * test steers them with, and the registration ({@link install}).
 *
 * Import it under one name: `import * as DevWalletKit from './devWalletKit.ts'`.
 */

/** How a dev wallet answers a request that needs the user. */
export type Mode = 'approve' | 'reject' | 'prompt'

/** A wallet error as it crosses to the app: `{ code, message }` (EIP-1193 / WalletConnect codes). */
export type CodedError = Error & { code: number }

/**
 * An error with an EIP-1193 / JSON-RPC `code`.
 *
 * @example
 * throw DevWalletKit.error(4100, 'Unauthorized')
 */
export function error(code: number, message: string): CodedError {
  return Object.assign(new Error(message), { code })
}

/**
 * A `-32602` (invalid params) error.
 *
 * @example
 * if (typeof params.message !== 'string') throw DevWalletKit.invalidParams('message must be a string')
 */
export function invalidParams(message: string): CodedError {
  return error(-32602, message)
}

/** Input of {@link approve}. */
export type ApproveParameters = {
  /** `approve` and `reject` answer without asking; `prompt` asks through `confirm`. */
  mode: Mode
  /** The wallet's name, the prompt's first line. */
  name: string
  /** What the user is asked to allow. */
  what: string
  /** Asks the user. */
  confirm: (text: string) => boolean | Promise<boolean>
}

/**
 * Resolves when the mode, or else the user, allows the request; `4001 User rejected the
 * request.` when not. The prompt reads `<name>`, a blank line, then `what`.
 *
 * @example
 * await DevWalletKit.approve({ mode: 'prompt', name: 'Porthole Dev Wallet', what: 'Sign this message?', confirm: (text) => window.confirm(text) })
 */
export async function approve({ mode, name, what, confirm }: ApproveParameters): Promise<void> {
  const ok = mode === 'approve' || (mode === 'prompt' && (await confirm(`${name}\n\n${what}`)))
  if (!ok) throw error(4001, 'User rejected the request.')
}

/** A Wallet Standard account of a dev wallet. */
export type Account = Readonly<{
  address: string
  publicKey: Uint8Array
  chains: readonly string[]
  features: readonly string[]
  label: string
}>

/** A `standard:events` `change` listener. */
export type ChangeListener = (properties: { accounts: readonly Account[] }) => void

/** What a dev wallet keeps in storage: the grant, and which account. */
export type Saved = { permitted?: boolean; account?: number }

/**
 * The stored value as {@link Saved}: `{}` when there is none.
 *
 * @example
 * DevWalletKit.readSaved('{"permitted":true,"account":1}') // { permitted: true, account: 1 }
 */
export function readSaved(value: string | null | undefined): Saved {
  return JSON.parse(value ?? '{}') as Saved
}

/** The page's side of a Wallet Standard dev wallet: how it asks, remembers and names the page. */
export type HostParameters = {
  /** Asks the user; default `window.confirm`. */
  confirm?: (text: string) => boolean | Promise<boolean>
  /** Where the permission and account survive reloads; default none (memory). */
  storage?: Pick<Storage, 'getItem' | 'setItem'> | undefined
  /** Who is asking, for the prompts; default `location.origin`. */
  origin?: string
}

/** Input of {@link create}. */
export type CreateParameters = HostParameters & {
  /** The wallet's name: `wallet.name` and the prompts' first line. */
  name: string
  /** The storage key of {@link Saved}. */
  storageKey: string
  /** Default: `prompt`. */
  mode?: Mode | undefined
  /** The address account `index` connects with: the connect prompt's and `controls.address`. */
  addressOf: (index: number) => string
  /** The Wallet Standard accounts of account `index`, made fresh on each call. */
  accountsOf: (index: number) => Account[]
}

/** Input of a kit's `make`: the wallet's own chains and features. */
export type MakeParameters<chains extends readonly string[], features extends object> = {
  /** The icon, an SVG document (served as a base64 data URL). */
  iconSvg: string
  chains: chains
  /** Features beside `standard:connect`, `standard:disconnect` and `standard:events`. */
  features: features
}

/**
 * The permission, account and mode of a Wallet Standard dev wallet, and `make`, which builds
 * the wallet and its controls around the wallet's own features. A grant asks once
 * (`standard:connect`), is saved, and is applied in other tabs through `controls.sync`;
 * every change of the accounts reaches the `standard:events` `change` listeners.
 *
 * @example
 * const kit = DevWalletKit.create({ name: 'Porthole Solana Dev Wallet', storageKey: 'porthole-solana-dev-wallet', addressOf, accountsOf })
 * const { wallet, controls } = kit.make({ iconSvg, chains: ['solana:localnet'], features: { 'solana:signMessage': … } })
 * await wallet.features['standard:connect'].connect() // asks, then { accounts: accountsOf(0) }
 */
export function create(parameters: CreateParameters) {
  const { name, storageKey, storage, addressOf, accountsOf } = parameters
  const confirm = parameters.confirm ?? ((text: string) => globalThis.confirm(text))
  const origin = parameters.origin ?? globalThis.location?.origin ?? 'this page'
  const saved = readSaved(storage?.getItem(storageKey))
  let mode: Mode = parameters.mode ?? 'prompt'
  let permitted = saved.permitted ?? false
  let accountIndex = saved.account ?? 0
  const listeners = new Set<ChangeListener>()

  const ask = (what: string) => approve({ mode, name, what, confirm })
  const accounts = (): Account[] => (permitted ? accountsOf(accountIndex) : [])
  const save = () =>
    storage?.setItem(storageKey, JSON.stringify({ permitted, account: accountIndex }))
  const emit = () => {
    const properties = { accounts: accounts() }
    for (const listener of listeners) listener(properties)
  }
  const disconnect = () => {
    if (!permitted) return
    permitted = false
    save()
    emit()
  }

  const standardFeatures = {
    'standard:connect': {
      version: '1.0.0' as const,
      async connect(input: { silent?: boolean } = {}): Promise<{ accounts: Account[] }> {
        if (!permitted) {
          if (input.silent) return { accounts: [] }
          await ask(`Connect ${origin} to ${addressOf(accountIndex)}?`)
          permitted = true
          save()
          emit()
        }
        return { accounts: accounts() }
      },
    },
    'standard:disconnect': {
      version: '1.0.0' as const,
      async disconnect() {
        disconnect()
      },
    },
    'standard:events': {
      version: '1.0.0' as const,
      on(event: 'change', listener: ChangeListener) {
        if (event !== 'change') return () => {}
        listeners.add(listener)
        return () => {
          listeners.delete(listener)
        }
      },
    },
  }

  return {
    /** The current account's index. */
    get accountIndex() {
      return accountIndex
    },
    /** Asks (or answers by the mode); `4001` when refused. */
    approve: ask,
    /** Throws `4100 Unauthorized` until the page is granted. */
    requirePermission() {
      if (!permitted) throw error(4100, 'Unauthorized')
    },
    /** The wallet (a Wallet Standard `Wallet`) and the controls tests and the demo steer it with. */
    make<const chains extends readonly string[], features extends object>({
      iconSvg,
      chains,
      features,
    }: MakeParameters<chains, features>) {
      const wallet = {
        version: '1.0.0' as const,
        name,
        icon: `data:image/svg+xml;base64,${btoa(iconSvg)}` as const,
        chains,
        get accounts() {
          return accounts()
        },
        features: { ...standardFeatures, ...features },
      }
      return {
        wallet,
        controls: {
          wallet,
          setMode(next: Mode) {
            mode = next
          },
          /** The address the current account connects with. */
          get address() {
            return addressOf(accountIndex)
          },
          switchAccount(index: number) {
            accountIndex = index
            save()
            if (permitted) emit()
          },
          disconnect,
          /** Applies a permission granted in another tab (the `storage` event's new value). */
          sync(value: string | null) {
            if (readSaved(value).permitted === true && !permitted) {
              permitted = true
              emit()
            }
          },
        },
      }
    },
  }
}

/** Input of {@link install}. */
export type InstallParameters<config extends object> = {
  /** The `window` property the page sets the config in before the script runs. */
  configKey: string
  /** The `window` property the controls are exposed as. */
  controlsKey: string
  /** The storage key of {@link Saved}, watched for other tabs' grants. */
  storageKey: string
  /** Makes the wallet with the page's config, `localStorage` and `location.origin`. */
  create(parameters: Partial<config> & { storage: Storage; origin: string }): {
    wallet: unknown
    controls: { sync(value: string | null): void }
  }
}

/**
 * In a page (nothing elsewhere): makes the wallet from `window[configKey]`, exposes its controls
 * as `window[controlsKey]`, applies grants made in other tabs, and registers the wallet through
 * the Wallet Standard (`wallet-standard:register-wallet` now, and on every
 * `wallet-standard:app-ready`).
 *
 * @example
 * DevWalletKit.install({ configKey: 'portholeSolanaDevWalletConfig', controlsKey: 'portholeSolanaDevWallet', storageKey: STORE, create: createSolanaDevWallet })
 */
export function install<config extends object>({
  configKey,
  controlsKey,
  storageKey,
  create,
}: InstallParameters<config>): void {
  if (typeof window === 'undefined' || typeof document === 'undefined') return
  const page = window as unknown as Record<string, unknown>
  const config = (page[configKey] ?? {}) as Partial<config>
  const { wallet, controls } = create({
    ...config,
    storage: localStorage,
    origin: location.origin,
  })
  page[controlsKey] = controls
  // Like an extension, one wallet for every tab of the site.
  addEventListener('storage', (event) => {
    if (event.key === storageKey && event.newValue !== null) controls.sync(event.newValue)
  })
  const callback = ({ register }: { register(wallet: unknown): unknown }) => register(wallet)
  window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }))
  window.addEventListener('wallet-standard:app-ready', (event) =>
    callback((event as CustomEvent<{ register(wallet: unknown): unknown }>).detail),
  )
}
