/**
 * The one shape every kind of wallet connection has in the modal (wagmi's `createConnector` is
 * the model): connect, getAccounts, request, disconnect, and events pushed to
 * `actions/connection.ts`. One implementation per kind: injected through the host (EIP-6963,
 * `window.ethereum`, Wallet Standard Solana and Bitcoin wallets), WalletConnect (every
 * namespace of the session) and the embedded wallet.
 */
import type { ConnectorInfo } from '@porthole/protocol'
import type { ChainNamespace, Network } from '@porthole/shared'
import type { BitcoinAccount } from '../store/types.js'

/** An account a connector holds in one namespace, on one chain. */
export type ConnectorAccount = {
  namespace: ChainNamespace
  address: string
  caipNetworkId: string
  /** bip122: payment first, ordinal second. */
  accounts?: BitcoinAccount[]
}

/** A request to a connector: the method names of the namespace's provider (EIP-1193, WalletConnect's). */
export type ConnectorRequest = {
  namespace: ChainNamespace
  method: string
  params?: unknown
  /** The connection's chain (CAIP-2). */
  caipNetworkId: string | null
}

/** A connector. */
export type Connector = {
  readonly info: ConnectorInfo
  /** Namespaces it can connect. */
  readonly namespaces: readonly ChainNamespace[]
  /** Asks the wallet for accounts (the user approves there); the accounts granted. */
  connect(parameters: { namespace?: ChainNamespace }): Promise<ConnectorAccount[]>
  /** The accounts still granted, without asking ([] when none): restore after a reload. */
  getAccounts(): Promise<ConnectorAccount[]>
  /** Runs a provider call on the wallet; its errors (4001 and others) propagate. */
  request(request: ConnectorRequest): Promise<unknown>
  /** Ends the session on the wallet's side (may do nothing). */
  disconnect(): Promise<void>
  /** Moves the wallet to `network` (its namespace's own way); absent: the modal alone switches. */
  switchNetwork?(network: Network): Promise<void>
}

/** An event of a connector's wallet: account switch, chain switch, disconnect. */
export type ConnectorEvent = {
  event: string
  data: unknown
  /** The namespace it concerns (absent: every namespace of the connector). */
  namespace?: ChainNamespace
}
