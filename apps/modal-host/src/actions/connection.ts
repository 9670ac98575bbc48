/**
 * Connections (spec §3 "Connection", §4): every live connection across namespaces, the active
 * one per namespace and the active namespace, the one `setConnected` path every connector
 * goes through, restore of every saved connection after a reload ("adapter sync"), wallet
 * events, requests, and disconnect. Connector kinds plug in with {@link registerConnectorKind};
 * their modules import this one, never the other way round (no import cycle).
 */
import {
  type ConnectorInfo,
  type ConnectResult,
  DisconnectedError,
  InternalRpcError,
  UnsupportedMethodError,
} from '@porthole/protocol'
import { type ChainNamespace, checksumAddress } from '@porthole/shared'
import type { Connector, ConnectorAccount, ConnectorEvent } from '../connectors/types.js'
import { hasAdapters } from '../rules/adapters.js'
import { ALERTS, sessionExpired } from '../rules/alerts.js'
import { allowedNamespaces, MULTI_WALLET_NOT_ENABLED } from '../rules/multiWallet.js'
import { shouldShowUnsupportedChain } from '../rules/unsupportedChain.js'
import { sameConnection } from '../store/persist.js'
import { initialSendState } from '../store/sendState.js'
import { initialState, store } from '../store/store.js'
import type { Connection, LiveConnection, ModalState } from '../store/types.js'
import { raiseAlert } from './alerts.js'
import * as Balance from './balance.js'
import * as Modal from './modal.js'
import * as Waiters from './waiters.js'

/** Disconnect waits at most this long (spec §9). */
export const DISCONNECT_WAIT_MS = 3000

const connectors = new Map<string, Connector>()
const key = (id: string) => id.toLowerCase()

/** The live connector with this id (case-insensitive). */
export function getConnector(id: string): Connector | undefined {
  return connectors.get(key(id))
}

/** How a kind of connector comes back after a reload. */
export type ConnectorKind = {
  /** The connector behind saved connections, once its wallet is reachable; undefined if gone. */
  restore(saved: LiveConnection[]): Promise<Connector | undefined>
}

const kinds = new Map<ConnectorInfo['type'], ConnectorKind>()

/**
 * Plugs a kind of connector into restore. INJECTED and ANNOUNCED share one kind.
 *
 * @example
 * registerConnectorKind('WALLET_CONNECT', { restore: async () => walletConnectConnector })
 */
export function registerConnectorKind(type: ConnectorInfo['type'], kind: ConnectorKind): void {
  kinds.set(type, kind)
}

/** The active connection of a namespace (default: the active namespace). */
export function activeConnection(
  state: ModalState = store.getState(),
  namespace: ChainNamespace = state.activeNamespace,
): LiveConnection | undefined {
  const id = state.activeConnectorIds[namespace]
  const inNamespace = state.connections.filter((c) => c.namespace === namespace)
  return (id && inNamespace.find((c) => key(c.connector.id) === key(id))) || inNamespace[0]
}

/**
 * Brings the derived parts in line after a change of connections: a namespace's active id
 * names one of its connections; the active namespace has a connection when any exists (the
 * first remaining one otherwise, spec §4); `connection` is the active one; the active
 * network follows it.
 */
function normalize(state: ModalState): Partial<ModalState> {
  const live = (ns: string) => state.connections.some((c) => c.namespace === ns)
  const pending = (ns: string) => state.savedConnections.some((c) => c.namespace === ns)
  const activeConnectorIds: ModalState['activeConnectorIds'] = {}
  for (const [ns, id] of Object.entries(state.activeConnectorIds) as [ChainNamespace, string][])
    if (
      state.connections.some((c) => c.namespace === ns && key(c.connector.id) === key(id)) ||
      state.savedConnections.some((c) => c.namespace === ns && key(c.connector.id) === key(id))
    )
      activeConnectorIds[ns] = id
  for (const c of state.connections) activeConnectorIds[c.namespace] ??= c.connector.id
  let { activeNamespace } = state
  if (!live(activeNamespace) && !pending(activeNamespace) && state.connections[0])
    activeNamespace = state.connections[0].namespace
  const next = { ...state, activeConnectorIds, activeNamespace }
  const active = activeConnection(next)
  const connection: Connection = active
    ? {
        status: 'connected',
        connector: active.connector,
        address: active.address,
        caipNetworkId: active.caipNetworkId,
      }
    : {
        status: pending(activeNamespace) ? 'connecting' : 'disconnected',
        connector: null,
        address: null,
        caipNetworkId: null,
      }
  return {
    activeConnectorIds,
    activeNamespace,
    connection,
    activeNetworkId: active?.caipNetworkId ?? state.activeNetworkId,
  }
}

