/**
 * The host SDK: creates the hidden modal frame, speaks the port protocol to it, bridges
 * injected wallets, and exposes the instance API and one provider per namespace (EIP-1193 for
 * eip155; WalletConnect's methods for solana and bip122). Decisions (which view, when a
 * connection counts, which events the providers emit) belong to the modal; the SDK stays small:
 * injected-wallet discovery is `sdk-chains.js`, loaded at start (`internal/loadChains.ts`), and
 * what no page needs before its visitor's click (where calls run, the Solana and Bitcoin wallet
 * bridges) is `sdk-calls.js`, which that one loads on the first call or the click.
 */
import {
  type Channel,
  DisconnectedError,
  fromErrorObject,
  type HostToModal,
  InternalRpcError,
  type ModalConfig,
  type ModalToHost,
  modalToHostValidator,
  type OpenableView,
  Parent,
  type PortholeState,
  type ProviderRpcError,
  TIMEOUTS,
  UnauthorizedError,
} from '@porthole/protocol/lite'
import { mountDialog } from './internal/dialog.js'
import { createEmitter } from './internal/emitter.js'
import { loadChains } from './internal/loadChains.js'
import { announceProvider as announce, createProvider, eventPrefix } from './internal/provider.js'
import type { Chains } from './internal/startChains.js'
import type {
  ConnectResult,
  EIP1193Provider,
  Porthole,
  PortholeOptions,
  ProviderNamespace,
} from './types.js'

type ModalChannel = Channel.Channel<HostToModal, ModalToHost>

/** Set by the script-tag build (vite.config.ts); absent in the npm entry. */
declare const __PORTHOLE_CHAINS_SRI__: string | undefined

/**
 * The script tag that loaded this code, captured while it runs (`sdk.js` reads its data too).
 * Only the script-tag build has one: the npm entry reads nothing of the page when it is
 * imported, so it can be imported where there is no DOM (server rendering); the build folds the
 * test away.
 */
export const currentScript =
  typeof __PORTHOLE_CHAINS_SRI__ === 'string'
    ? (document.currentScript as HTMLScriptElement | null)
    : null
/** Where this script was loaded from. */
const scriptUrl = currentScript?.src

/**
 * Creates a Porthole instance: the modal frame is created (hidden) at once so `open()` is
 * instant.
 *
 * @example
 * const porthole = createPorthole({ projectId: 'porthole-demo', networks: ['eip155:1'] })
 * const { address } = await porthole.connect()
 */
