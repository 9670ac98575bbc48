/**
 * WalletConnect connections (spec §4 pairing): `@walletconnect/universal-provider` lives in
 * the modal frame (its storage is the modal origin's) and is loaded only when a WalletConnect
 * view opens or a WalletConnect session is restored. The relay URL is runtime configuration.
 */
import { type ConnectorInfo, UserRejectedRequestError } from '@porthole/protocol'
import type UniversalProviderClass from '@walletconnect/universal-provider'

type UniversalProvider = InstanceType<typeof UniversalProviderClass>

import { emitProviderEvent } from '../host/bridge.js'
import { walletConnectNamespaces } from '../rules/walletConnectNamespaces.js'
import { runtime, SDK_TYPE, SDK_VERSION } from '../runtime.js'
import { loadPersisted } from '../store/persist.js'
import { store } from '../store/store.js'
import * as Connection from './connection.js'

/** A pairing URI lives 4 minutes and counts as expired with 10 s or less left (spec §9). */
export const PAIRING = { lifetimeMs: 4 * 60_000, expiredWithinMs: 10_000 }

let providerPromise: Promise<UniversalProvider> | undefined

/**
 * The universal provider, created once. The Verify attestation iframe is not used: from the
 * modal's frame it could only attest the modal's origin (never the dapp's), and an unreachable
 * verify server would add 5 s to every pairing and request.
 *
 * @example
 * const provider = await walletConnectProvider()
 */
export function walletConnectProvider(): Promise<UniversalProvider> {
  providerPromise ??= (async () => {
    const { UniversalProvider } = await import('@walletconnect/universal-provider')
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
    provider.on('session_delete', () => walletEvent('disconnect', null))
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

function walletEvent(event: string, data: unknown): void {
  if (store.getState().connection.connector?.type !== 'WALLET_CONNECT') return
  Connection.applyWalletEvent({ event, data })
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

function connectorOf(name: string): ConnectorInfo {
  return {
    id: 'walletConnect',
    type: 'WALLET_CONNECT',
    name: name.slice(0, 100) || 'WalletConnect',
  }
}

/** The session's account on the active network, else its first EVM account. */
function accountOf(accounts: readonly string[]): { address: string; chainId: number } {
  const active = store.getState().activeNetworkId
  const parsed = accounts
    .map((a) => a.split(':'))
    .filter((p) => p.length === 3 && p[0] === 'eip155')
  const chosen = parsed.find((p) => `eip155:${p[1]}` === active) ?? parsed[0]
  if (!chosen) throw new UserRejectedRequestError('Connection rejected')
  return { address: chosen[2] as string, chainId: Number(chosen[1]) }
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
  const pending = pair()
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
async function pair(): Promise<void> {
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
      const { address, chainId } = accountOf(session.namespaces.eip155?.accounts ?? [])
      Connection.markConnected(connectorOf(session.peer.metadata.name), address, chainId, false)
      return
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
 * Runs a dapp request on the WalletConnect session, on the active network.
 *
 * @example
 * await walletConnectRequest('personal_sign', [message, address])
 */
export async function walletConnectRequest(method: string, params: unknown): Promise<unknown> {
  const provider = await walletConnectProvider()
  const chain = store.getState().connection.caipNetworkId ?? undefined
  try {
    return await provider.request(
      params === undefined ? { method } : { method, params: params as never },
      chain,
    )
  } catch (error) {
    throw walletError(error)
  }
}

/** Ends the session on both sides. */
export async function disconnectWalletConnect(): Promise<void> {
  const provider = await walletConnectProvider()
  if (provider.session) await provider.disconnect()
}

/**
 * Restores the session after a reload (the provider keeps it in the modal origin's storage).
 * Returns false when there was none.
 *
 * @example
 * if (await restoreWalletConnect()) return
 */
export async function restoreWalletConnect(): Promise<boolean> {
  const persisted = loadPersisted()
  if (persisted.connectors.eip155?.type !== 'WALLET_CONNECT') return false
  if (persisted.status.eip155 !== 'connected') return false
  const provider = await walletConnectProvider()
  const session = provider.session
  if (!session) return false
  const { address, chainId } = accountOf(session.namespaces.eip155?.accounts ?? [])
  Connection.markConnected(connectorOf(session.peer.metadata.name), address, chainId, true)
  return true
}

Connection.registerConnectorKind('WALLET_CONNECT', {
  restore: restoreWalletConnect,
  disconnect: disconnectWalletConnect,
})