/**
 * Changes connections (or what goes with them) and re-derives the active connection.
 *
 * @example
 * commit((s) => ({ connections: s.connections.filter((c) => c.namespace !== 'solana') }))
 */
export function commit(update: (state: ModalState) => Partial<ModalState>): void {
  store.setState((state) => {
    const next = { ...state, ...update(state) }
    return { ...next, ...normalize(next) }
  })
}

/** The connection as `connect()` resolves it (the active one, or the namespace's). */
export function connectResult(namespace?: ChainNamespace): ConnectResult | undefined {
  const state = store.getState()
  const active = namespace ? activeConnection(state, namespace) : activeConnection(state)
  if (!active?.address || !active.caipNetworkId) return undefined
  const reference = active.caipNetworkId.split(':')[1] ?? ''
  return {
    address: active.address,
    caipAddress: `${active.caipNetworkId}:${active.address}`,
    chainId: active.namespace === 'eip155' ? Number(reference) : reference,
    caipNetworkId: active.caipNetworkId,
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
    basic: !hasAdapters(config.networks),
  })
}

function liveOf(connector: Connector, account: ConnectorAccount): LiveConnection {
  return {
    connector: connector.info,
    namespace: account.namespace,
    address: account.namespace === 'eip155' ? checksumAddress(account.address) : account.address,
    caipNetworkId: account.caipNetworkId,
    ...(account.accounts ? { accounts: account.accounts } : {}),
  }
}

/**
 * The one path into "connected": records the connector's accounts as live connections, makes
 * them active in their namespaces (a restore keeps the remembered choice), persists, settles
 * waiting `connect()` calls and closes the modal unless `silent`.
 *
 * @example
 * setConnected(connector, [{ namespace: 'eip155', address, caipNetworkId: 'eip155:31337' }], { silent: false })
 */
export function setConnected(
  connector: Connector,
  given: readonly ConnectorAccount[],
  options: { silent: boolean },
): void {
  if (given.length === 0) return
  // Multi-wallet off: the namespaces another wallet holds stay that wallet's (rules/multiWallet).
  const { connections: live, config } = store.getState()
  const allowed = allowedNamespaces({
    multiWallet: config.features.multiWallet,
    connections: live,
    connectorId: connector.info.id,
    namespaces: given.map((a) => a.namespace),
  })
  const accounts = given.filter((a) => allowed.includes(a.namespace))
  if (accounts.length === 0) {
    if (options.silent) return
    // A new wallet session nobody can use (a WalletConnect wallet that approved only namespaces
    // other wallets hold) is ended; the wallet's own connections elsewhere are kept.
    if (!live.some((c) => key(c.connector.id) === key(connector.info.id)))
      void connector.disconnect().catch(() => {}) // nothing of the user's depends on it
    throw new UnsupportedMethodError(MULTI_WALLET_NOT_ENABLED)
  }
  connectors.set(key(connector.info.id), connector)
  const added = accounts.map((account) => liveOf(connector, account))
  commit((s) => {
    const connections = [
      ...s.connections.filter((c) => !added.some((a) => sameConnection(a, c))),
      ...added,
    ]
    const savedConnections = s.savedConnections.filter(
      (c) => !added.some((a) => sameConnection(a, c)),
    )
    const activeConnectorIds = { ...s.activeConnectorIds }
    for (const a of added)
      if (!options.silent || !activeConnectorIds[a.namespace])
        activeConnectorIds[a.namespace] = a.connector.id
    const namespaces = added.map((a) => a.namespace)
    const activeNetwork = s.activeNetworkId?.split(':')[0]
    const activeNamespace = options.silent
      ? s.activeNamespace
      : s.connectNamespace && namespaces.includes(s.connectNamespace)
        ? s.connectNamespace
        : (namespaces.find((ns) => ns === activeNetwork) ?? (namespaces[0] as ChainNamespace))
    return {
      connections,
      savedConnections,
      recentConnections: s.recentConnections.filter(
        (c) => !added.some((a) => sameConnection(a, c)),
      ),
      activeConnectorIds,
      activeNamespace,
      disconnectedConnectorIds: s.disconnectedConnectorIds.filter(
        (id) => key(id) !== key(connector.info.id),
      ),
    }
  })
  const signIn = signInGate(options.silent)
  if (signIn !== 'required') settleConnectWaiters()
  void Balance.refresh()
  if (unsupported()) store.setState({ open: true, history: [{ view: 'UnsupportedChain' }] })
  else if (!options.silent && signIn === 'none') {
    // A connection reopened from Connected wallets goes back there (spec §4).
    if (store.getState().returnToProfileWallets)
      store.setState({
        connectNamespace: null,
        returnToProfileWallets: false,
        history: [{ view: 'Account' }, { view: 'ProfileWallets' }],
      })
    else {
      store.setState({ connectNamespace: null })
      Modal.close()
    }
  }
}

