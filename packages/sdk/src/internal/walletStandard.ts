/**
 * Wallet Standard discovery in the host page (DESIGN §1): injected Solana and Bitcoin wallets
 * register themselves with the page (`wallet-standard:register-wallet`, or in answer to our
 * `wallet-standard:app-ready`, so wallets that registered before this code loaded are found
 * too). Each wallet serving Solana or Bitcoin becomes a descriptor for the modal; EVM-only
 * standard wallets are skipped (they announce with EIP-6963).
 *
 * Two halves, in two files: {@link discoverStandardWallets} (sdk-chains.js, at start: the
 * modal's first frame lists these wallets) only reads a wallet's name, icon, chains and
 * features; {@link bridgeStandardWallets} (sdk-calls.js, on the first call) makes the adapters
 * the calls run on and follows their accounts.
 */
import type { InjectedEventName, InjectedProviderInfo } from '@porthole/protocol/lite'
import { createBitcoinAdapter, isBitcoinWallet } from './bitcoinAdapter.js'
import { createSolanaAdapter, isSolanaWallet } from './solanaAdapter.js'
import type { StandardAdapter, StandardWallet } from './standardTypes.js'

/** One discovered wallet in one namespace. */
export type StandardEntry = {
  info: InjectedProviderInfo
  wallet: StandardWallet
  /** The modal's connector id for it: `<namespace>:<name>`, lower case. */
  id: string
  /** Made by {@link bridgeStandardWallets} once a call needs it. */
  adapter?: StandardAdapter
  /** Stops following its accounts (set with `adapter`). */
  off?: () => void
}

/** Parameters of {@link discoverStandardWallets}. */
export type DiscoverStandardWalletsParameters = {
  /** Runs (batched) whenever the list changes. */
  onChange(): void
  /** Where the events are exchanged; default `window`. */
  target?: EventTarget
}

/** What {@link discoverStandardWallets} returns. */
export type DiscoverStandardWalletsReturnType = {
  /** The entry with this descriptor uuid, or of this connector id (`solana:<name>`). */
  get(id: string): StandardEntry | undefined
  entries(): StandardEntry[]
  list(): InjectedProviderInfo[]
  stop(): void
}

const KINDS = [
  ['solana', 'solana:', isSolanaWallet],
  ['bip122', 'bitcoin:', isBitcoinWallet],
] as const

/**
 * Starts Wallet Standard discovery.
 *
 * @example
 * const standard = discoverStandardWallets({ onChange: send })
 * standard.list() // [{ uuid, name, icon, rdns: '', namespace: 'solana', chains: ['solana:devnet'] }]
 */
export function discoverStandardWallets(
  parameters: DiscoverStandardWalletsParameters,
): DiscoverStandardWalletsReturnType {
  const { onChange, target = window } = parameters
  const entries = new Map<string, StandardEntry>()
  const registered = new Set<StandardWallet>()
  let scheduled = false
  const changed = () => {
    if (scheduled) return
    scheduled = true
    queueMicrotask(() => {
      scheduled = false
      onChange()
    })
  }

  const add = (wallet: StandardWallet) => {
    if (registered.has(wallet)) return
    registered.add(wallet)
    for (const [namespace, prefix, matches] of KINDS) {
      try {
        if (!matches(wallet)) continue
      } catch {
        continue // not a wallet shape at all
      }
      const uuid = crypto.randomUUID()
      const name = String(wallet.name).slice(0, 100)
      entries.set(uuid, {
        info: {
          uuid,
          name,
          icon: String(wallet.icon),
          rdns: '',
          namespace,
          chains: wallet.chains.filter((c) => c.startsWith(prefix) && c.length <= 64).slice(0, 16),
        },
        wallet,
        id: `${namespace}:${name}`.slice(0, 128).toLowerCase(),
      })
      changed()
    }
  }
  const remove = (wallet: StandardWallet) => {
    registered.delete(wallet)
    for (const [uuid, entry] of entries)
      if (entry.wallet === wallet) {
        entry.off?.()
        entries.delete(uuid)
        changed()
      }
  }
  // The app side of the handshake: `register(...wallets)` returns their unregister function.
  const api = Object.freeze({
    register(...wallets: StandardWallet[]) {
      for (const wallet of wallets) add(wallet)
      return () => {
        for (const wallet of wallets) remove(wallet)
      }
    },
  })
  const onRegister = (event: Event) => {
    const callback = (event as CustomEvent).detail
    if (typeof callback === 'function') callback(api)
  }
  target.addEventListener('wallet-standard:register-wallet', onRegister)
  target.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: api }))

  return {
    get(id) {
      const key = id.toLowerCase()
      for (const [uuid, entry] of entries) if (uuid === id || entry.id === key) return entry
      return undefined
    },
    entries: () => [...entries.values()],
    list: () => [...entries.values()].map((e) => e.info),
    stop() {
      target.removeEventListener('wallet-standard:register-wallet', onRegister)
      for (const entry of entries.values()) entry.off?.()
    },
  }
}

/** What {@link bridgeStandardWallets} returns. */
export type BridgeStandardWalletsReturnType = {
  /** The adapter of the wallet with this descriptor uuid or connector id. */
  get(id: string): StandardAdapter | undefined
  /** Makes the adapters of wallets found since, and follows their accounts. */
  follow(): void
}

/**
 * The calls' side of the discovered wallets: an adapter per wallet (made on first use, or by
 * `follow()`), whose account changes go to `onEvent` as `accountsChanged`.
 *
 * @example
 * const bridge = bridgeStandardWallets(standard, forward)
 * await bridge.get('solana:phantom')?.request({ method: 'solana_getAccounts' })
 */
export function bridgeStandardWallets(
  standard: Pick<DiscoverStandardWalletsReturnType, 'get' | 'entries'>,
  onEvent: (uuid: string, event: InjectedEventName, data: unknown) => void,
): BridgeStandardWalletsReturnType {
  const adapter = (entry: StandardEntry | undefined) => {
    if (!entry || entry.adapter) return entry?.adapter
    const { uuid, namespace } = entry.info
    entry.adapter = (namespace === 'solana' ? createSolanaAdapter : createBitcoinAdapter)(
      entry.wallet,
    )
    entry.off = entry.adapter.on('accountsChanged', (addresses) =>
      onEvent(uuid, 'accountsChanged', addresses),
    )
    return entry.adapter
  }
  return {
    get: (id) => adapter(standard.get(id)),
    follow() {
      for (const entry of standard.entries()) adapter(entry)
    },
  }
}
