/**
 * WalletConnect connections (spec §4 pairing): `@walletconnect/universal-provider` lives in
 * the modal frame (its storage is the modal origin's) and is loaded only when a WalletConnect
 * view opens or a WalletConnect session is restored. The relay URL is runtime configuration.
 */
import {
  type ConnectorInfo,
  ResourceUnavailableError,
  UserRejectedRequestError,
} from '@porthole/protocol'
import { type ChainNamespace, isChainNamespace } from '@porthole/shared'
import type UniversalProviderClass from '@walletconnect/universal-provider'

type UniversalProvider = InstanceType<typeof UniversalProviderClass>

import type { Connector, ConnectorAccount } from '../connectors/types.js'
import { emitProviderEvent } from '../host/bridge.js'
import { ALERTS, endedWhileAway } from '../rules/alerts.js'
import { walletConnectNamespaces } from '../rules/walletConnectNamespaces.js'
import { runtime, SDK_TYPE, SDK_VERSION } from '../runtime.js'
import { store } from '../store/store.js'
import { raiseAlert } from './alerts.js'
import * as Connection from './connection.js'

/** A pairing URI lives 4 minutes and counts as expired with 10 s or less left (spec §9). */
export const PAIRING = { lifetimeMs: 4 * 60_000, expiredWithinMs: 10_000 }

let providerPromise: Promise<UniversalProvider> | undefined

/**
 * The universal provider, created once; 'WalletConnectConnector not found' (-32002) when its
 * code cannot be loaded (a later call tries again). The Verify attestation iframe is not used: from the
 * modal's frame it could only attest the modal's origin (never the dapp's), and an unreachable
 * verify server would add 5 s to every pairing and request.
 *
 * @example
 * const provider = await walletConnectProvider()
 */
export function walletConnectProvider(): Promise<UniversalProvider> {
  providerPromise ??= (async () => {
    // Its code is a chunk of its own: a chunk that cannot be fetched (offline, a blocked or
    // missing file) leaves no WalletConnect connector, spec §8's 'WalletConnectConnector not
    // found' (-32002), rather than the browser's import error.
    const { UniversalProvider } = await import('@walletconnect/universal-provider').catch(
      (cause: unknown) => {
        throw new ResourceUnavailableError('WalletConnectConnector not found', { cause })
      },
    )
    const { config } = store.getState()
    const metadata = config.metadata
    const provider = await UniversalProvider.init({
      // The public relay knows WalletConnect Cloud project ids; the local one accepts any.
      projectId: runtime.walletConnectProjectId || config.projectId,
      relayUrl: runtime.relayUrl,
      metadata: {
        name: metadata.name || 'Porthole',
        description: metadata.description || '',
        url: metadata.url || (globalThis.location?.origin ?? ''),
        icons: metadata.icons ?? [],
      },
      telemetryEnabled: false,
      logger: 'error',
    })
    const verify = provider.client.core.verify as unknown as Record<string, unknown>
    verify.register = async () => undefined
    verify.resolve = async () => undefined
    // The clients refuse every call while navigator.onLine is false, which a machine with only
    // a loopback interface reports: a relay on loopback needs no other network.
    if (isLoopback(runtime.relayUrl))
      for (const part of [provider.client.core.relayer, provider.client.engine])
        if (part)
          (part as { confirmOnlineStateOrThrow?(): Promise<void> }).confirmOnlineStateOrThrow =
            async () => {}
    provider.on('display_uri', (uri: string) => {
      store.setState({ walletConnectUri: { uri, createdAt: Date.now() } })
      emitProviderEvent({ event: 'display_uri', data: uri })
    })
    provider.on('accountsChanged', (accounts: string[]) => walletEvent('accountsChanged', accounts))
    provider.on('chainChanged', (chainId: number | string) => walletEvent('chainChanged', chainId))
    // When the relay last delivered each topic's message (its publish time): a session delete
    // the wallet published before this page started, or delivered while the provider started
    // (none recorded), ended a session restored from storage.
    const published = new Map<string, number>()
    provider.client.core.relayer.on(
      'relayer_message',
      ({ topic, publishedAt }: { topic: string; publishedAt: number }) =>
        published.set(topic, publishedAt),
    )
    provider.on('session_delete', ({ topic }: { topic: string }) => {
      if (endedWhileAway(published.get(topic), performance.timeOrigin))
        raiseAlert(ALERTS.sessionExpired)
      walletEvent('disconnect', null)
    })
    provider.on('session_update', () => {
      // The wallet changed the session's accounts: every namespace is read again.
      if (provider.session)
        Connection.setConnected(walletConnectConnector, accountsOf(provider.session.namespaces), {
          silent: true,
        })
    })
    // The socket otherwise opens on the first pairing (transportOpen() skips a client with no
    // topics yet): open it now, off the user's path.
    const relayer = provider.client.core.relayer as { toEstablishConnection?(): Promise<void> }
    void relayer.toEstablishConnection?.().catch(() => {})
    return provider
  })()
  providerPromise.catch(() => {
    providerPromise = undefined
  })
  return providerPromise
}

