/**
 * The embedded-wallet frame, a hidden child frame of the modal on the wallet origin
 * (DESIGN §1). Created when an embedded account is needed, or as the modal starts (before the
 * host's handshake) when the last session was embedded; ready once it says so plus the 500 ms
 * settle delay (spec §4). Load and login timeouts follow spec §9 and surface as the spec's
 * alerts.
 */
import {
  type Channel,
  Checks,
  DisconnectedError,
  type EmbeddedUser,
  type ModalToWallet,
  Parent,
  ResourceUnavailableError,
  UnauthorizedError,
  WALLET_TIMEOUTS,
  type WalletToModal,
} from '@porthole/protocol'
import { raiseAlert } from '../actions/alerts.js'
import { reportError } from '../actions/analytics.js'
import { ALERTS, walletAlertFor } from '../rules/alerts.js'
import { runtime } from '../runtime.js'
import { store } from '../store/store.js'

type WalletChannel = Channel.Channel<ModalToWallet, WalletToModal>

/** Requests that wait on a human (e-mail, device, OTP, social): 120 s each (spec §9). */
const LOGIN_METHODS = new Set([
  'connectEmail',
  'connectDevice',
  'connectOtp',
  'connectSocial',
  'getSocialRedirectUri',
  'getFarcasterUri',
])

let frame: HTMLIFrameElement | undefined
let ready: Promise<WalletChannel> | undefined
/** The user the frame's `ready` named (before the settle delay); see {@link announcedUser}. */
let announced: Promise<EmbeddedUser | null | undefined> | undefined
let announce: ((user: EmbeddedUser | null | undefined) => void) | undefined
let current: WalletChannel | undefined
const listeners: ((channel: WalletChannel) => void)[] = []
/** Whether the host's handshake set the configuration (the hello's language, metadata). */
let configured = false
let markConfigured: () => void = () => {}
const hostConfigured = new Promise<void>((resolve) => {
  markConfigured = resolve
})
/** Stops the frame's handshake, timer and element (see {@link dropWalletFrame}). */
let teardown: (() => void) | undefined

/**
 * Says that the host's handshake set the configuration: what the frame is told about the host
 * (its verified origin, networks, language) waits for it. Call once the hello is applied.
 *
 * @example
 * Config.applyHello(hello); hostConfiguredNow()
 */
export function hostConfiguredNow(): void {
  configured = true
  markConfigured()
}

/**
 * Resolves once the host's handshake set the configuration ({@link hostConfiguredNow}).
 *
 * @example
 * await whenHostConfigured()
 */
export function whenHostConfigured(): Promise<void> {
  return hostConfigured
}

/** Registers a callback for each (re)connected frame channel (event subscriptions). */
export function onWalletChannel(listener: (channel: WalletChannel) => void): void {
  listeners.push(listener)
  if (current) listener(current)
}

function fail(message: string, reason: 'iframe_load_failed' | 'iframe_request_timeout') {
  store.setState({ alert: { code: -32002, message, fatal: false } })
  const error = new ResourceUnavailableError(message, { data: { reason } })
  reportError(error, { category: 'EMBEDDED_WALLET_ERROR', event: reason }) // spec §8
  return error
}

/**
 * The wallet frame's channel, creating the frame on first use. Rejects with 'Network Error -
 * Could not load embedded wallet' when the frame is not ready in 20 s.
 *
 * @example
 * const wallet = await walletFrame()
 */
