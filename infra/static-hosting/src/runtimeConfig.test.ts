import { expect, test } from 'vitest'
import { escapeHtmlAttribute, injectRuntimeConfig } from './runtimeConfig.ts'

const config = {
  apiUrl: 'http://127.0.0.1:4300',
  walletUrl: 'http://127.0.0.1:4200',
  modalUrl: 'http://127.0.0.1:4100',
  relayUrl: 'ws://127.0.0.1:4400',
  recoveryUrl: 'http://127.0.0.1:4700',
}

test('replaces the placeholder with attribute-escaped JSON that parses back', () => {
  const html = injectRuntimeConfig(
    '<meta name="porthole-config" content="__PORTHOLE_CONFIG__">',
    config,
  )
  const content = /content="([^"]*)"/.exec(html)?.[1] ?? ''
  expect(content).not.toContain('"')
  const decoded = content
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
  expect(JSON.parse(decoded)).toEqual(config)
})

test('the WalletConnect Cloud project id is written only when set', () => {
  const read = (html: string) =>
    JSON.parse((/content="([^"]*)"/.exec(html)?.[1] ?? '').replaceAll('&quot;', '"'))
  const meta = '<meta content="__PORTHOLE_CONFIG__">'
  expect(read(injectRuntimeConfig(meta, config))).not.toHaveProperty('walletConnectProjectId')
  expect(
    read(injectRuntimeConfig(meta, { ...config, walletConnectProjectId: 'f00d'.repeat(8) })),
  ).toMatchObject({ walletConnectProjectId: 'f00d'.repeat(8) })
})

test('a hostile value cannot leave the attribute', () => {
  const html = injectRuntimeConfig('<meta content="__PORTHOLE_CONFIG__">', {
    ...config,
    apiUrl: `x"><script>alert(1)</script>&'`,
  })
  expect(html).not.toMatch(/<script|"><|'/)
  expect(html).toContain('x\\&quot;&gt;&lt;script&gt;')
  expect(escapeHtmlAttribute(`&"'<>`)).toBe('&amp;&quot;&#39;&lt;&gt;')
})

test('special replacement patterns in values are inserted literally', () => {
  const html = injectRuntimeConfig('__PORTHOLE_CONFIG__', { ...config, apiUrl: "$&$'$`" })
  expect(html).toContain('$&amp;$&#39;$`')
})
