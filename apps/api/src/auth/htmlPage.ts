import { createHash } from 'node:crypto'
import { escapeHtml } from './mailer.js'

const STYLE =
  'body{font-family:system-ui,sans-serif;background:#f4f4f5;color:#18181b;display:grid;place-items:center;min-height:100vh;margin:0}main{background:#fff;border-radius:16px;padding:32px;max-width:420px;box-shadow:0 1px 3px #0002;text-align:center}h1{font-size:20px;margin:0 0 12px}p{margin:0;line-height:1.5}'

/** The page's Content-Security-Policy: nothing but its own inline style (by hash). */
export const HTML_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`

/**
 * A small standalone HTML page (the device-approval answer), served with {@link HTML_PAGE_CSP}.
 *
 * @example
 * c.html(htmlPage('Device approved', 'Return to the app …'), 200, { 'Content-Security-Policy': HTML_PAGE_CSP })
 */
export function htmlPage(title: string, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)} · Porthole</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></main></body></html>`
}
