import { describe, expect, test } from 'vitest'
import { codeMail, deviceMail, escapeHtml, smtpOptions } from './mailer.js'

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
  test('the code is in the subject and both bodies; the link is escaped in HTML', () => {
    const mail = codeMail({ to: 'a@b.test', code: '042917' })
    expect(mail.subject).toBe('Your Porthole code is 042917')
    expect(mail.text).toContain('042917')
    expect(mail.html).toContain('042917')
    const link = 'http://api.test/auth/v1/device/approve?token=t&projectId=p'
    const device = deviceMail({ to: 'a@b.test', link })
    expect(device.text).toContain(link)
    expect(device.html).toContain(escapeHtml(link))
    expect(escapeHtml(`<a href="x">'&`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;')
  })
})