/**
 * Refuses, before the wallet is asked, a wallet that could connect in none of `namespaces`
 * because other wallets hold them all and the project's `multiWallet` switch is off (spec §8
 * 'Multi-wallet support is not enabled…', code 4200). Namespaces it may take are left to
 * {@link setConnected}.
 *
 * @example
 * assertCanConnect('io.metamask', ['eip155'])
 */
export function assertCanConnect(connectorId: string, namespaces: readonly ChainNamespace[]): void {
  const { connections, config } = store.getState()
  const allowed = allowedNamespaces({
    multiWallet: config.features.multiWallet,
    connections,
    connectorId,
    namespaces,
  })
  if (namespaces.length > 0 && allowed.length === 0)
    throw new UnsupportedMethodError(MULTI_WALLET_NOT_ENABLED)
}

/**
 * Resolves the `connect()` calls the state satisfies (after a connection, or once the wallet
 * sign-in that held them back is done).
 */
export function settleConnectWaiters(): void {
  Waiters.settle((namespace) => connectResult(namespace))
}

/** Whether the new connection must sign in first (SIWX): none, optional or required. */
let signInGate: (silent: boolean) => 'none' | 'optional' | 'required' = () => 'none'

/**
 * Lets wallet sign-in hold a connection's `connect()` answer and the modal open (`actions/
 * siwx.ts`, which imports this module, not the other way round).
 *
 * @example
 * setSignInGate(() => (needsSignIn() ? 'required' : 'none'))
 */
export function setSignInGate(gate: (silent: boolean) => 'none' | 'optional' | 'required'): void {
  signInGate = gate
}

/**
 * Makes a live connection the active one: of its namespace, and the namespace the modal
 * follows. The dapp sees the new address (and chain) in state and provider events.
 *
 * @example
 * selectConnection('walletConnect', 'solana')
 */
export function selectConnection(connectorId: string, namespace: ChainNamespace): void {
  const found = store
    .getState()
    .connections.find((c) => c.namespace === namespace && key(c.connector.id) === key(connectorId))
  if (!found) return
  commit((s) => ({
    activeConnectorIds: { ...s.activeConnectorIds, [namespace]: found.connector.id },
    activeNamespace: namespace,
    activeNetworkId: found.caipNetworkId,
    send: initialSendState,
  }))
  void Balance.refresh({ force: true })
}

/**
 * Restores every connection of the last visit without asking the user (spec §4 "Adapter
 * sync"): each connector kind brings its connector back, which names the accounts it still
 * grants. Connections whose wallet is gone or refuses are dropped.
 *
 * @example
 * await restoreSession()
 */
export async function restoreSession(): Promise<void> {
  if (!store.getState().config.enableReconnect) return skipRestore()
  const { savedConnections, disconnectedConnectorIds } = store.getState()
  const groups = new Map<string, LiveConnection[]>()
  for (const saved of savedConnections) {
    if (disconnectedConnectorIds.some((id) => key(id) === key(saved.connector.id))) continue
    const list = groups.get(key(saved.connector.id)) ?? []
    groups.set(key(saved.connector.id), [...list, saved])
  }
  commit(() => ({})) // 'connecting' while saved connections of the active namespace wait
  await Promise.all(
    [...groups.values()].map(async (saved) => {
      const first = saved[0] as LiveConnection
      try {
        const connector = await kinds.get(first.connector.type)?.restore(saved)
        if (!connector) throw new Error(`No ${first.connector.type} session to restore`)
        const accounts = (await connector.getAccounts()).filter((a) =>
          saved.some((s) => s.namespace === a.namespace),
        )
        // A server or WalletConnect session that ended meanwhile (spec §8 'Session Expired').
        if (sessionExpired(first.connector.type, accounts.length)) raiseAlert(ALERTS.sessionExpired)
        setConnected(connector, accounts, { silent: true })
      } catch {}
      // Whatever did not come back is dropped.
      commit((s) => ({
        savedConnections: s.savedConnections.filter(
          (c) => key(c.connector.id) !== key(first.connector.id),
        ),
      }))
    }),
  )
  commit((s) => ({
    savedConnections: s.savedConnections.filter((c) =>
      s.disconnectedConnectorIds.every((id) => key(id) !== key(c.connector.id)),
    ),
  }))
}

