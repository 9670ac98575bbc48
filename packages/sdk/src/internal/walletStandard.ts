/**
 * Wallet Standard discovery in the host page (DESIGN §1): injected Solana and Bitcoin wallets
 * register themselves with the page (`wallet-standard:register-wallet`, or in answer to our
 * `wallet-standard:app-ready`, so wallets that registered before this code loaded are found
 * too). Each wallet serving Solana or Bitcoin becomes a descriptor for the modal and an
 * adapter the calls run on; EVM-only standard wallets are skipped (they announce with
 * EIP-6963). Part of the lazily loaded `sdk-chains.js`.
 */
import type { InjectedEventName, InjectedProviderInfo } from '@porthole/protocol/lite'
import { createBitcoinAdapter, isBitcoinWallet } from './bitcoinAdapter.js'
import { createSolanaAdapter, isSolanaWallet } from './solanaAdapter.js'
import type { StandardAdapter, StandardWallet } from './standardTypes.js'

/** One bridged wallet in one namespace. */
export type StandardEntry = {
  info: InjectedProviderInfo
  adapter: StandardAdapter
  wallet: StandardWallet
  /** The modal's connector id for it: `<namespace>:<name>`, lower case. */
  id: string
  off: () => void
}

/** Parameters of {@link discoverStandardWallets}. */
export type DiscoverStandardWalletsParameters = {
  /** Runs (batched) whenever the list changes. */
  onChange(): void
  /** A wallet's event, by descriptor uuid. */
  onEvent(uuid: string, event: InjectedEventName, data: unknown): void
  /** Where the events are exchanged; default `window`. */
  target?: EventTarget
}

/** What {@link discoverStandardWallets} returns. */
export type DiscoverStandardWalletsReturnType = {
  /** The adapter with this descriptor uuid, or of this connector id (`solana:<name>`). */
  get(id: string): StandardAdapter | undefined
  list(): InjectedProviderInfo[]
  stop(): void
}

const KINDS = [
  ['solana', 'solana:', isSolanaWallet, createSolanaAdapter],
  ['bip122', 'bitcoin:', isBitcoinWallet, createBitcoinAdapter],
] as const

/**
 * Starts Wallet Standard discovery.
 *
 * @example
 * const standard = discoverStandardWallets({ onChange: send, onEvent: forward })
 * standard.list() // [{ uuid, name, icon, rdns: '', namespace: 'solana', chains: ['solana:devnet'] }]
 */
export function discoverStandardWallets(
  parameters: DiscoverStandardWalletsParameters,
): DiscoverStandardWalletsReturnType {
  const { onChange, onEvent, target = window } = parameters
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
    for (const [namespace, prefix, matches, createAdapter] of KINDS) {
      try {
        if (!matches(wallet)) continue
      } catch {
        continue // not a wallet shape at all
      }
      const uuid = crypto.randomUUID()
      const name = String(wallet.name).slice(0, 100)
      const adapter = createAdapter(wallet)
      entries.set(uuid, {
        info: {
          uuid,
          name,
          icon: String(wallet.icon),
          rdns: '',
          namespace,
          chains: wallet.chains.filter((c) => c.startsWith(prefix) && c.length <= 64).slice(0, 16),
        },
        adapter,
        wallet,
        id: `${namespace}:${name}`.slice(0, 128).toLowerCase(),
        off: adapter.on('accountsChanged', (addresses) =>
          onEvent(uuid, 'accountsChanged', addresses),
        ),
      })
      changed()
    }
  }
  const remove = (wallet: StandardWallet) => {
    registered.delete(wallet)
    for (const [uuid, entry] of entries)
      if (entry.wallet === wallet) {
        entry.off()
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
      for (const [uuid, entry] of entries) if (uuid === id || entry.id === key) return entry.adapter
      return undefined
    },
    list: () => [...entries.values()].map((e) => e.info),
    stop() {
      target.removeEventListener('wallet-standard:register-wallet', onRegister)
      for (const entry of entries.values()) entry.off()
    },
  }
}
