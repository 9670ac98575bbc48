/**
 * The parts of the Wallet Standard (`@wallet-standard/base`, `@solana/wallet-standard-features`)
 * the SDK reads, written out so the SDK needs no dependency, and the adapter shape the SDK
 * gives each wallet it bridges.
 */
import type { RequestArguments } from '../types.js'

/** An account a Wallet Standard wallet grants. */
export type StandardAccount = {
  readonly address: string
  readonly publicKey: Uint8Array
  readonly chains: readonly string[]
  readonly features: readonly string[]
  readonly label?: string
  readonly icon?: string
}

/** A Wallet Standard wallet as it registers itself. */
export type StandardWallet = {
  readonly version: string
  readonly name: string
  readonly icon: string
  readonly chains: readonly string[]
  readonly features: Readonly<Record<string, unknown>>
  readonly accounts: readonly StandardAccount[]
}

/** `standard:connect`. */
export type ConnectFeature = {
  connect(input?: { silent?: boolean }): Promise<{ accounts: readonly StandardAccount[] }>
}

/** `standard:events`. */
export type EventsFeature = {
  on(
    event: 'change',
    listener: (properties: { accounts?: readonly StandardAccount[] }) => void,
  ): () => void
}

/**
 * A wallet bridged by the SDK: WalletConnect's JSON-RPC methods of its namespace in, the
 * wallet's own features out. `on('accountsChanged')` follows the wallet's account changes;
 * it returns the unsubscribe.
 */
export type StandardAdapter = {
  request(args: RequestArguments): Promise<unknown>
  on(event: 'accountsChanged', listener: (addresses: string[]) => void): () => void
}

/**
 * The accounts of `accounts` on a chain of `namespacePrefix` (`solana:`, `bitcoin:`).
 *
 * @example
 * accountsOn(wallet.accounts, 'solana:')
 */
export const accountsOn = (
  accounts: readonly StandardAccount[],
  namespacePrefix: string,
): StandardAccount[] => accounts.filter((a) => a.chains.some((c) => c.startsWith(namespacePrefix)))

/**
 * The adapter's `on`: `standard:events` 'change' with accounts → the addresses of the
 * accounts on `namespacePrefix`; a wallet without `standard:events` never changes.
 *
 * @example
 * const on = followAccounts(wallet, 'solana:')
 */
export const followAccounts =
  (wallet: StandardWallet, namespacePrefix: string): StandardAdapter['on'] =>
  (_event, listener) =>
    (wallet.features['standard:events'] as EventsFeature | undefined)?.on(
      'change',
      ({ accounts }) => {
        if (accounts) listener(accountsOn(accounts, namespacePrefix).map((a) => a.address))
      },
    ) ?? (() => {})
