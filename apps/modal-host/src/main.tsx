/**
 * Boot: read the runtime settings, complete the handshake with the host (only from the host
 * origin named in the frame URL, and only if the project allows it), then render.
 */
import {
  Checks,
  Child,
  DisconnectedError,
  type HostToModal,
  type ModalToHost,
  UnauthorizedError,
} from '@porthole/protocol'
import { isOriginAllowed } from '@porthole/shared'
import { createRoot } from 'react-dom/client'
import { App } from './App.js'
import * as Alerts from './actions/alerts.js'
import * as Analytics from './actions/analytics.js'
import * as Auth from './actions/auth.js'
import * as Config from './actions/config.js'
import * as Connection from './actions/connection.js'
import * as Modal from './actions/modal.js'
import * as NetworkActions from './actions/network.js'
import * as RemoteFeatures from './actions/remoteFeatures.js'
import * as Siwx from './actions/siwx.js'
import * as Waiters from './actions/waiters.js'
import { alertFor, configureApi, getAllowedOrigins } from './api/client.js'
import * as Injected from './connectors/injected.js'
import { takeHandshake } from './early.js'
import { attachHost, resendState } from './host/bridge.js'
import { t } from './i18n/en.js'
import { loadLocale } from './i18n/locales.js'
import { runtime } from './runtime.js'
import { frameStorageAvailable, keepStateInHost, STORAGE_KEY } from './store/persist.js'
import { store } from './store/store.js'
import './theme/styles.css'
import { dropWalletFrame, hostConfiguredNow } from './wallet/frame.js'

const NOT_CONFIGURED = t('projectIdNotConfigured')

// A WalletConnect session comes back after a reload from the modal origin's storage; the
// connector's code (with the provider behind it) loads only then, or once Connect is open.
Connection.registerConnectorKind('WALLET_CONNECT', {
  restore: async () => (await import('./actions/walletconnect.js')).walletConnectConnector,
})

/** Whether the host's last hello was refused (a wallet frame made for it is dropped). */
let refused = false

async function accept(hello: { projectId: string; config?: unknown }): Promise<void> {
  refused = false
  // A returning e-mail or social user: the wallet frame starts restoring now, beside the rest of
  // the handshake (not when the host turned reconnect off: nothing is restored then). Not while this page is still loading (a hello can come first): a frame made
  // then holds back the host page's load event until it has loaded too.
  const reconnect =
    (hello.config as { enableReconnect?: unknown } | undefined)?.enableReconnect !== false
  if (hello.projectId === runtime.projectId && runtime.projectId && reconnect)
    afterLoad(() => {
      if (!refused) Auth.preloadIfEmbedded()
    })
  try {
    await check(hello)
  } catch (error) {
    // A wallet frame made before this handshake (a returning user's) goes with the refusal.
    refused = true
    dropWalletFrame()
    throw error
  }
}

/**
 * Runs `run` now when this page has loaded (a task after its load event), else a task after its
 * load event: by then the browser has told the host page that this frame finished loading, so a
 * frame made in `run` no longer delays the host's load event (made in the load event, it did).
 */
function afterLoad(run: () => void): void {
  if (document.readyState === 'complete') run()
  else addEventListener('load', () => setTimeout(run, 0), { once: true })
}

async function check(hello: { projectId: string }): Promise<void> {
  if (hello.projectId !== runtime.projectId) throw new UnauthorizedError('Invalid Project ID')
  if (!runtime.projectId) return
  configureApi(runtime.apiUrl, runtime.projectId, runtime.trace)
  // The project's remote features, beside the allowlist (no extra round trip); never rejects.
  const remote = RemoteFeatures.loadRemoteFeatures()
  let origins: string[]
  try {
    origins = await getAllowedOrigins()
  } catch (error) {
    throw new UnauthorizedError(alertFor(error)?.message ?? 'Server Error')
  }
  if (!isOriginAllowed(runtime.hostOrigin, origins))
    throw new UnauthorizedError('Origin Not Allowed')
  await remote
}

const headless = () => import('./actions/headless.js')

/** How long a closed modal's first render waits for the saved connections' restore. */
const FIRST_RENDER_HOLD_MS = 1000

/**
 * What the closed modal's first render waits for: a returning visitor's restore (at most 1 s), so
 * the view drawn is the one the restore leads to (Account, not Connect first), and drawing it
 * does not hold up the wallet frame's handshake and the dapp's connection on a busy main thread
 * (issue 26). Opening the modal renders at once; with nothing saved nothing is waited for.
 */
function firstRenderHold(restoring: Promise<void>): Promise<unknown> {
  if (store.getState().savedConnections.length === 0 || store.getState().open)
    return Promise.resolve()
  return new Promise<void>((resolve) => {
    const unsubscribe = store.subscribe((next) => {
      if (next.open) done()
    })
    const timer = setTimeout(() => done(), FIRST_RENDER_HOLD_MS)
    function done() {
      clearTimeout(timer)
      unsubscribe()
      resolve()
    }
    void restoring.then(done, done)
  })
}

