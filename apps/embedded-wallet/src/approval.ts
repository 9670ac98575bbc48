/**
 * The approval card the wallet frame shows itself for every not-safe request (DESIGN §4): the host
 * and the modal never draw what the user signs, and the host cannot trick a click onto it.
 * - Where the approval completes is decided once per card (`inlineApprovals.ts`): in this frame
 *   only when the dapp and every site framing it are origins the Porthole operator trusts
 *   (`project trust`) and the browser reports visibility; otherwise in a top-level popup on the
 *   wallet origin, which the host cannot style. No browser reports a mask on a frame above this
 *   one (README "Threats"), so on a site nobody vetted the page is no place to approve.
 * - In the popup case the card still shows the request; its Approve reads "Approve in wallet
 *   window" and one click on it opens the same card in the popup (the click is the user
 *   activation the browser's popup blocker asks for). The approval completes there.
 * - In the frame case Approve counts only while the whole card is verifiably visible at a
 *   readable size (`visibility.ts`: nothing over it, no transparency, filter or transform in any
 *   frame above it, not cropped, not zoomed out) and after it has been so, unchanged, for
 *   {@link ARM_DELAY_MS}; until then it is `aria-disabled`. An input on a card that is not
 *   opens the popup instead.
 * - Requests queue: a new one waits behind the card on screen and never replaces it; at most
 *   {@link MAX_PENDING_APPROVALS} wait, and more are refused at once.
 * - Reject always works (refusing cannot hurt the user).
 */
import { LimitExceededError, UserRejectedRequestError } from '@porthole/protocol'
import { type CardView, drawCard, trapTab } from './card.js'
import type { ApprovalContent } from './describe.js'
import { t } from './i18n/en.js'
import { decideInlineApproval } from './inlineApprovals.js'
import { openWalletPopup, type WalletPopup } from './popup.js'
import { observeVisibility, visibilitySupported } from './visibility.js'

/** How long the card must be visible and unchanged before Approve takes input. */
export const ARM_DELAY_MS = 500

/**
 * The most approvals on screen or waiting (spec §9: "Pending transactions limit 99"). A dapp that
 * asks for more is refused at once ({@link TOO_MANY_PENDING}): the queue a user has to click
 * through, and the frame's memory, stay bounded whatever a page sends.
 */
export const MAX_PENDING_APPROVALS = 99

/** What a request beyond {@link MAX_PENDING_APPROVALS} is refused with (-32005). */
export const TOO_MANY_PENDING = `Too many requests wait for approval (at most ${MAX_PENDING_APPROVALS})`

/**
 * Throws {@link TOO_MANY_PENDING} when the queue is full, before a request is described or shown.
 *
 * @example
 * assertApprovalRoom()
 */
export function assertApprovalRoom(): void {
  if (queue.length >= MAX_PENDING_APPROVALS) throw new LimitExceededError(TOO_MANY_PENDING)
}

export type { ApprovalContent, ApprovalField } from './describe.js'

type Entry = {
  content: ApprovalContent
  settle: (approved: boolean) => void
  fail: (error: unknown) => void
}

const queue: Entry[] = []
let shown:
  | {
      entry: Entry
      view: CardView
      stop: () => void
      popup: WalletPopup<{ approved: boolean }> | undefined
    }
  | undefined
/** The frame's theme (mode and the synced `--ph-*` variables), for the popup to look alike. */
function theme(): Record<string, string> {
  const root = document.documentElement
  const out: Record<string, string> = { mode: root.dataset.theme ?? 'dark' }
  for (let i = 0; i < root.style.length; i++) {
    const name = root.style.item(i)
    if (name.startsWith('--ph-')) out[name] = root.style.getPropertyValue(name)
  }
  return out
}

