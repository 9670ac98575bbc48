/**
 * Opening, closing and navigating the modal, toasts and the shake.
 *
 * While closed the modal keeps the view it would open on rendered (Connect, or Account when
 * connected: {@link prepare}), so `open()` only reveals it: the host shows the frame in the click's
 * task and the first frame after the click is the usable view.
 */
import type { OpenableView } from '@porthole/protocol'
import { UserRejectedRequestError } from '@porthole/protocol'
import { hasAdapters } from '../rules/adapters.js'
import { backTarget } from '../rules/backTarget.js'
import { openingScreen } from '../rules/openingScreen.js'
import { store } from '../store/store.js'
import type { Screen, Toast } from '../store/types.js'
import * as Waiters from './waiters.js'

/** Toast reopen delay and modal shake (spec §9). */
export const TOAST_REOPEN_MS = 150
export const SHAKE_MS = 500
export const TOAST_AUTO_CLOSE_MS = 2500

/**
 * Opens the modal on the view the opening rules pick (a requested view wins).
 *
 * @example
 * open({ view: 'Networks' })
 */
export function open(parameters: { view?: OpenableView | undefined } = {}): void {
  const screen = nextScreen(parameters.view)
  const { history } = store.getState()
  // The prepared screen stays mounted (same object): nothing is rebuilt on the click path.
  const prepared = history.length === 1 && sameScreen(history[0], screen)
  store.setState({ open: true, history: prepared ? history : [screen], toast: null })
}

/**
 * While closed, renders the screen the next `open()` shows, with its data; runs after the
 * handshake and whenever the connection changes while closed.
 *
 * @example
 * prepare()
 */
export function prepare(): void {
  const { open, history } = store.getState()
  if (open) return
  const screen = nextScreen(undefined)
  if (history.length === 1 && sameScreen(history[0], screen)) return
  store.setState({ history: [screen] })
}

function nextScreen(requested: OpenableView | undefined): Screen {
  const { connection, config } = store.getState()
  return openingScreen({
    requested,
    connected: connection.status === 'connected',
    hasAdapters: hasAdapters(config.networks),
    isMobile: config.isMobile,
  })
}

function sameScreen(a: Screen | undefined, b: Screen): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b)
}

/**
 * Closes the modal; a pending `connect()` rejects with 'Modal closed' (4001).
 *
 * @example
 * close()
 */
export function close(): void {
  if (!store.getState().open) return
  store.setState({ open: false, toast: null, loading: false, connectNamespace: null })
  Waiters.rejectAll(new UserRejectedRequestError('Modal closed'))
  for (const listener of closeListeners) listener()
  prepare()
}

const closeListeners: (() => void)[] = []

/** Runs `listener` whenever the modal closes (e.g. to abort requests waiting for approval). */
export function onClose(listener: () => void): void {
  closeListeners.push(listener)
}

let closableRule: () => boolean = () => true

/** Whether the user may close the modal now (spec §2: not on sign/approve while sign-in is required). */
export function closable(): boolean {
  return closableRule()
}

/**
 * Sets the rule {@link closable} follows (wallet sign-in's, `actions/siwx.ts`).
 *
 * @example
 * setClosable(() => !blocksClose())
 */
export function setClosable(rule: () => boolean): void {
  closableRule = rule
}

/**
 * The user asked to close (X, Escape, backdrop): close, or shake when the view forbids it.
 *
 * @example
 * requestClose()
 */
export function requestClose(): void {
  if (closable()) close()
  else shake()
}

/** Pushes a screen. */
export function push(screen: Screen): void {
  store.setState((s) => ({ history: [...s.history, screen] }))
}

/** The view on top of the history, or undefined when there is none. */
export function currentView(): Screen['view'] | undefined {
  return store.getState().history.at(-1)?.view
}

/** Replaces the current screen. */
export function replace(screen: Screen): void {
  store.setState((s) => ({ history: [...s.history.slice(0, -1), screen] }))
}

/** Back: pops the history, or closes at the first view (Connect while connected → Account). */
export function back(): void {
  const { history, connection } = store.getState()
  const target = backTarget(history, connection.status === 'connected')
  if (target === 'close') requestClose()
  else store.setState({ history: target.history })
}

let shakeTimer: ReturnType<typeof setTimeout> | undefined

/** Shakes the modal for 500 ms. */
export function shake(): void {
  clearTimeout(shakeTimer)
  store.setState({ shake: true })
  shakeTimer = setTimeout(() => store.setState({ shake: false }), SHAKE_MS)
}

let toastTimer: ReturnType<typeof setTimeout> | undefined

/**
 * Shows a toast; if one is open it closes and the new one opens 150 ms later (spec §4).
 *
 * @example
 * showToast('Address copied', 'success')
 */
export function showToast(message: string, variant: Toast['variant'], autoClose = true): void {
  clearTimeout(toastTimer)
  const show = () => {
    store.setState({ toast: { message, variant, open: true, autoClose } })
    if (autoClose) toastTimer = setTimeout(hideToast, TOAST_AUTO_CLOSE_MS)
  }
  if (store.getState().toast?.open) {
    store.setState({ toast: null })
    toastTimer = setTimeout(show, TOAST_REOPEN_MS)
  } else show()
}

/** Hides the toast. */
export function hideToast(): void {
  clearTimeout(toastTimer)
  store.setState({ toast: null })
}