export function createPorthole(options: PortholeOptions = {}): Porthole {
  // `connectors` hold provider objects: they stay in this page (sdk-chains.js), never in the hello.
  const { projectId = '', metadata, modalUrl, announceProvider, connectors, ...rest } = options
  // Spec §5: AppKit's older sign-in option and `siwx` do not mix.
  if (rest.siwx && (rest as { siweConfig?: unknown }).siweConfig)
    throw new Error('Cannot set both `siweConfig` and `siwx` options')
  const base = new URL(modalUrl ?? scriptUrl ?? location.href)
  const events = createEmitter()
  let state: PortholeState = {
    open: false,
    status: 'disconnected',
    address: null,
    caipAddress: null,
    caipNetworkId: null,
    chainId: null,
    connector: null,
    view: null,
    error: null,
    connections: [],
    session: null,
  }
  let channel: ModalChannel | undefined
  let fatal: ProviderRpcError | undefined
  // Shown by the SDK and not yet confirmed by the modal (its earlier `open: false` is stale).
  let opening = false
  // An `open()` asked before the modal's handshake rides in its hello (`config.opening`), so the
  // modal opens as the handshake completes instead of one more round trip later, behind its
  // first render. `sentOpening` is what the last hello carried; `channelOpened` is true while
  // the current channel's hello opened the modal and no request has followed yet. (`connect()`
  // still asks by request: the modal must first know whether a session is being restored. So
  // does an `open()` on a page with browser wallets: see `hello`.)
  let pendingOpening: { view?: OpenableView } | undefined
  let sentOpening: typeof pendingOpening
  let channelOpened = false
  let modalOpen = false
  let waiters: [(c: ModalChannel) => void, (e: unknown) => void][] = []

  const setState = (next: PortholeState) => {
    const signed = next.session?.signature !== state.session?.signature
    state = next
    events.emit('state', next)
    // The host hears of every new (or ended) wallet sign-in.
    if (signed) events.emit('session', next.session)
  }
  const ready = async (): Promise<ModalChannel> => {
    if (fatal) throw fatal
    return channel && !channel.closed
      ? channel
      : new Promise((resolve, reject) => waiters.push([resolve, reject]))
  }
  const fail = (error: ProviderRpcError) => {
    fatal = error
    console.error('[porthole]', error.message)
    for (const [, reject] of waiters) reject(error)
    waiters = []
    opening = modalOpen = false
    sync({ ...state, error: { code: error.code, message: error.message } })
  }
  /** Shows or hides the dialog to match the modal (or a pending open) and publishes state. */
  const sync = (next = state) => {
    const open = modalOpen || opening
    open ? dialog.show() : dialog.hide()
    if (next !== state || next.open !== open) setState({ ...next, open })
  }
  /** Shows the dialog at once, then asks the modal to open (or connect). */
  const show = async <M extends 'open' | 'connect'>(
    method: M,
    params: HostToModal['requests'][M]['params'],
  ) => {
    if (fatal) throw fatal
    opening = true
    sync()
    if (method === 'open') pendingOpening = params as typeof pendingOpening
    let openedByHello = false
    try {
      const c = await ready()
      openedByHello = method === 'open' && channelOpened
      channelOpened = false
      // The hello opened the modal on this view: `opening` holds the dialog until its state
      // says open (that event is on its way behind the `ack`).
      if (openedByHello) return null as never
      return await c.request(method, params as never)
    } finally {
      pendingOpening = undefined
      if (!openedByHello) {
        opening = false
        sync()
      }
    }
  }
  const close = async () => {
    opening = modalOpen = false
    sync()
    if (channel && !channel.closed) await channel.request('close', {})
  }

  // Where the modal's state lives when its frame has no storage (third-party storage blocked).
  const storageKey = `porthole:${base.origin}`
  const read = () => {
    try {
      return localStorage.getItem(storageKey) ?? undefined
    } catch {}
  }
  const src = new URL('/', base)
  if (projectId) src.searchParams.set('projectId', projectId)
  src.searchParams.set('origin', location.origin)
  // The trace id of this page's API calls (the modal sends `<trace>.<n>`); in the fragment, so
  // the modal document stays one cached URL.
  src.hash = `trace=${crypto.randomUUID()}`
  const dialog = mountDialog(src.href, () => {
    void close()
  })

  // Injected wallets (EIP-6963, window.ethereum, Wallet Standard) are found in sdk-chains.js:
  // loaded at once, beside the modal frame, so wallets are listed before the first click and
  // sdk.js stays within its budget. Every call runs in sdk-calls.js, which it loads on the
  // first call, when the modal opens, or when an injected wallet is connected.
  const sendInjected = () => channel?.emit('injectedProviders', { providers: calls?.list() ?? [] })
  let calls: Chains | undefined
  let loading: Promise<Chains> | undefined
  const load = () =>
    (loading ??= loadChains(scriptUrl ?? base).then(
      (chains) =>
        (calls = chains.startChains({
          porthole: instance,
          ready,
          onChange: sendInjected,
          connectors,
        })),
    ))
  void load().then(sendInjected, () => {})

  const providers: Partial<Record<ProviderNamespace, EIP1193Provider>> = {}
  const providerOf = (namespace: ProviderNamespace) =>
    (providers[namespace] ??= createProvider(events, eventPrefix(namespace), async (args) =>
      (await load()).route(namespace, args),
    ))
  const stopAnnouncing = announceProvider === false ? () => {} : announce(providerOf('eip155'))

  // No `ready` within 3 s of the frame's load (or 20 s at all): ask the server why, fail fast.
  let seenReady = false
  const diagnose = async () => {
    if (seenReady || fatal) return
    // The reason comes from the server; its reader is in sdk-chains.js (a failure path).
    const reason = await loadChains(scriptUrl ?? base)
      .then((chains) => chains.frameCheck(new URL(`/frame-check${src.search}`, base)))
      .catch(() => 'Network Error - Could not load the modal')
    if (!seenReady) fail(new UnauthorizedError(reason))
  }
  const loadTimer = setTimeout(diagnose, TIMEOUTS.iframeLoad)
  dialog.frame.addEventListener('load', () => setTimeout(diagnose, 3000))

  const stop = Parent.connect<HostToModal, ModalToHost>({
    frame: dialog.frame,
    origin: base.origin,
    hello: () => {
      // Not when the page has browser wallets: their list goes first, on the port, and the open
      // follows it there (in order), so the first frame the modal shows open lists them.
      sentOpening = calls?.list().length ? undefined : pendingOpening
      return {
        projectId,
        metadata: metadata ?? {
          name: document.title.slice(0, 100) || location.host,
          url: location.origin,
        },
        config: {
          ...rest,
          networks: rest.networks ?? ['eip155:1'],
          storage: read(),
          ...(sentOpening && { opening: sentOpening }),
        } as ModalConfig,
      }
    },
    validator: modalToHostValidator,
    handlers: {
      injectedRequest: async (params) => (await load()).injectedRequest(params),
      openUrl: ({ url, target }) => {
        if (target === '_self') location.href = url
        else open(url, '_blank', 'noopener,noreferrer')
        return null
      },
    },
    debug: !!rest.debug,
    onReady: () => {
      seenReady = true
      clearTimeout(loadTimer)
    },
    onChannel: (c) => {
      channel = c as unknown as ModalChannel
      channelOpened = !!sentOpening
      sentOpening = undefined
      channel.on('state', (next) => {
        modalOpen = next.open
        if (modalOpen) opening = false
        sync(next)
      })
      channel.on('persist', ({ value }) => {
        try {
          localStorage.setItem(storageKey, value)
        } catch {}
      })
      channel.on('providerEvent', ({ event, data, namespace }) =>
        events.emit(
          eventPrefix(namespace) + event,
          event === 'disconnect' ? fromErrorObject(data) : data,
        ),
      )
      sendInjected()
      for (const [resolve] of waiters) resolve(channel)
      waiters = []
    },
    onError: fail,
  })

  const instance: Porthole = {
    async open(openOptions = {}) {
      await show('open', openOptions)
    },
    close,
    // Headless mode (wallets, connect({ wallet }) / connect({ email })) lives in sdk-calls.js.
    wallets: async () => (await load()).wallets(),
    async connect(connectOptions = {}) {
      if ('wallet' in connectOptions || 'email' in connectOptions)
        return (await load()).connect(connectOptions)
      const { namespace } = connectOptions
      // Already connected (in that namespace): its CAIP-10 account, `<namespace>:<ref>:<address>`.
      const caipAddress = namespace
        ? state.connections.find((c) => c.active && c.namespace === namespace)?.caipAddress
        : state.caipAddress
      if (caipAddress) {
        const [ns, ref, address] = caipAddress.split(':') as [string, string, string]
        return {
          address,
          caipAddress,
          caipNetworkId: `${ns}:${ref}`,
          chainId: ns === 'eip155' ? +ref : ref,
        } as ConnectResult
      }
      // `namespace: undefined` is dropped on the wire.
      return show('connect', { namespace } as { namespace?: ProviderNamespace })
    },
    async disconnect() {
      await (await ready()).request('disconnect', {})
    },
    async switchNetwork(network) {
      await (await ready()).request('switchNetwork', { network })
    },
    getState: () => state,
    getSession: () => state.session,
    subscribe: (listener) => instance.on('state', listener as never),
    getProvider(namespace) {
      if (!/^(eip155|solana|bip122)$/.test(namespace))
        throw new InternalRpcError('Unsupported chain namespace')
      // Solana and Bitcoin wallets of this page are found by sdk-chains.js.
      if (namespace !== 'eip155') void load()
      return providerOf(namespace)
    },
    on(event, listener) {
      events.on(event, listener)
      return () => events.off(event, listener)
    },
    off: events.off,
    destroy() {
      clearTimeout(loadTimer)
      stop()
      loading?.then(
        (c) => c.stop(),
        () => {},
      )
      stopAnnouncing()
      dialog.remove()
      fail(new DisconnectedError('Porthole instance destroyed'))
      events.clear()
    },
  }
  return instance
}