function start(): void {
  if (!runtime.hostOrigin) {
    console.error('[porthole] The modal must be opened by the Porthole SDK (no host origin).')
    return
  }
  // The early script posted `ready` already and kept the host's answer (early.ts's announce).
  const announced = takeHandshake(runtime.hostOrigin)
  Child.listen<ModalToHost, HostToModal>({
    parentOrigin: runtime.hostOrigin,
    ...(announced && { announced }),
    // zod-free checks equal to HostToModalSchema: zod stays out of the first download.
    validator: Checks.validator(Checks.HostToModal),
    accept,
    handlers: {
      open: ({ view }) => {
        Modal.open({ view })
        return null
      },
      close: () => {
        // Escape in the host's dialog, or the dapp: refused while sign-in is required (spec §2).
        if (!Modal.closable()) {
          Modal.shake()
          resendState()
          return null
        }
        Modal.close()
        return null
      },
      connect: async ({ namespace }) => {
        const current = Connection.connectResult(namespace)
        if (current) return current
        if (namespace) NetworkActions.requireNamespace(namespace)
        // Connected in another namespace: Connect (not Account), listing that namespace's wallets.
        if (namespace) store.setState({ connectNamespace: namespace })
        Modal.open(namespace ? { view: 'Connect' } : {})
        if (!runtime.projectId) throw new UnauthorizedError(NOT_CONFIGURED)
        return Waiters.wait(namespace)
      },
      // Headless mode: the host draws the wallet list; Connect never shows. Its code is fetched
      // on the first headless call (not in the first download).
      wallets: async () => (await headless()).wallets(),
      connectWallet: async ({ wallet }, { signal }) =>
        (await headless()).connectWallet(wallet, signal),
      connectEmail: async ({ email }) => (await headless()).connectEmail(email),
      disconnect: async () => {
        await Connection.disconnect()
        return null
      },
      switchNetwork: async ({ network }) => {
        await NetworkActions.switchNetwork(network)
        return null
      },
      request: ({ method, params, namespace }) => {
        const state = store.getState()
        const active = Connection.activeConnection(state, namespace ?? 'eip155')
        if (!active) throw new DisconnectedError('Not connected')
        // EIP-5792 (wallet_sendCalls, wallet_getCallsStatus, …): checked and named by rules
        // loaded when the first such call comes (the test is `CALLS_METHOD` of
        // @porthole/protocol/calls, written out so that module stays out of the first download).
        if (!/^wallet_(?:(?:send|get|show)Calls(?:Status)?|getCapabilities)$/.test(method))
          return Connection.connectorRequest(method, params, active.namespace)
        return import('./rules/calls.js').then(({ callsRequest }) =>
          callsRequest(method, params, active, Connection.connectorRequest),
        )
      },
    },
    onChannel: (channel, hello) => {
      if (!frameStorageAvailable()) {
        const stored = (hello.config as { storage?: unknown } | undefined)?.storage
        keepStateInHost(typeof stored === 'string' ? stored : undefined, (value) =>
          channel.emit('persist', { value }),
        )
      }
      // The persisted slice (recent wallets, saved connections) arrives now, from whichever
      // storage holds it.
      void store.persist.rehydrate()
      const { locale, enableReconnect } = Config.applyHello(hello)
      // Reconnect off: the host's first state already says 'disconnected', never 'connecting'.
      if (!enableReconnect) Connection.skipRestore()
      hostConfiguredNow()
      Alerts.watchAlerts()
      Analytics.startAnalytics()
      if (!runtime.projectId)
        store.setState({ alert: { code: 4100, message: NOT_CONFIGURED, fatal: true } })
      channel.on('injectedProviders', ({ providers }) => Injected.setInjectedProviders(providers))
      channel.on('injectedEvent', (event) => Injected.onInjectedEvent(event))
      attachHost(channel as never)
      // The chosen language's strings are in before the first render (the page's skeleton stands
      // in meanwhile). A locale whose chunk cannot be fetched is lost safely: the modal stays
      // English.
      const localeLoaded = loadLocale(locale).catch(() => {})
      Modal.prepare()
      // The host's `open()` from before the handshake, carried in the hello: open now.
      const opening = Config.helloOpening(hello)
      if (opening) {
        performance.mark('porthole:opened-at-handshake')
        Modal.open(opening)
      }
      // While closed, the prepared view follows the connection (Account once connected).
      store.subscribe((next, previous) => {
        if (!next.open && next.connection.status !== previous.connection.status) Modal.prepare()
      })
      // Another tab of this site connected (the persisted slice changed): restore that session
      // here too, so the prepared view (and the dapp) follow without a reload.
      addEventListener('storage', (event) => {
        if (event.key !== STORAGE_KEY || store.getState().connections.length > 0) return
        if (!store.getState().config.enableReconnect) return
        void store.persist.rehydrate().then(() => Connection.restoreSession())
      })
      const restoring = Connection.restoreSession()
      // The first render also waits for a returning visitor's restore (see firstRenderHold).
      void Promise.all([localeLoaded, firstRenderHold(restoring)]).then(() =>
        store.setState({ ready: true }),
      )
      if (store.getState().siwxSessions.length > 0) void Siwx.checkKeptSessions()
    },
  })
}

// Errors nobody caught are reported once, here at the app's edge (at most 5 per 60 s).
addEventListener('error', (event) => Analytics.reportError(event.error ?? event.message))
addEventListener('unhandledrejection', (event) => Analytics.reportError(event.reason))
Auth.watchWalletFrame()
Siwx.watchSignIn()
const root = document.getElementById('root')
if (root) createRoot(root).render(<App />)
start()
