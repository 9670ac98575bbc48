/**
 * The modal frame's container: a `<dialog>` shown with `showModal()` (top layer, the page
 * behind is inert), a full-viewport transparent iframe inside it, created hidden so the modal
 * app is preloaded. Focus moves in on open (and back in if the browser hands it to the page) and
 * back to the opener on close; page scroll is locked while open.
 *
 * Closed, the dialog stays laid out over the viewport but fully transparent, click-through and
 * `inert` (out of the tab order and the accessibility tree), not `display: none`: browsers stop
 * rendering a hidden cross-origin frame, and restarting it cost a frame on every open. So the
 * view the modal prepared is already painted, and the first frame after the click shows it.
 */

/** Sandbox of the modal frame: scripts, its own storage, popups for social login and wallets. */
const SANDBOX =
  'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox'

export type Dialog = {
  frame: HTMLIFrameElement
  show(): void
  hide(): void
  remove(): void
}

/**
 * Mounts the hidden dialog with the modal frame at `src`.
 *
 * @example
 * const dialog = mountDialog(url, () => channel.request('close', {}))
 */
export function mountDialog(src: string, onCancel: () => void): Dialog {
  const dialog = document.createElement('dialog')
  const frame = document.createElement('iframe')
  const root = document.documentElement
  let opener: Element | null = null
  let overflow = ''
  // An invisible full-viewport box, open or closed (no UA sizes, borders or margins): the modal
  // app draws the card and the dimmed backdrop (the dialog's faint native ::backdrop stays
  // underneath it while open).
  dialog.style.cssText = 'all:unset;position:fixed;inset:0;display:block'
  const conceal = (on: boolean) => {
    dialog.inert = on
    dialog.style.opacity = `${+!on}`
    dialog.style.pointerEvents = on ? 'none' : ''
  }
  conceal(true)
  frame.style.cssText = 'display:block;width:100%;height:100%;border:0;color-scheme:normal'
  dialog.ariaLabel = 'Connect a wallet'
  frame.title = 'Connect a wallet'
  // `sandbox` forwards a string to its token list's value: the attribute, set in fewer bytes.
  ;(frame as unknown as { sandbox: string }).sandbox = SANDBOX
  // Passkeys: the embedded wallet (a frame inside the modal) makes and uses them for the wallet's
  // origin, which no host page can claim.
  frame.allow = 'clipboard-write;publickey-credentials-get;publickey-credentials-create'
  frame.src = src
  dialog.append(frame)
  // Escape while focus is on the dialog itself (not inside the frame): let the modal decide.
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault()
    onCancel()
  })
  ;(document.body || root).append(dialog)
  // While the dialog is open, focus belongs in the frame (the page behind is inert), so this
  // window gets `focus` only when the frame lost it without the user moving it: Chromium, when
  // a cross-site frame is focused as its document starts (before it commits, or as it loads),
  // may hand focus back to this page a few ms later while the frame's document still believes
  // it has it. Keys then reach the <iframe> element here and are dropped, and a click in the
  // frame does not repair it (1 open in 30 to 40 with real keyboard input). Focus the frame's
  // window again, a task later, once Chromium has set the frame up (at once, or by blurring and
  // focusing the element, it loses keys the same way; where the frame has focus, a no-op).
  const refocus = () => setTimeout(() => frame.contentWindow?.focus())
  return {
    frame,
    show() {
      if (dialog.open) return
      opener = document.activeElement
      overflow = root.style.overflow
      root.style.overflow = 'hidden'
      conceal(false)
      addEventListener('focus', refocus)
      dialog.showModal()
      frame.focus()
    },
    hide() {
      if (!dialog.open) return
      removeEventListener('focus', refocus)
      dialog.close()
      conceal(true)
      root.style.overflow = overflow
      ;(opener as HTMLElement | null)?.focus?.()
      opener = null
    },
    remove() {
      this.hide()
      dialog.remove()
    },
  }
}
