/**
 * The approval card the wallet frame shows itself for every not-safe request (DESIGN §4):
 * the host and the modal never draw what the user signs. Built with plain DOM and
 * `textContent`, so nothing from the request is ever parsed as HTML.
 */

/** One labelled field of the card. */
export type ApprovalField = { label: string; value: string; mono?: boolean }

/** What the card shows. */
export type ApprovalContent = {
  title: string
  origin: string
  fields: ApprovalField[]
  /** Long content (a message, typed data), shown scrollable. */
  body?: string
}

let current: { reject: (error: unknown) => void; root: HTMLElement } | undefined

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
 * Shows the card and resolves true (Approve) or false (Reject). `signal` aborts it.
 *
 * @example
 * const approved = await requestApproval({ title: 'Sign message', origin, fields, body })
 */
export function requestApproval(content: ApprovalContent, signal?: AbortSignal): Promise<boolean> {
  dismiss(new Error('Superseded'))
  return new Promise((resolve, fail) => {
    const root = element('div', 'pw-overlay')
    const card = element('div', 'pw-card')
    card.setAttribute('role', 'dialog')
    card.setAttribute('aria-modal', 'true')
    card.setAttribute('aria-labelledby', 'pw-title')
    const title = element('h2', 'pw-title', content.title)
    title.id = 'pw-title'
    card.append(title, element('p', 'pw-origin', content.origin))
    const list = element('dl', 'pw-fields')
    for (const field of content.fields) {
      list.append(
        element('dt', '', field.label),
        element('dd', field.mono ? 'pw-mono' : '', field.value),
      )
    }
    card.append(list)
    if (content.body !== undefined) {
      const body = element('pre', 'pw-body', content.body)
      body.tabIndex = 0
      body.setAttribute('aria-label', 'Content to sign')
      card.append(body)
    }
    const actions = element('div', 'pw-actions')
    const rejectButton = element('button', 'pw-button pw-secondary', 'Reject')
    const approve = element('button', 'pw-button', 'Approve')
    rejectButton.type = approve.type = 'button'
    actions.append(rejectButton, approve)
    card.append(actions)
    root.append(card)
    document.body.append(root)
    const finish = (approved: boolean) => {
      root.remove()
      current = undefined
      resolve(approved)
    }
    rejectButton.onclick = () => finish(false)
    approve.onclick = () => finish(true)
    root.onkeydown = (event) => {
      if (event.key === 'Escape') finish(false)
    }
    current = {
      root,
      reject: (error) => {
        root.remove()
        current = undefined
        fail(error)
      },
    }
    signal?.addEventListener(
      'abort',
      () => current?.root === root && current.reject(signal.reason),
      {
        once: true,
      },
    )
    approve.focus()
  })
}

/** Removes a card that is showing, rejecting its promise with `error`. */
export function dismiss(error: unknown): void {
  current?.reject(error)
}