function show(entry: Entry): void {
  followFrameFocus()
  const { content } = entry
  const view = drawCard(content, document.body)
  const approvable = !content.blocked && !content.dismissOnly
  // Decided once, before anything is armed: in this page, or in the wallet's popup window.
  const inPage = decideInlineApproval(content.origin) && visibilitySupported()
  let visible = false
  let armed = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const arm = (next: boolean) => {
    clearTimeout(timer)
    armed = false
    view.setArmed(false)
    visible = next
    if (next)
      timer = setTimeout(() => {
        armed = true
        view.setArmed(true)
      }, ARM_DELAY_MS)
  }
  let stopVisibility = () => {}
  if (inPage) {
    view.setArmed(false)
    stopVisibility = observeVisibility(view.card, arm)
  } else {
    // Approve takes input at once: it only opens the window, whose card has its own delay.
    view.setArmed(true)
    if (approvable) view.setInWindow()
  }
  const state = {
    entry,
    view,
    popup: undefined as WalletPopup<{ approved: boolean }> | undefined,
    stop: () => {
      clearTimeout(timer)
      stopVisibility()
      state.popup?.close()
      view.root.remove()
    },
  }
  shown = state
  const toPopup = () => {
    if (state.popup) return
    view.setStatus(t('continueInPopup'))
    state.popup = openWalletPopup<{ approved: boolean }>({ kind: 'approval', content }, theme())
    state.popup.result.then(
      ({ approved }) => finish(entry, approved),
      () => {
        state.popup = undefined
        view.setStatus(t(inPage ? 'popupWindowClosed' : 'popupWindowClosedReopen'))
      },
    )
  }
  // Every input goes through here. In the popup case only Approve (a click, or Enter or Space
  // on it) opens the window. In the frame case Approve counts only when armed, and on a card
  // the user may not be seeing any input moves the approval to the popup instead.
  const input = (event: Event, target: EventTarget | null) => {
    if (target === view.reject) return finish(entry, false)
    if (!inPage) {
      if (target === view.approve && approvable) {
        event.preventDefault()
        toPopup()
      }
      return
    }
    if (
      target === view.approve &&
      armed &&
      approvable &&
      event instanceof MouseEvent &&
      view.pressedSinceArmed(event)
    )
      return finish(entry, true)
    if (!visible) {
      event.preventDefault()
      toPopup()
    }
  }
  view.root.addEventListener('click', (event) => input(event, event.target), true)
  view.card.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') return finish(entry, false)
    if (event.key === 'Tab') return trapTab(event)
    if (event.key === 'Enter' || event.key === ' ') {
      // Buttons fire a click for Enter and Space themselves: decide once, on the click.
      if (event.target === view.approve || event.target === view.reject) return
      input(event, event.target)
    }
  })
  view.setQueue(queue.length - 1)
  // Only while this frame has focus (the next card of a queue): a card that comes up while the
  // modal is hidden waits for the modal to show the frame and focus it (followFrameFocus), so it
  // never takes focus from the host page.
  if (document.hasFocus()) view.card.focus({ preventScroll: true })
}

let focusFollowed = false
/**
 * The modal shows this frame (and focuses it) after the card is drawn: focus moves onto the card
 * then, unless it is already on one of its controls. Installed with the first card, so importing
 * this module touches no window.
 */
function followFrameFocus(): void {
  if (focusFollowed) return
  focusFollowed = true
  addEventListener('focus', () => {
    if (shown && !shown.view.card.contains(document.activeElement))
      shown.view.card.focus({ preventScroll: true })
  })
}

function finish(entry: Entry, approved: boolean): void {
  remove(entry)
  entry.settle(approved)
}

function remove(entry: Entry): void {
  const index = queue.indexOf(entry)
  if (index !== -1) queue.splice(index, 1)
  if (shown?.entry === entry) {
    shown.stop()
    shown = undefined
    const next = queue[0]
    if (next) show(next)
  } else shown?.view.setQueue(queue.length - 1)
}

/**
 * Queues a card and resolves true (Approve) or false (Reject) once the user answers it; `signal`
 * aborts it (rejecting with the signal's reason).
 *
 * @example
 * const approved = await requestApproval(content, signal)
 */
export function requestApproval(content: ApprovalContent, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const entry: Entry = { content, settle: resolve, fail: reject }
    if (signal?.aborted) return reject(signal.reason)
    if (queue.length >= MAX_PENDING_APPROVALS)
      return reject(new LimitExceededError(TOO_MANY_PENDING))
    signal?.addEventListener(
      'abort',
      () => {
        if (!queue.includes(entry)) return
        remove(entry)
        reject(signal.reason)
      },
      { once: true },
    )
    queue.push(entry)
    if (!shown) show(entry)
    else shown.view.setQueue(queue.length - 1)
  })
}

/** Removes every card, rejecting each with `error`. */
export function dismiss(
  error: unknown = new UserRejectedRequestError('Request was aborted'),
): void {
  for (const entry of [...queue]) {
    remove(entry)
    entry.fail(error)
  }
}

/** How many approvals are on screen or waiting. */
export function pendingApprovals(): number {
  return queue.length
}
