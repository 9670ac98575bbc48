/**
 * The catcher's HTML views: the inbox page at `/` and the sandboxed view of one message's
 * HTML body. Every mail-supplied string is escaped; the inbox shows text bodies only.
 */
import { createHash } from 'node:crypto'
import type { Message } from '../mailCatcher.ts'

/** Seconds between reloads of the inbox page. */
export const REFRESH_SECONDS = 5

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.4; }
body { margin: 0 auto; max-width: 60rem; padding: 1rem; }
header { display: flex; align-items: baseline; justify-content: space-between; gap: 1rem; }
h1 { font-size: 1.25rem; margin: 0 0 1rem; }
.hint, .meta { color: GrayText; font-size: 0.875rem; }
ol { list-style: none; margin: 0; padding: 0; }
article { border: 1px solid GrayText; border-radius: 0.5rem; margin: 0 0 1rem; padding: 0.75rem 1rem; }
h2 { font-size: 1rem; margin: 0 0 0.25rem; overflow-wrap: anywhere; }
.meta { display: flex; flex-wrap: wrap; gap: 0 1rem; margin: 0; }
.meta dt { font-weight: 600; }
.meta dd { margin: 0 0 0 0.25rem; overflow-wrap: anywhere; }
.meta div { display: flex; }
pre { font: inherit; white-space: pre-wrap; overflow-wrap: anywhere; margin: 0.5rem 0 0; }
`

const styleHash = createHash('sha256').update(STYLE).digest('base64')

/** Content-Security-Policy of the inbox page: no scripts, no fetches, only its own style. */
export const PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${styleHash}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * Content-Security-Policy of a message's HTML body: a sandbox (opaque origin, no scripts, no
 * forms), inline styles and `data:` images only, nothing fetched from the network.
 */
export const MESSAGE_HTML_CSP = [
  'sandbox',
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  'font-src data:',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

/**
 * `value` safe inside HTML text and quoted attribute values.
 *
 * @example
 * escapeHtml('<b title="x">') // '&lt;b title=&quot;x&quot;&gt;'
 */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? '',
  )
}

/**
 * The inbox page listing `messages` (already newest first): text bodies only, a link to each
 * HTML body's sandboxed view, reloaded every {@link REFRESH_SECONDS} seconds.
 *
 * @example
 * response.end(renderInbox(catcher.messages()))
 */
export function renderInbox(messages: readonly Message[]): string {
  const items = messages.map(
    (message) => `<li><article>
<h2>${escapeHtml(message.subject || '(no subject)')}</h2>
<dl class="meta">
<div><dt>To</dt><dd>${escapeHtml(message.to)}</dd></div>
<div><dt>From</dt><dd>${escapeHtml(message.from)}</dd></div>
<div><dt>Date</dt><dd><time datetime="${escapeHtml(message.date)}">${escapeHtml(message.date)}</time></dd></div>
${message.html ? `<div><dt>HTML</dt><dd><a href="/messages/${encodeURIComponent(message.id)}/html" target="_blank" rel="noopener noreferrer">open sandboxed</a></dd></div>` : ''}
</dl>
<pre>${escapeHtml(message.text || '(no text body)')}</pre>
</article></li>`,
  )
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${REFRESH_SECONDS}">
<title>Porthole mail (${messages.length})</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>Porthole mail</h1>
<p class="hint">${messages.length} ${messages.length === 1 ? 'message' : 'messages'}, newest first · refreshes every ${REFRESH_SECONDS} s · clear with <code>DELETE /messages</code></p>
</header>
<main>
${items.length ? `<ol>\n${items.join('\n')}\n</ol>` : '<p>No messages yet.</p>'}
</main>
</body>
</html>
`
}
