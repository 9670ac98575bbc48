/**
 * Connecting, restoring and disconnecting injected wallets (the host runs the calls), and
 * following the wallet's own events.
 */
import {
  type ConnectorInfo,
  type ConnectResult,
  InjectedProviderInfo,
  UserRejectedRequestError,
} from '@porthole/protocol'
import { getAddress } from 'viem'
import { hostRequest } from '../host/bridge.js'
import { shouldShowUnsupportedChain } from '../rules/unsupportedChain.js'
import { addRecent, loadPersisted, savePersisted } from '../store/persist.js'
import { initialSendState } from '../store/sendState.js'
import { initialState, store } from '../store/store.js'
import type { WalletEntry } from '../store/types.js'
import * as Balance from './balance.js'
import * as Modal from './modal.js'
import * as Waiters from './waiters.js'

/** How long a restored session waits for its wallet to announce itself. */
export const RESTORE_WAIT_MS = 2000
/** Disconnect waits at most this long (spec §9). */
export const DISCONNECT_WAIT_MS = 3000

const ICON = /^data:image\/(?:png|jpeg|gif|webp|svg\+xml)[;,]/

/**
 * Accepts the host's injected-wallet descriptors one by one; bad ones are skipped and icons
 * that are not image data URIs are dropped.
 *
 * @example
 * setInjectedProviders(event.providers)
 */
export function setInjectedProviders(list: readonly unknown[]): void {
  const valid: InjectedProviderInfo[] = []
  for (const item of list) {
    // The host sends the legacy `window.ethereum` entry bare: it is the 'Browser Wallet'.
    const legacy = (item as { legacy?: unknown } | null)?.legacy === true
    const parsed = InjectedProviderInfo.safeParse(
      legacy ? { name: 'Browser Wallet', rdns: '', icon: '', ...(item as object) } : item,
    )
    if (!parsed.success || valid.some((v) => v.uuid === parsed.data.uuid)) continue
    valid.push({ ...parsed.data, icon: ICON.test(parsed.data.icon) ? parsed.data.icon : '' })
  }
  store.setState({ injected: valid })
}

/** The connector value for an injected provider. */
export function connectorFor(info: InjectedProviderInfo): ConnectorInfo {
  return {
    id: info.rdns || 'injected',
    type: info.legacy ? 'INJECTED' : 'ANNOUNCED',
    name: info.name,
    ...(info.rdns ? { rdns: info.rdns } : {}),
    uuid: info.uuid,
  }
}

function chainIdOf(value: unknown): number {
  const id =
    typeof value === 'string'
      ? Number.parseInt(value, value.startsWith('0x') ? 16 : 10)
      : Number(value)
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error('Invalid chainId')
  return id
}

/** The current connection as `connect()` resolves it. */
export function connectResult(): ConnectResult | undefined {
  const { connection } = store.getState()
  if (connection.status !== 'connected' || !connection.address || !connection.caipNetworkId)
    return undefined
  const reference = connection.caipNetworkId.split(':')[1] ?? ''
  return {
    address: connection.address,
    caipAddress: `${connection.caipNetworkId}:${connection.address}`,
    chainId: connection.caipNetworkId.startsWith('eip155:') ? Number(reference) : reference,
    caipNetworkId: connection.caipNetworkId,
  }
}

/** Whether the active network should put the modal on UnsupportedChain now. */
export function unsupported(): boolean {
  const { connection, config, activeNetworkId } = store.getState()
  return shouldShowUnsupportedChain({
    connected: connection.status === 'connected',
    activeNetworkId,
    supportedNetworkIds: config.networks.map((n) => n.caipNetworkId),
    enableNetworkSwitch: config.enableNetworkSwitch,
    allowUnsupportedChain: config.allowUnsupportedChain,
    basic: false,
  })
}

/**
 * Records a live connection, persists it and settles waiting `connect()` calls.
 *
 * @example
 * markConnected(connector, '0xabc…', 31337, false)
 */
