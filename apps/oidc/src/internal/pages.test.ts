import { expect, test } from 'vitest'
import { defaultLoginValues, errorPage, escapeHtml, loginPage, loginTitle } from './pages.ts'

const base = {
  provider: 'github',
  action: '/github/interaction/abc',
  abortAction: '/github/interaction/abc/abort',
  clientId: 'porthole-github',
  redirectOrigins: ['http://127.0.0.1:4300', 'http://127.0.0.1:4300'],
  values: { email: 'a@example.com', name: 'A', username: 'a' },
} as const

test('escapes markup and quotes', () => {
  expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
    '&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;',
  )
})

test('prefills the e-mail from a login_hint that looks like an address', () => {
  expect(defaultLoginValues('google', 'ada@example.com').email).toBe('ada@example.com')
  expect(defaultLoginValues('google', 'not an address').email).toBe('dev@example.com')
  expect(defaultLoginValues('google', undefined).email).toBe('dev@example.com')
})

test('prefills a Discord username that ends with a digit', () => {
  expect(defaultLoginValues('discord').username).toMatch(/\d$/)
  expect(defaultLoginValues('github').username).toBe('dev-user')
})

test('titles the page after the provider', () => {
  expect(loginTitle('x')).toBe('Sign in with X (Porthole dev provider)')
  expect(loginPage({ ...base }).html).toContain(
    '<title>Sign in with GitHub (Porthole dev provider)</title>',
  )
})

test('puts Continue before Cancel so Enter continues', () => {
  const { html } = loginPage({ ...base })
  expect(html.indexOf('>Continue<')).toBeGreaterThan(0)
  expect(html.indexOf('>Continue<')).toBeLessThan(html.indexOf('>Cancel<'))
})

test('escapes typed values and the error message', () => {
  const { html } = loginPage({
    ...base,
    values: { email: '"><script>', name: 'A', username: 'a' },
    error: '<b>bad</b>',
  })
  expect(html).not.toContain('<script>')
  expect(html).not.toContain('<b>bad</b>')
  expect(html).toContain('<p role="alert">&#60;b&#62;bad&#60;/b&#62;</p>')
})

test('allows form submissions only to itself and the redirect origins', () => {
  const { headers } = loginPage({ ...base })
  expect(headers['content-security-policy']).toContain("form-action 'self' http://127.0.0.1:4300;")
  expect(errorPage({ error: 'x' }).headers['content-security-policy']).toContain(
    "form-action 'self';",
  )
})

test('the inline stylesheet matches the hash the CSP allows', async () => {
  const { createHash } = await import('node:crypto')
  const { html, headers } = loginPage({ ...base })
  const style = html.match(/<style>([^<]*)<\/style>/)?.[1] ?? ''
  const hash = createHash('sha256').update(style).digest('base64')
  expect(headers['content-security-policy']).toContain(`style-src 'sha256-${hash}'`)
})
