import { createHash } from 'node:crypto'
import { PROVIDER_NAMES, type SocialProvider } from '../providers.ts'

/** What the login form holds. */
export type LoginValues = { email: string; name: string; username: string }

/** A rendered page and the headers it must be served with. */
export type Page = { html: string; headers: Record<string, string> }

/** The value each field of the login form is prefilled with. */
export function defaultLoginValues(provider: SocialProvider, loginHint?: unknown): LoginValues {
  const hint = typeof loginHint === 'string' && EMAIL.test(loginHint.trim()) ? loginHint.trim() : ''
  return {
    email: hint || 'dev@example.com',
    name: 'Dev User',
    username: DEFAULT_USERNAMES[provider],
  }
}

// Each provider's usual username shape; Discord's ends with the digit its migrated
// usernames carry, so the modal's trimming of a trailing '0' is exercised.
const DEFAULT_USERNAMES: Record<SocialProvider, string> = {
  google: 'devuser',
  github: 'dev-user',
  apple: 'devuser',
  facebook: 'dev.user',
  x: 'dev_user',
  discord: 'dev_user0',
}

/** A deliberately loose address check: something, an @, something. */
export const EMAIL = /^[^\s@]+@[^\s@]+$/

/** Field limits, enforced by the form and again on submission. */
export const MAX_LENGTH = { email: 254, name: 100, username: 64 } as const

const STYLE = [
  ':root{color-scheme:light dark;font-family:system-ui,sans-serif}',
  'body{margin:0;display:grid;place-items:center;min-height:100vh;background:Canvas;color:CanvasText}',
  'main{width:min(22rem,calc(100vw - 2rem));padding:1.5rem;border:1px solid GrayText;border-radius:.75rem}',
  'h1{font-size:1.15rem;margin:0 0 .5rem}',
  'p{margin:0 0 1rem;font-size:.9rem;color:GrayText}',
  'label{display:block;font-size:.85rem;margin:.75rem 0 .25rem}',
  'input{box-sizing:border-box;width:100%;padding:.5rem;font:inherit}',
  '.actions{display:flex;flex-direction:row-reverse;gap:.5rem;margin-top:1.25rem}',
  'button{flex:1;padding:.55rem;font:inherit;cursor:pointer}',
  '[role=alert]{color:#b3261e;font-size:.9rem;margin:.75rem 0 0}',
].join('')

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`

/** Headers of every page: no scripts, no external assets, no framing, no caching. */
function pageHeaders(formTargets: readonly string[] = []): Record<string, string> {
  const formAction = formTargets.length > 0 ? `'self' ${formTargets.join(' ')}` : `'self'`
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': [
      "default-src 'none'",
      `style-src ${STYLE_HASH}`,
      `form-action ${formAction}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  }
}

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${(char.codePointAt(0) as number).toString(10)};`)
}

/** The title of a provider's login page. */
export function loginTitle(provider: SocialProvider): string {
  return `Sign in with ${PROVIDER_NAMES[provider]} (Porthole dev provider)`
}

/**
 * The login page: e-mail, display name and username, Continue and Cancel. `redirectOrigins`
 * (of the client's redirect URIs) join `form-action` because browsers check that directive on the redirects that follow a
 * form submission, and this one ends at the client's redirect URI. Continue comes first in
 * the form so that Enter submits it; the stylesheet shows Cancel on its left.
 */
export function loginPage(options: {
  provider: SocialProvider
  action: string
  abortAction: string
  clientId: string
  redirectOrigins: readonly string[]
  values: LoginValues
  error?: string
}): Page {
  const { provider, action, abortAction, clientId, values, error } = options
  const title = loginTitle(provider)
  const field = (id: keyof LoginValues, label: string, type: string, extra = '') =>
    `<label for="${id}">${label}</label>` +
    `<input id="${id}" name="${id}" type="${type}" value="${escapeHtml(values[id])}" maxlength="${MAX_LENGTH[id]}"${extra}>`
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>A local stand-in for ${escapeHtml(PROVIDER_NAMES[provider])}: no password is checked. ${escapeHtml(clientId)} will receive your e-mail address and profile.</p>
<form method="post" action="${escapeHtml(action)}">
${field('email', 'E-mail', 'email', ' required autocomplete="email"')}
${field('name', 'Display name', 'text', ' autocomplete="name"')}
${field('username', 'Username', 'text', ' autocomplete="username"')}
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<div class="actions">
<button type="submit">Continue</button>
<button type="submit" formaction="${escapeHtml(abortAction)}" formnovalidate>Cancel</button>
</div>
</form>
</main>
</body>
</html>
`
  return {
    html,
    headers: pageHeaders([...new Set(options.redirectOrigins)]),
  }
}

/** The page shown when a request cannot go back to the client, e.g. a bad `redirect_uri`. */
export function errorPage(options: { error: string; description?: string | undefined }): Page {
  const title = 'Sign-in failed (Porthole dev provider)'
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${title}</h1>
<p role="alert"><strong>${escapeHtml(options.error)}</strong>${options.description ? `: ${escapeHtml(options.description)}` : ''}</p>
</main>
</body>
</html>
`
  return { html, headers: pageHeaders() }
}