export function markConnected(
  connector: ConnectorInfo,
  account: string,
  chainId: number,
  silent: boolean,
): void {
  const address = getAddress(account)
  const caipNetworkId = `eip155:${chainId}`
  store.setState({
    connection: { status: 'connected', connector, address, caipNetworkId },
    activeNetworkId: caipNetworkId,
  })
  savePersisted((p) => ({
    ...p,
    connectors: { ...p.connectors, eip155: connector },
    status: { ...p.status, eip155: 'connected' },
    activeNamespace: 'eip155',
    activeNetworkId: caipNetworkId,
    disconnectedConnectorIds: p.disconnectedConnectorIds.filter((id) => id !== connector.id),
  }))
  const result = connectResult()
  if (result) Waiters.resolveAll(result)
  void Balance.refresh()
  if (unsupported()) {
    store.setState({ open: true, history: [{ view: 'UnsupportedChain' }] })
  } else if (!silent) Modal.close()
}

/**
 * Connects the injected wallet behind `wallet`: asks for accounts (the user approves in the
 * wallet), reads the chain, then closes the modal. Errors (4001 when rejected) propagate to
 * the view.
 *
 * @example
 * await connectInjected(wallet)
 */
export async function connectInjected(wallet: WalletEntry): Promise<void> {
  const info = wallet.injected
  if (!info) throw new Error('Wallet not installed')
  const accounts = (await hostRequest('injectedRequest', {
    uuid: info.uuid,
    method: 'eth_requestAccounts',
  })) as unknown
  if (!Array.isArray(accounts) || typeof accounts[0] !== 'string')
    throw new UserRejectedRequestError('Connection rejected')
  const chainId = chainIdOf(
    await hostRequest(
      'injectedRequest',
      { uuid: info.uuid, method: 'eth_chainId' },
      { timeout: 10_000 },
    ),
  )
  store.setState((s) => ({ recentWallets: addRecent(s.recentWallets, wallet) }))
  savePersisted((p) => ({ ...p, recentWallets: addRecent(p.recentWallets, wallet) }))
  markConnected(connectorFor(info), accounts[0], chainId, false)
}

/**
 * Restores the last session after a reload, without asking the user: 'connecting', then
 * 'connected' when the same wallet announces itself and still grants the account.
 *
 * @example
 * await restoreSession()
 */
export async function restoreSession(): Promise<void> {
  const persisted = loadPersisted()
  const connector = persisted.connectors.eip155
  if (!connector || persisted.status.eip155 !== 'connected') return
  if (persisted.disconnectedConnectorIds.includes(connector.id)) return
  store.setState({
    connection: { status: 'connecting', connector, address: null, caipNetworkId: null },
  })
  try {
    const restore = kinds.get(connector.type)?.restore
    if (restore) {
      if (!(await restore())) throw new Error(`No ${connector.type} session to restore`)
      return
    }
    const info = await waitForInjected(connector)
    if (!info) throw new Error('Wallet not found')
    const accounts = (await hostRequest(
      'injectedRequest',
      { uuid: info.uuid, method: 'eth_accounts' },
      { timeout: 10_000 },
    )) as unknown
    if (!Array.isArray(accounts) || typeof accounts[0] !== 'string') {
      savePersisted((p) => ({ ...p, status: { ...p.status, eip155: 'disconnected' } }))
      throw new Error('No account')
    }
    const chainId = chainIdOf(
      await hostRequest(
        'injectedRequest',
        { uuid: info.uuid, method: 'eth_chainId' },
        { timeout: 10_000 },
      ),
    )
    markConnected(connectorFor(info), accounts[0], chainId, true)
  } catch {
    if (store.getState().connection.status === 'connecting')
      store.setState({
        connection: { status: 'disconnected', connector: null, address: null, caipNetworkId: null },
      })
  }
}

function waitForInjected(connector: ConnectorInfo): Promise<InjectedProviderInfo | undefined> {
  const find = () =>
    store
      .getState()
      .injected.find((i) =>
        connector.rdns ? i.rdns === connector.rdns : i.legacy && connector.id === 'injected',
      )
  const found = find()
  if (found) return Promise.resolve(found)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      unsubscribe()
      resolve(undefined)
    }, RESTORE_WAIT_MS)
    const unsubscribe = store.subscribe(() => {
      const info = find()
      if (!info) return
      clearTimeout(timer)
      unsubscribe()
      resolve(info)
    })
  })
}