/** True for a ws(s) URL on 127.0.0.0/8, ::1 or localhost. */
function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)
  } catch {
    return false
  }
}

/**
 * Loads and starts the provider (and opens its socket) while the user looks at the Connect
 * view, so a pairing URI can show within moments of choosing WalletConnect (issue 4: 300 ms
 * on loopback); `preloadView` fetches the QR view in the same idle moment.
 *
 * @example
 * useEffect(() => warmUpWalletConnect(QrView.preload), [])
 */
export function warmUpWalletConnect(preloadView?: () => Promise<unknown>): void {
  const start = () => {
    void walletConnectProvider().catch(() => {})
    void preloadView?.().catch(() => {})
  }
  if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: 500 })
  else setTimeout(start, 50)
}

/** The universal provider's EVM events (its `accountsChanged` / `chainChanged` are eip155's). */
function walletEvent(event: string, data: unknown): void {
  Connection.onConnectorEvent(CONNECTOR_ID, {
    event,
    data,
    ...(event === 'disconnect' ? {} : { namespace: 'eip155' as const }),
  })
}

/** The pairing's namespaces for the configured networks; EVM reads go to the API's proxy. */
function namespaces() {
  const { config } = store.getState()
  return walletConnectNamespaces(config.networks, (chain) => {
    const url = new URL('/v1', runtime.apiUrl)
    url.searchParams.set('chainId', chain)
    url.searchParams.set('projectId', config.projectId)
    url.searchParams.set('st', SDK_TYPE)
    url.searchParams.set('sv', SDK_VERSION)
    return url.href
  })
}

const CONNECTOR_ID = 'walletConnect'

function infoOf(name: string): ConnectorInfo {
  return { id: CONNECTOR_ID, type: 'WALLET_CONNECT', name: name.slice(0, 100) || 'WalletConnect' }
}

type SessionNamespaces = Record<string, { accounts: string[] }>

/**
 * The session's accounts, one per namespace: on the active network when the session has it,
 * else on the first configured network, else the first the wallet gave (a session may hold
 * eip155, solana and bip122 accounts at once; a Solana-only session is valid). Bitcoin keeps
 * every address of the chain, the first as payment.
 *
 * @example
 * accountsOf({ solana: { accounts: ['solana:5eyk…:7S3P…'] } })
 */
export function accountsOf(namespaces: SessionNamespaces): ConnectorAccount[] {
  const { activeNetworkId, config } = store.getState()
  const configured = new Set(config.networks.map((n) => n.caipNetworkId))
  const out: ConnectorAccount[] = []
  for (const [namespace, value] of Object.entries(namespaces)) {
    if (!isChainNamespace(namespace)) continue
    const parsed = (value.accounts ?? [])
      .map((a) => a.split(':'))
      .filter((p) => p.length === 3 && p[0] === namespace && p[1] && p[2])
      .map((p) => ({ caipNetworkId: `${p[0]}:${p[1]}`, address: p[2] as string }))
    const chosen =
      parsed.find((p) => p.caipNetworkId === activeNetworkId) ??
      parsed.find((p) => configured.has(p.caipNetworkId)) ??
      parsed[0]
    if (!chosen) continue
    const account: ConnectorAccount = { namespace, ...chosen }
    if (namespace === 'bip122')
      account.accounts = parsed
        .filter((p) => p.caipNetworkId === chosen.caipNetworkId)
        .map((p, i) => ({ address: p.address, purpose: i === 1 ? 'ordinal' : 'payment' }))
    out.push(account)
  }
  return out
}

let attempt = 0
/** The pending pairing that Telegram and iOS Safari share between views (spec §4). */
let shared: Promise<void> | undefined

/**
 * True where leaving for the wallet app may suspend the page (Telegram mini apps, iOS Safari):
 * there one pending connect is shared instead of a new pairing per visit of the view.
 *
 * @example
 * sharesPendingConnect('Mozilla/5.0 (iPhone; …) Version/17.0 Mobile/15E148 Safari/604.1', false) // true
 */
export function sharesPendingConnect(userAgent: string, telegram: boolean): boolean {
  if (telegram) return true
  return (
    /iPhone|iPad|iPod/.test(userAgent) &&
    /Safari\//.test(userAgent) &&
    !/CriOS|FxiOS|EdgiOS|OPiOS/.test(userAgent)
  )
}

/**
 * Pairs with a wallet: shows a URI (QR code) until the wallet approves; an expired URI is
 * replaced without user action. Resolves when connected; rejects when the wallet refuses.
 *
 * @example
 * await connectWalletConnect()
 */
