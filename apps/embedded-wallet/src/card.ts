/**
 * Draws an approval card from {@link ApprovalContent}: a dialog labelled by its title, the
 * verified origin, the fields (addresses whole, never broken mid-string), the balance changes,
 * the warnings, the long content in a scrollable focusable block, and Reject / Approve. Plain
 * DOM and `textContent` only: nothing from a request is ever parsed as HTML. Used by the frame's
 * card and by the popup.
 */
import type { ApprovalContent } from './describe.js'
import { plural, t } from './i18n/en.js'

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

/** The parts of a drawn card its owner drives. */
export type CardView = {
  root: HTMLElement
  card: HTMLElement
  approve: HTMLButtonElement
  reject: HTMLButtonElement
  /** Whether Approve takes input now (`aria-disabled` otherwise, so a click still arrives). */
  setArmed(armed: boolean): void
  /**
   * Whether a click on Approve comes from a press that began after the card was last armed: its
   * pointer went down, or Enter or Space went down (not a key repeat), since then. A key held, or
   * a press begun, while the card could not yet be read does not approve once the delay ends.
   */
  pressedSinceArmed(event: MouseEvent): boolean
  /** A line under the buttons ("Continue in the wallet window", "1 more request waiting"). */
  setStatus(text: string): void
  setQueue(waiting: number): void
  /**
   * Says this approval completes in the wallet's popup window: Approve reads "Approve in wallet
   * window" and the line under the buttons says why.
   */
  setInWindow(): void
}

/**
 * Draws `content` into a new overlay appended to `parent`.
 *
 * @example
 * const view = drawCard(content, document.body)
 */
export function drawCard(content: ApprovalContent, parent: HTMLElement): CardView {
  const root = element('div', 'pw-overlay')
  const card = element('div', 'pw-card')
  card.setAttribute('role', 'dialog')
  card.setAttribute('aria-modal', 'true')
  card.setAttribute('aria-labelledby', 'pw-title')
  card.setAttribute('aria-describedby', 'pw-origin')
  card.tabIndex = -1
  const title = element('h2', 'pw-title', content.title)
  title.id = 'pw-title'
  const origin = element('p', 'pw-origin', content.origin || t('unknownSite'))
  origin.id = 'pw-origin'
  card.append(title, origin)
  const list = element('dl', 'pw-fields')
  for (const field of content.fields) {
    const value = element('dd', field.mono ? 'pw-mono pw-value' : 'pw-value', field.value)
    // Addresses, hashes and calls read left to right in every layout.
    if (field.mono) value.dir = 'ltr'
    list.append(element('dt', '', field.label), value)
  }
  card.append(list)
  if (content.effects) {
    const effects = element('p', 'pw-effects')
    effects.append(element('span', 'pw-effects-label', `${t('balanceChanges')} `), content.effects)
    card.append(effects)
  }
  // Warnings come before the long content: read before the raw data, never under its scroll.
  for (const warning of content.warnings) {
    const note = element('p', 'pw-warning', warning)
    note.setAttribute('role', 'note')
    card.append(note)
  }
  if (content.body) {
    const body = element('pre', 'pw-body', content.body.text)
    body.tabIndex = 0
    body.setAttribute('aria-label', content.body.label)
    card.append(element('p', 'pw-label', content.body.label), body)
  }
  if (content.blocked) {
    const blocked = element('p', 'pw-error pw-blocked', content.blocked)
    blocked.setAttribute('role', 'alert')
    card.append(blocked)
  }
  const actions = element('div', 'pw-actions')
  const reject = element('button', 'pw-button pw-secondary', t('reject'))
  const approve = element('button', 'pw-button', t('approve'))
  reject.type = approve.type = 'button'
  // An information card: one button that closes it, and no Approve to press.
  if (content.dismissOnly) {
    reject.textContent = content.dismissOnly
    reject.className = 'pw-button'
    approve.hidden = true
  }
  actions.append(reject, approve)
  const status = element('p', 'pw-status')
  status.setAttribute('aria-live', 'polite')
  const queue = element('p', 'pw-queue')
  card.append(actions, status, queue)
  root.append(card)
  parent.append(root)
  let armedAt = Number.POSITIVE_INFINITY
  const pressedAt = { pointer: Number.NEGATIVE_INFINITY, key: Number.NEGATIVE_INFINITY }
  approve.addEventListener(
    'pointerdown',
    () => {
      pressedAt.pointer = performance.now()
    },
    true,
  )
  approve.addEventListener(
    'keydown',
    (event) => {
      if ((event.key === 'Enter' || event.key === ' ') && !event.repeat)
        pressedAt.key = performance.now()
    },
    true,
  )
  return {
    root,
    card,
    approve,
    reject,
    setArmed(armed) {
      armedAt = armed ? performance.now() : Number.POSITIVE_INFINITY
      approve.setAttribute(
        'aria-disabled',
        String(!armed || Boolean(content.blocked) || Boolean(content.dismissOnly)),
      )
    },
    // A keyboard activation is a click with no pointer (detail 0).
    pressedSinceArmed: (event) =>
      (event.detail === 0 ? pressedAt.key : pressedAt.pointer) >= armedAt,
    setStatus(text) {
      status.textContent = text
    },
    setQueue(waiting) {
      queue.textContent = waiting === 0 ? '' : plural(waiting, 'queueOne', 'queueOther')
    },
    setInWindow() {
      approve.textContent = t('approveInWindow')
      status.textContent = t('approvesInWindow')
    },
  }
}

/**
 * Keeps Tab on the card's controls (Reject, Approve and the scrollable block): the card is a
 * modal dialog.
 *
 * @example
 * card.addEventListener('keydown', trapTab)
 */
export function trapTab(event: KeyboardEvent): void {
  if (event.key !== 'Tab') return
  const card = event.currentTarget as HTMLElement
  const items = [...card.querySelectorAll<HTMLElement>('button:not([hidden]), [tabindex="0"]')]
  if (items.length === 0) return
  const index = items.indexOf(document.activeElement as HTMLElement)
  const next = event.shiftKey
    ? index <= 0
      ? items.length - 1
      : index - 1
    : index === -1 || index === items.length - 1
      ? 0
      : index + 1
  event.preventDefault()
  items[next]?.focus()
}
