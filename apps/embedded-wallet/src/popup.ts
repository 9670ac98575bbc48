/**
 * A top-level window on the wallet origin for what must not happen inside a frame the host page
 * can style: the opener side. The popup (`popup.html`, `popupMain.ts`) says it is ready to
 * `window.opener` with this origin as the only target; this side accepts that only from the
 * window it opened and from its own origin, then hands over a MessagePort carrying the task. The
 * answer comes back on the port. No message ever goes to `'*'`.
 *
 * Tasks are plain data with a `kind`; the popup renders each kind with its own module
 * (`popupTasks.ts`). Add a kind there and call `openWalletPopup({ kind, … })` here.
 */
import { UserRejectedRequestError } from '@porthole/protocol'
import { locale } from './i18n/en.js'

/** Size of the wallet's popup window. */
export const POPUP_SIZE = { width: 420, height: 680 }

/** A task for the popup: a `kind` and its plain data. */
export type PopupTask = { kind: string; [key: string]: unknown }

const READY = 'porthole-wallet-popup:ready'
const TASK = 'porthole-wallet-popup:task'

/** What {@link openWalletPopup} returns: the answer, and a way to close the window early. */
export type WalletPopup<T> = { result: Promise<T>; close(): void }

/**
 * Opens the popup with a task; must run inside a user activation of this frame (a click or key
 * press), or the browser blocks it. The result rejects with 4001 when the window is closed first
 * or cannot open.
 *
 * @example
 * const popup = openWalletPopup<{ approved: boolean }>({ kind: 'approval', content })
 * const { approved } = await popup.result
 */
export function openWalletPopup<T>(
  task: PopupTask,
  theme?: Record<string, string>,
): WalletPopup<T> {
  const origin = location.origin
  const left = Math.max(0, (screen.width - POPUP_SIZE.width) / 2)
  const top = Math.max(0, (screen.height - POPUP_SIZE.height) / 2)
  const popup = window.open(
    new URL('/popup.html', origin).href,
    'porthole-wallet',
    `popup=yes,width=${POPUP_SIZE.width},height=${POPUP_SIZE.height},left=${left},top=${top}`,
  )
  let stop = () => {}
  const result = new Promise<T>((resolve, reject) => {
    if (!popup) {
      reject(new UserRejectedRequestError('The wallet window could not open'))
      return
    }
    let port: MessagePort | undefined
    const done = (outcome: () => void) => {
      removeEventListener('message', onReady)
      clearInterval(poll)
      port?.close()
      if (!popup.closed) popup.close()
      outcome()
    }
    stop = () => done(() => reject(new UserRejectedRequestError('User rejected the request.')))
    const onReady = (event: MessageEvent) => {
      if (event.source !== popup || event.origin !== origin || event.data !== READY) return
      removeEventListener('message', onReady)
      const channel = new MessageChannel()
      port = channel.port1
      port.onmessage = (answer) => done(() => resolve(answer.data as T))
      popup.postMessage({ type: TASK, task, theme: theme ?? {}, locale: locale() }, origin, [
        channel.port2,
      ])
    }
    addEventListener('message', onReady)
    const poll = setInterval(() => {
      if (popup.closed) stop()
    }, 500)
  })
  return { result, close: () => stop() }
}

/** The messages of the handshake, for the popup side. */
export const POPUP_MESSAGES = { READY, TASK } as const