export function walletFrame(): Promise<WalletChannel> {
  if (ready) return ready
  // The frame URL's project id is the page's own (the host's hello must name the same one).
  const { projectId } = runtime
  const url = new URL('/', runtime.walletUrl)
  url.searchParams.set('projectId', projectId)
  // The wallet's cards speak the modal's language (English needs no parameter). A frame made
  // before the host's handshake is told it in `syncDappData` (see watchWalletFrame).
  const { locale } = store.getState().config
  if (configured && locale !== 'en') url.searchParams.set('locale', locale)
  const node = document.createElement('iframe')
  node.title = 'Porthole embedded wallet'
  node.className = 'ph-wallet-frame'
  // Popups escape the sandbox: the wallet's own approval window must be a normal top-level page.
  node.setAttribute(
    'sandbox',
    'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox',
  )
  // The wallet's passkeys (WebAuthn for the wallet origin) and copying its exported key.
  node.allow = 'publickey-credentials-get;publickey-credentials-create;clipboard-write'
  node.hidden = true
  frame = node
  announced = new Promise((resolve) => {
    announce = resolve
  })
  ready = new Promise<WalletChannel>((resolve, reject) => {
    // The frame did not load in time, or its code did not start (its early script then refuses
    // the hello: @porthole/protocol/announce).
    const loadFailed = () => {
      clearTimeout(timer)
      announce?.(undefined)
      stop()
      node.remove()
      frame = undefined
      ready = undefined
      // The wallet origin may have refused this modal or site (its frame-ancestors): the API
      // says whether it would (spec §8 'Unverified Domain'); else the frame could not load.
      // Its code is fetched only now; if that fails too, the network is the reason.
      void import('../api/walletFrameCheck.js')
        .then((check) => check.refusesThisSite())
        .catch(() => false)
        .then((refused) => {
          if (!refused)
            return reject(
              fail('Network Error - Could not load embedded wallet', 'iframe_load_failed'),
            )
          raiseAlert(ALERTS.unverifiedDomain)
          reject(new UnauthorizedError(ALERTS.unverifiedDomain.message))
        })
    }
    const timer = setTimeout(loadFailed, WALLET_TIMEOUTS.load)
    teardown = () => {
      clearTimeout(timer)
      announce?.(undefined)
      stop()
      node.remove()
      frame = undefined
      ready = undefined
      current = undefined
    }
    const stop = Parent.connect<ModalToWallet, WalletToModal>({
      frame: node,
      origin: new URL(runtime.walletUrl).origin,
      // The host's metadata once its handshake gave it (the frame takes nothing from it).
      hello: () => ({
        projectId,
        ...(configured ? { metadata: store.getState().config.metadata } : {}),
      }),
      validator: Checks.validator(Checks.WalletToModal),
      onChannel: (channel) => {
        const typed = channel as unknown as WalletChannel
        current = typed
        for (const listener of listeners) listener(typed)
        typed.on('ready', (event) => {
          announce?.(event.isConnected ? event.user : null)
          setTimeout(() => {
            clearTimeout(timer)
            resolve(typed)
          }, WALLET_TIMEOUTS.settle)
        })
      },
      onError: (error) => {
        if ((error.data as { reason?: unknown } | undefined)?.reason === 'iframe_load_failed')
          return loadFailed()
        clearTimeout(timer)
        announce?.(undefined)
        // The wallet refused this site in its handshake (4100): spec §8 'Unverified Domain'.
        const alert = walletAlertFor(error)
        if (alert) raiseAlert(alert)
        reject(error)
      },
    })
  })
  node.src = url.href
  document.body.append(node)
  ready.catch(() => {})
  return ready
}

/**
 * The user the wallet frame named in its `ready` event, as soon as it arrives (not after the
 * 500 ms settle delay that gates requests): a restored session's user, `null` when the frame has
 * no session, `undefined` when it did not say (or did not load). Creates the frame if needed.
 *
 * @example
 * const user = await announcedUser() // then requests wait for walletFrame() as ever
 */
export function announcedUser(): Promise<EmbeddedUser | null | undefined> {
  // A frame that fails to load raises its own alert (see walletFrame) and announces undefined:
  // nothing is lost here.
  void walletFrame().catch(() => {})
  return announced as Promise<EmbeddedUser | null | undefined>
}

/**
 * Sends a request to the wallet frame with the spec's timeouts: login requests 120 s ('Embedded
 * Wallet Request Timed Out'); RPC and the rest none (requests that wait on the user) or as given.
 * A frame whose element left the document rejects with 'W3mFrame: iframe is not set' (4900).
 *
 * @example
 * const { action } = await walletRequest('connectEmail', { email })
 */
export async function walletRequest<M extends keyof ModalToWallet['requests'] & string>(
  method: M,
  params: ModalToWallet['requests'][M]['params'],
  options: { timeout?: number; signal?: AbortSignal } = {},
): Promise<ModalToWallet['requests'][M]['result']> {
  const channel = await walletFrame()
  // The frame's element left the document (removed by a script, or gone with a crash): a
  // request would wait for an answer that never comes. Spec §8's error (4900); the frame is
  // dropped so the next request makes a new one (which restores its session itself).
  if (!frame?.isConnected) {
    dropWalletFrame()
    throw new DisconnectedError('W3mFrame: iframe is not set')
  }
  const timeout = options.timeout ?? (LOGIN_METHODS.has(method) ? WALLET_TIMEOUTS.login : undefined)
  try {
    return await channel.request(method, params, { timeout, signal: options.signal })
  } catch (error) {
    if ((error as { data?: { timeout?: number } }).data?.timeout !== undefined)
      throw fail('Embedded Wallet Request Timed Out', 'iframe_request_timeout')
    throw error
  }
}

