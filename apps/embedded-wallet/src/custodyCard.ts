/**
 * The wallet frame's own card for custody steps that need the user's hand: creating or using the
 * passkey that protects a wallet, and revealing the private key for export. Drawn with plain
 * DOM and `textContent` (nothing is parsed as HTML); a dialog labelled by its title, focus on
 * its main button, Escape cancels. The action runs inside the click (WebAuthn wants it).
 */
import { UserRejectedRequestError } from '@porthole/protocol'
import { trapTab } from './card.js'
import { t } from './i18n/en.js'

/** One screen of the card. */
export type CustodyScreen = {
  title: string
  text: string[]
  /** Shown in a monospace, selectable block (the exported key). */
  secret?: string
  /** The main button. */
  confirm: string
  /** The secondary button; absent: none. */
  cancel?: string
}

/** What the main button does: nothing more (done), or the next screen. */
export type CustodyAction = () => Promise<CustodyScreen | undefined>

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  node.className = className
  if (text !== undefined) node.textContent = text
  return node
}

/**
 * Shows the card until its last action is done (resolves) or the user cancels (rejects 4001).
 * A failed action shows its message on the card, and the button tries again.
 *
 * @example
 * await showCustodyCard({ title: t('unlockTitle'), text: [...], confirm: t('usePasskey'), cancel: t('cancel') }, unlock)
 */
export function showCustodyCard(first: CustodyScreen, action: CustodyAction): Promise<void> {
  return new Promise((resolve, reject) => {
    const root = element('div', 'pw-overlay')
    const card = element('div', 'pw-card')
    card.setAttribute('role', 'dialog')
    card.setAttribute('aria-modal', 'true')
    card.setAttribute('aria-labelledby', 'pw-custody-title')
    root.append(card)
    document.body.append(root)
    let step: CustodyAction | undefined = action
    /** The screen's main button: focus goes there when this frame gets it. */
    let main: HTMLButtonElement | undefined
    // The modal shows this frame (and focuses it) after the card is drawn, when a focus given
    // at drawing time was lost: it moves onto the card then, unless already on one of its controls.
    const follow = () => {
      if (!card.contains(document.activeElement)) main?.focus()
    }
    addEventListener('focus', follow)
    const close = (error?: unknown) => {
      removeEventListener('focus', follow)
      root.remove()
      error === undefined ? resolve() : reject(error)
    }
    const cancel = () => close(new UserRejectedRequestError('User rejected the request.'))
    const draw = (screen: CustodyScreen) => {
      card.replaceChildren()
      const title = element('h2', 'pw-title', screen.title)
      title.id = 'pw-custody-title'
      card.append(title)
      for (const line of screen.text) card.append(element('p', 'pw-text', line))
      if (screen.secret !== undefined) {
        const secret = element('pre', 'pw-body pw-mono pw-secret', screen.secret)
        secret.tabIndex = 0
        secret.dir = 'ltr'
        secret.setAttribute('aria-label', t('privateKey'))
        card.append(secret)
      }
      const error = element('p', 'pw-error')
      error.setAttribute('role', 'alert')
      card.append(error)
      const actions = element('div', 'pw-actions')
      if (screen.cancel) {
        const no = element('button', 'pw-button pw-secondary', screen.cancel)
        no.type = 'button'
        no.onclick = cancel
        actions.append(no)
      }
      const yes = element('button', 'pw-button', screen.confirm)
      yes.type = 'button'
      yes.onclick = async () => {
        if (!step) return close()
        yes.disabled = true
        error.textContent = ''
        try {
          const next = await step()
          if (!next) return close()
          step = undefined
          draw(next)
        } catch (failure) {
          if (failure instanceof UserRejectedRequestError && !screen.cancel) return close(failure)
          error.textContent = (failure as Error).message
          yes.disabled = false
        }
      }
      actions.append(yes)
      card.append(actions)
      main = yes
      // The next screen; the first waits for the modal to show and focus this frame (follow).
      if (document.hasFocus()) yes.focus()
    }
    // A modal dialog: Escape cancels, Tab stays on its controls.
    root.onkeydown = (event) => {
      if (event.key === 'Escape') cancel()
    }
    card.addEventListener('keydown', trapTab)
    draw(first)
  })
}