/**
 * `enableReconnect: false` (spec §4 "Connection status … disconnected when reconnect is
 * disabled"): nothing of the last visit is restored and no wallet is asked; its connections are
 * kept as disconnected ones that Connected wallets lists (each reopens its login flow).
 * Synchronous, so the host never sees 'connecting'.
 *
 * @example
 * if (!config.enableReconnect) skipRestore()
 */
export function skipRestore(): void {
  commit((s) => {
    const recent = [
      ...s.savedConnections,
      ...s.recentConnections.filter((r) => !s.savedConnections.some((c) => sameConnection(c, r))),
    ]
    return { savedConnections: [], recentConnections: recent }
  })
}

/** The per-account data that belongs to the active connection (spec §4 "Reset"). */
function accountDataReset(): Partial<ModalState> {
  const fresh = initialState()
  return {
    balance: null,
    accountTab: fresh.accountTab,
    tokens: fresh.tokens,
    nfts: fresh.nfts,
    activity: fresh.activity,
    send: fresh.send,
  }
}

/** Removes a connector's connections (all, or one namespace's); remembers it as disconnected. */
function remove(
  connectorId: string,
  namespace: ChainNamespace | undefined,
  remember: boolean,
): void {
  const before = activeConnection()
  commit((s) => {
    const connections = s.connections.filter(
      (c) => key(c.connector.id) !== key(connectorId) || (namespace && c.namespace !== namespace),
    )
    const gone = connections.length === s.connections.length ? [] : [connectorId]
    const left = connections.some((c) => key(c.connector.id) === key(connectorId))
    if (!left) connectors.delete(key(connectorId))
    // Connected wallets keeps listing them, disconnected (spec §4 "Switching connections").
    const removed = s.connections.filter((c) => !connections.includes(c))
    return {
      connections,
      recentConnections: [
        ...removed,
        ...s.recentConnections.filter((r) => !removed.some((c) => sameConnection(c, r))),
      ],
      disconnectedConnectorIds:
        remember && !left && gone.length > 0
          ? [
              ...s.disconnectedConnectorIds.filter((id) => key(id) !== key(connectorId)),
              connectorId,
            ]
          : s.disconnectedConnectorIds,
    }
  })
  const after = activeConnection()
  if (!after || !before || !sameConnection(after, before) || after.address !== before.address)
    store.setState(accountDataReset())
  if (after) void Balance.refresh({ force: true })
}

/**
 * Disconnects one connector (every namespace of it), or every connection when `connectorId`
 * is omitted. Waits at most 3 s for each wallet's side; the connectors are not restored after
 * a reload. The modal closes when nothing stays connected.
 *
 * The connections end here whatever the wallets answer. When a wallet's side failed or did not
 * answer in time (an embedded wallet's sign-out that did not reach the API, a WalletConnect
 * session the relay did not delete), the promise rejects with spec §8's 'Failed to disconnect'
 * (-32603) once everything is removed; its `data.cause` is 'Failed to disconnect chains: …'
 * naming each failed namespace and why.
 *
 * @example
 * await disconnect() // all
 * await disconnect('walletConnect')
 */
export async function disconnect(connectorId?: string): Promise<void> {
  const ids = connectorId
    ? [connectorId]
    : [...new Set(store.getState().connections.map((c) => c.connector.id))]
  const failures: string[] = []
  await Promise.all(
    ids.map(async (id) => {
      const connector = getConnector(id)
      const namespaces = store
        .getState()
        .connections.filter((c) => key(c.connector.id) === key(id))
        .map((c) => c.namespace)
      if (connector) {
        const failure = await Promise.race([
          connector.disconnect().then(
            () => undefined,
            (error: unknown) => (error instanceof Error && error.message) || String(error),
          ),
          new Promise<string>((done) =>
            setTimeout(() => done('no answer in 3 s'), DISCONNECT_WAIT_MS),
          ),
        ])
        if (failure) failures.push(`${[...new Set(namespaces)].join(', ') || id} (${failure})`)
      }
      remove(id, undefined, true)
    }),
  )
  // Disconnecting everything leaves nothing of the wallets behind, disconnected ones included.
  if (!connectorId) commit(() => ({ savedConnections: [], recentConnections: [] }))
  // Nothing left to show, unless a sign-out the server did not confirm is to be shown: then
  // the modal stays, on Connect, with its alert.
  const { connections, alert } = store.getState()
  if (connections.length === 0) {
    if (alert?.action === 'retrySignOut') store.setState({ history: [{ view: 'Connect' }] })
    else Modal.close()
  }
  if (failures.length > 0) {
    const cause = new InternalRpcError(`Failed to disconnect chains: ${failures.join(', ')}`)
    throw new InternalRpcError('Failed to disconnect', {
      cause,
      data: { cause: { code: cause.code, message: cause.message } },
    })
  }
}