/** What had focus in the modal when the wallet's card came up (to give it back). */
let focusBeforeCard: Element | null = null
/** Stops waiting to hide a frame left up while the modal closed. */
let stopWaiting: (() => void) | undefined
/** Whether the frame shows a card: a frame left up without one never takes focus. */
let cardUp = false

/**
 * Shows the wallet frame over the modal (approvals, custody steps) or hides it again. While it
 * shows, the modal's own UI is inert: focus and keys go to the wallet's card only (a Space on the
 * modal's close button behind it must not reject the request). Hidden again, focus goes back to
 * what had it before the card (the button that asked), else to the view's title.
 *
 * `closing`: the card was all the modal showed, and the modal is closing (the host gives focus
 * back to its opener). The frame, now without a card, then stays until the modal opens again,
 * unseen behind the closed modal: hiding the frame that has focus makes the browser move focus to
 * the modal frame, and that move can reach the host page after its opener got focus back (then
 * nothing has focus). Once the host took focus back, hiding it changes nothing.
 *
 * @example
 * showWalletFrame(false)
 * showWalletFrame(false, { closing: true })
 */
export function showWalletFrame(visible: boolean, options: { closing?: boolean } = {}): void {
  const node = frame
  if (!node) return
  stopWaiting?.()
  stopWaiting = undefined
  if (visible && node.hidden) focusBeforeCard = document.activeElement
  cardUp = visible
  if (!visible && options.closing) {
    focusBeforeCard = null
    stopWaiting = store.subscribe((state) => {
      if (!state.open) return
      stopWaiting?.()
      stopWaiting = undefined
      // A new card comes up in this frame (showWalletFrame(true) follows): it stays.
      if (state.history.at(-1)?.view === 'ApproveTransaction') return
      document.getElementById('root')?.removeAttribute('inert')
      // The frame is still this document's focused element (the card had focus), and a focus the
      // host gives the modal goes back to it, before or after this "open" arrives: once hidden, no
      // element would have focus. The opening modal takes it first (the host shows the modal
      // before it asks it to open).
      if (document.activeElement === node)
        document.getElementById('ph-title')?.focus({ preventScroll: true })
      node.hidden = true
    })
    return
  }
  node.hidden = !visible
  document.getElementById('root')?.toggleAttribute('inert', visible)
  if (visible) {
    focusWalletFrame()
    return
  }
  const before = focusBeforeCard
  focusBeforeCard = null
  const target =
    before instanceof HTMLElement && before.isConnected && before !== document.body
      ? before
      : document.getElementById('ph-title')
  target?.focus({ preventScroll: true })
}

/**
 * Moves focus into the wallet frame, on the next frame: while the host has not shown the modal
 * yet this frame is not rendered, and a focus given then is lost (Chromium); animation frames
 * wait until it is shown. Only while this document has focus: the host focuses the modal when it
 * shows it (see below), and focus is never taken from the host page.
 */
function focusWalletFrame(): void {
  requestAnimationFrame(() => {
    if (frame && cardUp && !frame.hidden && document.hasFocus()) frame.focus()
  })
}

// The host focuses the modal frame when it shows it, which may come after the wallet frame was
// shown: focus then goes on into the wallet frame (its card takes it from there). Not into a frame
// left up without a card after the modal closed: the host focuses the modal before it asks it to
// open, and focus passed into that frame was lost when the opening modal hid it (the view's title
// then never got focus).
if (typeof window !== 'undefined')
  addEventListener('focus', () => {
    if (frame && cardUp && !frame.hidden) focusWalletFrame()
  })

/**
 * Removes a frame made before the host's handshake when that handshake is refused (the host is
 * not allowed): nothing waits for it, and no load alert follows.
 *
 * @example
 * dropWalletFrame()
 */
export function dropWalletFrame(): void {
  teardown?.()
  teardown = undefined
}

/** Whether the frame exists (an embedded account was needed this session). */
export function walletFrameStarted(): boolean {
  return ready !== undefined
}