export function connectWalletConnect(options: { share?: boolean } = {}): Promise<void> {
  if (options.share && shared && !pairingExpired()) return shared
  const pending = pair().then((accounts) =>
    Connection.setConnected(walletConnectConnector, accounts, { silent: false }),
  )
  if (options.share) {
    shared = pending
    const forget = () => {
      if (shared === pending) shared = undefined
    }
    pending.then(forget, forget)
  }
  return pending
}

/**
 * One pairing attempt until it settles. The provider's own abort is a no-op since 2.21, so an
 * expiring URI is replaced by starting a new connect(): it drops the old pairing (the provider
 * unsubscribes every pending pairing first) and shows a new URI; the old promise is abandoned.
 */
async function pair(): Promise<ConnectorAccount[]> {
  const id = ++attempt
  const provider = await walletConnectProvider()
  for (;;) {
    store.setState({ walletConnectUri: null })
    const connecting = provider.connect({ optionalNamespaces: namespaces() })
    connecting.catch(() => {}) // an abandoned attempt may still reject later
    let renew: ReturnType<typeof setTimeout> | undefined
    const expiring = new Promise<'expired'>((resolve) => {
      renew = setTimeout(() => resolve('expired'), PAIRING.lifetimeMs - PAIRING.expiredWithinMs)
    })
    try {
      const session = await Promise.race([connecting, expiring])
      if (session === 'expired') {
        if (id !== attempt) throw new Error('Pairing cancelled')
        continue
      }
      if (!session) throw new UserRejectedRequestError('Connection rejected')
      const accounts = accountsOf(session.namespaces)
      if (accounts.length === 0) throw new UserRejectedRequestError('Connection rejected')
      walletConnectConnector.info = infoOf(session.peer.metadata.name)
      return accounts
    } catch (error) {
      throw id === attempt ? connectError(error) : error
    } finally {
      clearTimeout(renew)
    }
  }
}

/** True when the URI on screen has 10 s or less to live (spec §9). */
export function pairingExpired(now = Date.now()): boolean {
  const current = store.getState().walletConnectUri
  return !!current && current.createdAt + PAIRING.lifetimeMs - now <= PAIRING.expiredWithinMs
}

/**
 * Stops renewing the pairing (the view closed). A wallet that still approves the URI it
 * scanned connects all the same.
 */
export function cancelPairing(): void {
  if (shared) return // kept for the user's return from the wallet app
  attempt++
}

/** The wallet declined the session (WalletConnect's USER_REJECTED is 5000): 'Connection rejected'. */
function connectError(error: unknown): Error {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (code === 5000 || code === 4001 || /reject/i.test(String(message)))
    return new UserRejectedRequestError('Connection rejected')
  return walletError(error)
}

/** Wallet errors keep their code (4001 and others); anything else becomes 'Failed to connect'. */
function walletError(error: unknown): Error {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (typeof code === 'number' && typeof message === 'string')
    return Object.assign(new Error(message), { code })
  if (/reject/i.test(String(message))) return new UserRejectedRequestError('Connection rejected')
  return error instanceof Error ? error : new Error('Failed to connect')
}

/**
 * Runs a dapp request on the WalletConnect session, on the connection's chain (any namespace
 * the session holds).
 *
 * @example
 * await walletConnectRequest('personal_sign', [message, address], 'eip155:1')
 */
export async function walletConnectRequest(
  method: string,
  params: unknown,
  chain: string | undefined,
): Promise<unknown> {
  const provider = await walletConnectProvider()
  try {
    return await provider.request(
      params === undefined ? { method } : { method, params: params as never },
      chain,
    )
  } catch (error) {
    throw walletError(error)
  }
}

/**
 * The WalletConnect connector: one session, accounts in every namespace it holds. Its kind is
 * registered by `main.tsx`, which loads this module for a restore (not with the first view).
 */
export const walletConnectConnector: Connector & { info: ConnectorInfo } = {
  info: infoOf('WalletConnect'),
  namespaces: ['eip155', 'solana', 'bip122', 'polkadot', 'cosmos'] as ChainNamespace[],
  connect: () => pair(),
  async getAccounts() {
    const provider = await walletConnectProvider()
    const session = provider.session
    if (!session) return []
    walletConnectConnector.info = infoOf(session.peer.metadata.name)
    return accountsOf(session.namespaces)
  },
  request({ method, params, caipNetworkId }) {
    return walletConnectRequest(method, params, caipNetworkId ?? undefined)
  },
  async disconnect() {
    const provider = await walletConnectProvider()
    if (provider.session) await provider.disconnect()
  },
  async switchNetwork(network) {
    if (network.chainNamespace !== 'eip155') return
    // A chain the session approved switches at once; another is asked of the wallet.
    await walletConnectRequest(
      'wallet_switchEthereumChain',
      [{ chainId: `0x${Number(network.id).toString(16)}` }],
      store.getState().connection.caipNetworkId ?? undefined,
    )
  },
}
