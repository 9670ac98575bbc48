/**
 * The host SDK: creates the hidden modal frame, speaks the port protocol to it, bridges
 * injected wallets, and exposes the instance API and an EIP-1193 provider. Decisions (which
 * view, when a connection counts, which events the provider emits) belong to the modal; the
 * SDK stays small.
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
  Parent,
  type PortholeState,
  type ProviderRpcError,
  TIMEOUTS,
  UnauthorizedError,
  UnsupportedMethodError,
} from '@porthole/protocol/lite'
import { mountDialog } from './internal/dialog.js'
import { createEmitter } from './internal/emitter.js'
import { discoverInjected, MODAL_METHODS } from './internal/injected.js'
import { createProvider } from './internal/provider.js'
import type { ConnectResult, Porthole, PortholeOptions } from './types.js'

type ModalChannel = Channel.Channel<HostToModal, ModalToHost>

/** The script tag that loaded this code, captured while it runs (`sdk.js` reads its data too). */
export const currentScript = document.currentScript as HTMLScriptElement | null
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
  const { projectId = '', metadata, modalUrl, announceProvider, ...rest } = options
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
  }
  let channel: ModalChannel | undefined
  let fatal: ProviderRpcError | undefined
  // Shown by the SDK and not yet confirmed by the modal (its earlier `open: false` is stale).
  let opening = false
  let modalOpen = false
  let waiters: [(c: ModalChannel) => void, (e: unknown) => void][] = []

  const setState = (next: PortholeState) => {
    state = next
    events.emit('state', next)
  }
  const ready = (): Promise<ModalChannel> =>
    fatal
      ? Promise.reject(fatal)
      : channel && !channel.closed
        ? Promise.resolve(channel)
        : new Promise((resolve, reject) => waiters.push([resolve, reject]))
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
    try {
      return await (await ready()).request(method, params as never)
    } finally {
      opening = false
      sync()
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
  const dialog = mountDialog(src.href, () => {
    void close()
  })

  const [provider, stopProvider] = createProvider({
    events,
    getState: () => state,
    injected: (uuid) => injected.get(uuid)?.provider,
    modal: async (method, params) =>
      (await ready()).request(
        'request',
        params === undefined ? { method } : { method, params: params as never },
      ),
    connect: () => instance.connect(),
    announce: announceProvider !== false,
  })
  const injected = discoverInjected(
    (providers) => channel?.emit('injectedProviders', { providers }),
    (uuid, event, data) => channel?.emit('injectedEvent', { uuid, event, data }),
  )

  // No `ready` within 3 s of the frame's load (or 20 s at all): ask the server why, fail fast.
  let seenReady = false
  const diagnose = async () => {
    if (seenReady || fatal) return
    let reason = 'Network Error - Could not load the modal'
    try {
      const answer = await (await fetch(new URL(`/frame-check${src.search}`, base))).json()
      if (answer.reason) reason = answer.reason
    } catch {}
    if (!seenReady) fail(new UnauthorizedError(reason))
  }
  const loadTimer = setTimeout(diagnose, TIMEOUTS.iframeLoad)
  dialog.frame.addEventListener('load', () => setTimeout(diagnose, 3000))

  const stop = Parent.connect<HostToModal, ModalToHost>({
    frame: dialog.frame,
    origin: base.origin,
    hello: {
      projectId,
      metadata: metadata ?? {
        name: document.title.slice(0, 100) || location.host,
        url: location.origin,
      },
      config: { ...rest, networks: rest.networks ?? ['eip155:1'], storage: read() } as ModalConfig,
    },
    validator: modalToHostValidator,
    handlers: {
      injectedRequest: ({ uuid, method, params }) => {
        const wallet = injected.get(uuid)
        if (!wallet) throw new DisconnectedError('Wallet not found')
        if (!MODAL_METHODS.test(method)) throw new UnsupportedMethodError()
        return wallet.provider.request(params === undefined ? { method } : { method, params })
      },
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
      channel.on('providerEvent', ({ event, data }) =>
        events.emit(event, event === 'disconnect' ? fromErrorObject(data) : data),
      )
      channel.emit('injectedProviders', { providers: injected.list() })
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
    async connect() {
      if (state.status === 'connected' && state.address)
        return {
          address: state.address,
          caipAddress: state.caipAddress!,
          chainId: state.chainId!,
          caipNetworkId: state.caipNetworkId!,
        } as ConnectResult
      return show('connect', {})
    },
    async disconnect() {
      await (await ready()).request('disconnect', {})
    },
    async switchNetwork(network) {
      await (await ready()).request('switchNetwork', { network })
    },
    getState: () => state,
    subscribe: (listener) => instance.on('state', listener as never),
    getProvider(namespace) {
      if (namespace !== 'eip155') throw new InternalRpcError('Unsupported chain namespace')
      return provider
    },
    on(event, listener) {
      events.on(event, listener)
      return () => events.off(event, listener)
    },
    off: events.off,
    destroy() {
      clearTimeout(loadTimer)
      stop()
      injected.stop()
      stopProvider()
      dialog.remove()
      fail(new DisconnectedError('Porthole instance destroyed'))
      events.clear()
    },
  }
  return instance
}
