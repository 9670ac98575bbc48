/**
 * The wallet's popup window (a top-level page on the wallet origin the host cannot style): it
 * tells `window.opener` it is ready (this origin as the only target), takes its task only from
 * that window and this origin, with a MessagePort for the answer, and draws the task.
 */
import { t } from './i18n/en.js'
import { loadLocale, localeOf } from './i18n/locales.js'
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

if (!opener) say(t('popupNoOpener'))
else {
  addEventListener('message', (event: MessageEvent) => {
    if (event.source !== opener || event.origin !== origin) return
    const data = event.data as {
      type?: unknown
      task?: PopupTask
      theme?: Record<string, string>
      locale?: unknown
    }
    const port = event.ports[0]
    if (data?.type !== POPUP_MESSAGES.TASK || !port || !data.task) return
    const theme = data.theme ?? {}
    document.documentElement.dataset.theme = theme.mode === 'light' ? 'light' : 'dark'
    for (const [key, value] of Object.entries(theme))
      if (/^--ph-[a-z0-9-]+$/.test(key)) document.documentElement.style.setProperty(key, value)
    const task = data.task
    const run = POPUP_TASKS[task.kind]
    // The opener's language (a chunk that cannot be fetched leaves the window in English).
    void loadLocale(localeOf(data.locale))
      .catch(() => {})
      .then(() => {
        if (!run) return say(t('popupUnknownTask'))
        return run(task, (answer) => {
          port.postMessage(answer)
          close()
        })
      })
      .catch((error: unknown) => say((error as Error).message))
  })
  opener.postMessage(POPUP_MESSAGES.READY, origin)
}
