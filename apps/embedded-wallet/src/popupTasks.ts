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
  view.approve.onclick = () => {
    if (armed && !content.blocked && !content.dismissOnly) answer({ approved: true })
  }
  view.card.addEventListener('keydown', trapTab)
  ;(content.dismissOnly ? view.reject : view.approve).focus()
}

/** Every task kind the popup knows. */
export const POPUP_TASKS: Record<string, PopupTaskRunner> = { approval }
