/** The recovery service's HTML pages (the device-approval link): no script, escaped text. */

/** The CSP of every page: nothing loads, forms post only here, never framed. */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

/**
 * Escapes text for HTML content and attribute values.
 *
 * @example
 * escapeHtml('<b>') // '&lt;b&gt;'
 */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;color:#141414;background:#f4f4f5;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border-radius:16px;padding:28px;max-width:420px;box-shadow:0 8px 30px #0001}
h1{font-size:20px;margin:0 0 12px}dl{display:grid;grid-template-columns:auto 1fr;gap:6px 14px;margin:16px 0}
dt{color:#6b6b6b}dd{margin:0;overflow-wrap:anywhere}form{display:flex;gap:10px;margin-top:20px}
button{flex:1;font:inherit;font-weight:600;padding:12px;border-radius:12px;border:0;cursor:pointer}
.approve{background:#3b82f6;color:#fff}.deny{background:#ececec;color:#141414}p.note{color:#6b6b6b;font-size:13px}`

/**
 * A page with a title and paragraphs.
 *
 * @example
 * page('Link expired', ['This link is invalid, expired or already used.'])
 */
export function page(title: string, paragraphs: string[], extra = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}${extra}</main></body></html>`
}

/** What the approval page shows about the request. */
export type ApprovalDetails = {
  email: string
  site: string
  device: string
  ip: string
  createdAt: number
  token: string
}

/**
 * The approval page: who asked (site, browser and system, IP, time) and Approve / Deny, a form
 * that POSTs back here — opening the link approves nothing.
 *
 * @example
 * approvalPage({ email, site, device, ip, createdAt, token })
 */
export function approvalPage(details: ApprovalDetails): string {
  const rows: [string, string][] = [
    ['Wallet', details.email],
    ['Site', details.site],
    ['Device', details.device],
    ['IP address', details.ip],
    ['Time', new Date(details.createdAt).toUTCString()],
  ]
  const list = `<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`
  const form = `<form method="post"><input type="hidden" name="token" value="${escapeHtml(details.token)}"><button class="deny" name="decision" value="deny">Deny</button><button class="approve" name="decision" value="approve">Approve</button></form>`
  return page(
    'Approve a new device?',
    ['A device asks to set up your Porthole wallet. Approve only if it is yours, now.'],
    `${list}${form}<p class="note">Nobody can use your wallet on a new device without this approval.</p>`,
  )
}
