import { describe, expect, test } from 'vitest'
import { codeMail, escapeHtml, smtpOptions, walletNoticeMail } from './mailer.js'

describe('smtpOptions', () => {
  test('reads host, port, credentials and TLS mode from the URL', () => {
    expect(smtpOptions('smtp://127.0.0.1:2525')).toMatchObject({
      host: '127.0.0.1',
      port: 2525,
      secure: false,
      tls: { rejectUnauthorized: false },
    })
    const remote = smtpOptions('smtps://us%40er:p%3Ass@mail.example')
    expect(remote).toMatchObject({
      host: 'mail.example',
      port: 465,
      secure: true,
      auth: { user: 'us@er', pass: 'p:ss' },
    })
    expect(remote).not.toHaveProperty('tls')
    expect(smtpOptions('smtp://mail.example').port).toBe(587)
    expect(() => smtpOptions('http://mail.example')).toThrow(/smtp/)
  })
})

describe('mail templates', () => {
  test('the code is in the subject and both bodies', () => {
    const mail = codeMail({ to: 'a@b.test', code: '042917' })
    expect(mail.subject).toBe('Your Porthole code is 042917')
    expect(mail.text).toContain('042917')
    expect(mail.html).toContain('042917')
    expect(escapeHtml(`<a href="x">'&`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;')
  })

  test('a login code names the site and project, escaped in the HTML', () => {
    const mail = codeMail({
      to: 'a@b.test',
      code: '042917',
      login: { site: 'https://app.example', project: 'Shop <b>&</b>' },
    })
    expect(mail.subject).toBe('Your Porthole code for app.example is 042917')
    expect(mail.text).toMatch(/^https:\/\/app\.example \(Shop <b>&<\/b>\) asked for this code/)
    expect(mail.text).toContain('Enter it only on https://app.example.')
    expect(mail.html).toContain('Shop &lt;b&gt;&amp;&lt;/b&gt;')
    expect(mail.html).not.toContain('<b>&</b>')
  })

  test('the custody notices name the site, device and IP, escaped in HTML', () => {
    const base = {
      to: 'a@b.test',
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      site: 'https://shop.example/<x>',
      device: 'Chrome 156 on Linux',
      ip: '203.0.113.9',
      recovery: 'passkey',
    } as const
    const device = walletNoticeMail({ ...base, event: 'new-device' })
    expect(device.subject).toBe('Your Porthole wallet was set up on a new device')
    for (const part of [
      'https://shop.example/<x>',
      'Chrome 156 on Linux',
      '203.0.113.9',
      'passkey',
    ])
      expect(device.text).toContain(part)
    expect(device.html).toContain('https://shop.example/&lt;x&gt;')
    expect(device.html).not.toContain('<x>')
    const changed = walletNoticeMail({ ...base, event: 'recovery-changed', site: null })
    expect(changed.subject).toBe('The recovery of your Porthole wallet changed')
    expect(changed.text).toContain('Site: not given')
  })
})
