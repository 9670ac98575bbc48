/**
 * The tasks the wallet's popup window can run, by `kind` (see `popup.ts`). Each draws its own UI
 * and answers once.
 */
import { ARM_DELAY_MS } from './approval.js'
import { drawCard, trapTab } from './card.js'
import type { ApprovalContent } from './describe.js'
import type { PopupTask } from './popup.js'

/** Runs one task; `answer` sends the result to the opener (and closes the window). */
export type PopupTaskRunner = (task: PopupTask, answer: (result: unknown) => void) => Promise<void>

/**
 * `approval`: the same card as in the frame. A top-level window cannot be covered by the host,
 * so only the short delay before Approve takes input remains.
 */
const approval: PopupTaskRunner = async (task, answer) => {
  const content = task.content as ApprovalContent
  document.title = `${content.title} — Porthole wallet`
  const view = drawCard(content, document.body)
  view.root.classList.add('pw-popup-overlay')
  let armed = false
  view.setArmed(false)
  setTimeout(() => {
    armed = true
    view.setArmed(true)
  }, ARM_DELAY_MS)
  view.reject.onclick = () => answer({ approved: false })
  view.approve.onclick = (event) => {
    if (armed && view.pressedSinceArmed(event) && !content.blocked && !content.dismissOnly)
      answer({ approved: true })
  }
  view.card.addEventListener('keydown', trapTab)
  // Focus on the card, not on Approve: a key the user was holding when the window opened, or a
  // press meant for the page below, lands on no button.
  ;(content.dismissOnly ? view.reject : view.card).focus()
}

/** Every task kind the popup knows. */
export const POPUP_TASKS: Record<string, PopupTaskRunner> = { approval }