/**
 * The Disconnect buttons' {@link disconnect}: a wallet side that failed shows 'Failed to
 * disconnect' as an error toast, unless the embedded wallet's unconfirmed sign-out already
 * shows its alert (with Try again).
 *
 * @example
 * <button onClick={() => disconnectFromView()}>Disconnect</button>
 */
export function disconnectFromView(connectorId?: string): void {
  disconnect(connectorId).catch((error: unknown) => {
    if (store.getState().alert?.action === 'retrySignOut') return
    Modal.showToast(error instanceof Error ? error.message : 'Failed to disconnect', 'error')
  })
}

/**
 * Follows an event of a connector's wallet: account switch (an empty list ends that
 * connection), chain switch, disconnect. Events of unknown connectors are ignored.
 *
 * @example
 * onConnectorEvent('io.metamask', { event: 'chainChanged', data: '0x1' })
 */
export function onConnectorEvent(connectorId: string, event: ConnectorEvent): void {
  const mine = store
    .getState()
    .connections.filter(
      (c) =>
        key(c.connector.id) === key(connectorId) &&
        (!event.namespace || c.namespace === event.namespace),
    )
  if (mine.length === 0) return
  if (event.event === 'disconnect') {
    remove(connectorId, event.namespace, false)
    return
  }
  if (event.event === 'accountsChanged') {
    const accounts = event.data
    const first = Array.isArray(accounts) ? accounts[0] : undefined
    const target = mine.find((c) => !event.namespace || c.namespace === event.namespace) ?? mine[0]
    if (!target) return
    if (typeof first !== 'string') {
      remove(connectorId, target.namespace, false)
      return
    }
    let address = first
    try {
      if (target.namespace === 'eip155') address = checksumAddress(first)
    } catch {
      return
    }
    if (address === target.address) return
    const wasActive = activeConnection() === target
    commit((s) => ({
      connections: s.connections.map((c) => (sameConnection(c, target) ? { ...c, address } : c)),
    }))
    if (wasActive) void Balance.refresh({ force: true })
    return
  }
  if (event.event === 'chainChanged') {
    const target = mine.find((c) => c.namespace === (event.namespace ?? 'eip155'))
    if (!target) return
    const caipNetworkId = chainOf(target.namespace, event.data)
    if (!caipNetworkId || caipNetworkId === target.caipNetworkId) return
    const wasActive = activeConnection() === target
    commit((s) => ({
      connections: s.connections.map((c) =>
        sameConnection(c, target) ? { ...c, caipNetworkId } : c,
      ),
      // Spec §4: switching the active network resets the send state.
      ...(wasActive ? { activeNetworkId: caipNetworkId, send: initialSendState } : {}),
    }))
    if (!wasActive) return
    void Balance.refresh({ force: true })
    const { history, open } = store.getState()
    if (unsupported()) store.setState({ open: true, history: [{ view: 'UnsupportedChain' }] })
    else if (open && history.at(-1)?.view === 'UnsupportedChain')
      store.setState({ history: [{ view: 'Account' }] })
  }
}

/** The CAIP-2 id a chainChanged event names: eip155 chain ids (hex or decimal), else CAIP-2. */
function chainOf(namespace: ChainNamespace, value: unknown): string | undefined {
  if (namespace !== 'eip155')
    return typeof value === 'string' && value.startsWith(`${namespace}:`) ? value : undefined
  const id =
    typeof value === 'string'
      ? Number.parseInt(value, value.startsWith('0x') ? 16 : 10)
      : Number(value)
  return Number.isSafeInteger(id) && id > 0 ? `eip155:${id}` : undefined
}

/**
 * Sends a provider call to the active connection of `namespace` (default: the active
 * namespace); its errors (4001 and others) propagate.
 *
 * @example
 * const hash = await connectorRequest('eth_sendTransaction', [{ from, to, value, data: '0x' }])
 */
export function connectorRequest(
  method: string,
  params?: unknown,
  namespace?: ChainNamespace,
): Promise<unknown> {
  const state = store.getState()
  const active = activeConnection(state, namespace ?? state.activeNamespace)
  const connector = active && getConnector(active.connector.id)
  if (!active || !connector) return Promise.reject(new DisconnectedError('Not connected'))
  return connector.request({
    namespace: active.namespace,
    method,
    ...(params === undefined ? {} : { params }),
    caipNetworkId: active.caipNetworkId,
  })
}
