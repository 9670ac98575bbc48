/**
 * The wallet's popup window (a top-level page on the wallet origin the host cannot style): it
 * tells `window.opener` it is ready (this origin as the only target), takes its task only from
 * that window and this origin, with a MessagePort for the answer, and draws the task.
 */
import { POPUP_MESSAGES, type PopupTask } from './popup.js'
import { POPUP_TASKS } from './popupTasks.js'
import './styles.css'

const origin = location.origin
const opener = window.opener as Window | null

function say(text: string): void {
  const note = document.createElement('p')
  note.className = 'pw-popup-note'
  note.textContent = text
  document.body.replaceChildren(note)
}

if (!opener)
  say('This window belongs to the Porthole wallet. Close it and start again on the site.')
else {
  addEventListener('message', (event: MessageEvent) => {
    if (event.source !== opener || event.origin !== origin) return
    const data = event.data as { type?: unknown; task?: PopupTask; theme?: Record<string, string> }
    const port = event.ports[0]
    if (data?.type !== POPUP_MESSAGES.TASK || !port || !data.task) return
    const theme = data.theme ?? {}
    document.documentElement.dataset.theme = theme.mode === 'light' ? 'light' : 'dark'
    for (const [key, value] of Object.entries(theme))
      if (/^--ph-[a-z0-9-]+$/.test(key)) document.documentElement.style.setProperty(key, value)
    const run = POPUP_TASKS[data.task.kind]
    if (!run) return say('This wallet window cannot do that.')
    run(data.task, (answer) => {
      port.postMessage(answer)
      close()
    }).catch((error: unknown) => say((error as Error).message))
  })
  opener.postMessage(POPUP_MESSAGES.READY, origin)
}