/** Clears the connection (spec §4 "Reset"); the connector is remembered as disconnected. */
function clear(connectorId: string | undefined): void {
  const fresh = initialState()
  store.setState({
    connection: { status: 'disconnected', connector: null, address: null, caipNetworkId: null },
    balance: null,
    accountTab: fresh.accountTab,
    tokens: fresh.tokens,
    nfts: fresh.nfts,
    activity: fresh.activity,
    send: fresh.send,
  })
  savePersisted((p) => {
    const { eip155: _removed, ...connectors } = p.connectors
    return {
      ...p,
      connectors,
      status: { ...p.status, eip155: 'disconnected' },
      disconnectedConnectorIds:
        connectorId && !p.disconnectedConnectorIds.includes(connectorId)
          ? [...p.disconnectedConnectorIds, connectorId]
          : p.disconnectedConnectorIds,
    }
  })
}

/**
 * Disconnects: the session is cleared and not restored after a reload. Waits at most 3 s for
 * the wallet side; the modal closes.
 *
 * @example
 * await disconnect()
 */
export async function disconnect(): Promise<void> {
  const { connection } = store.getState()
  const end = connection.connector && kinds.get(connection.connector.type)?.disconnect
  if (end)
    await Promise.race([
      end().catch(() => {}),
      new Promise((done) => setTimeout(done, DISCONNECT_WAIT_MS)),
    ])
  clear(connection.connector?.id)
  Modal.close()
}

/** The steps a kind of connector takes on its own side (embedded wallet, WalletConnect). */
export type ConnectorKind = {
  /** Restores the last visit's session; false when there is none. */
  restore?(): Promise<boolean>
  /** Ends the session on the wallet's side. */
  disconnect?(): Promise<void>
}

const kinds = new Map<ConnectorInfo['type'], ConnectorKind>()

/**
 * Plugs a kind of connector's own steps into restore and disconnect. The kinds' modules import
 * this one, never the other way round (no import cycle).
 *
 * @example
 * registerConnectorKind('WALLET_CONNECT', { restore, disconnect })
 */
export function registerConnectorKind(type: ConnectorInfo['type'], kind: ConnectorKind): void {
  kinds.set(type, kind)
}

/**
 * Follows an event from the connected injected wallet: account switch, chain switch,
 * disconnect. Events from other wallets are ignored.
 *
 * @example
 * onInjectedEvent({ uuid, event: 'chainChanged', data: '0x1' })
 */
export function onInjectedEvent(event: { uuid: string; event: string; data: unknown }): void {
  const { connection } = store.getState()
  if (connection.status !== 'connected' || connection.connector?.uuid !== event.uuid) return
  applyWalletEvent(event)
}

/**
 * Applies an event of the connected wallet (any connector): account switch, chain switch,
 * disconnect.
 *
 * @example
 * applyWalletEvent({ event: 'chainChanged', data: 31338 })
 */
export function applyWalletEvent(event: { event: string; data: unknown }): void {
  const { connection } = store.getState()
  if (connection.status !== 'connected') return
  if (event.event === 'accountsChanged') {
    const accounts = event.data
    if (!Array.isArray(accounts) || typeof accounts[0] !== 'string') {
      clear(undefined)
      return
    }
    store.setState({ connection: { ...connection, address: getAddress(accounts[0]) } })
    void Balance.refresh({ force: true })
  } else if (event.event === 'chainChanged') {
    let chainId: number
    try {
      chainId = chainIdOf(event.data)
    } catch {
      return
    }
    const caipNetworkId = `eip155:${chainId}`
    if (caipNetworkId === connection.caipNetworkId) return
    store.setState({
      connection: { ...connection, caipNetworkId },
      activeNetworkId: caipNetworkId,
      send: initialSendState, // spec §4: switching the active network resets the send state
    })
    savePersisted((p) => ({ ...p, activeNetworkId: caipNetworkId }))
    void Balance.refresh({ force: true })
    const { history, open } = store.getState()
    if (unsupported()) store.setState({ open: true, history: [{ view: 'UnsupportedChain' }] })
    else if (open && history.at(-1)?.view === 'UnsupportedChain')
      store.setState({ history: [{ view: 'Account' }] })
  } else if (event.event === 'disconnect') {
    clear(undefined)
  }
}
