import nodemailer, { type SendMailOptions } from 'nodemailer'
import { describe, expect, test } from 'vitest'
import { decodeHeader, parseMail } from './mime.ts'

/** The raw message nodemailer would send over SMTP for `mail`. */
async function compose(mail: SendMailOptions): Promise<Buffer> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true })
  const info = await transport.sendMail({ from: 'sender@porthole.test', to: 'ada@x.test', ...mail })
  return info.message as Buffer
}

describe('parseMail', () => {
  test('reads the text and html alternatives nodemailer sends', async () => {
    const mail = parseMail(
      await compose({
        subject: 'Hi',
        text: 'Code: 123456\nBye',
        html: '<p>Code: <b>123456</b></p>',
      }),
    )
    expect(mail).toEqual({
      subject: 'Hi',
      from: 'sender@porthole.test',
      text: 'Code: 123456\nBye',
      html: '<p>Code: <b>123456</b></p>',
    })
  })

  test('decodes a long UTF-8 subject split over several encoded words', async () => {
    const subject = 'Ünïcödé — 验证码 🚀 '.repeat(6).trim()
    expect(parseMail(await compose({ subject, text: 'x' })).subject).toBe(subject)
  })

  test('decodes quoted-printable and base64 bodies', async () => {
    const text = `Grüße, ${'long line '.repeat(20)}= end\nsecond line  `
    const html = '<p>Grüße 🚀</p>'
    const qp = await compose({ text, html, textEncoding: 'quoted-printable' })
    expect(qp.toString('latin1')).toContain('Content-Transfer-Encoding: quoted-printable')
    expect(parseMail(qp)).toMatchObject({ text, html })
    const base64 = await compose({ text, html, textEncoding: 'base64' })
    expect(base64.toString('latin1')).toContain('Content-Transfer-Encoding: base64')
    expect(parseMail(base64)).toMatchObject({ text, html })
  })

  test('reads the From display name and skips attachments', async () => {
    const mail = parseMail(
      await compose({
        from: 'Jörg Porthole <no-reply@porthole.test>',
        text: 'body',
        html: '<p>body</p>',
        attachments: [
          { filename: 'a.txt', content: 'attached text', contentType: 'text/plain' },
          { filename: 'b.html', content: '<p>attached</p>', contentType: 'text/html' },
        ],
      }),
    )
    expect(mail).toMatchObject({
      from: 'Jörg Porthole <no-reply@porthole.test>',
      text: 'body',
      html: '<p>body</p>',
    })
  })

  test('reads a text-only message without its final line break', async () => {
    expect(parseMail(await compose({ text: 'only text' }))).toMatchObject({
      text: 'only text',
      html: '',
    })
  })

  test('decodes bodies in their declared charset', () => {
    const raw = Buffer.concat([
      Buffer.from('Subject: latin\r\nContent-Type: text/plain; charset="ISO-8859-1"\r\n\r\n'),
      Buffer.from([0x63, 0x61, 0x66, 0xe9]), // "café" in Latin-1
      Buffer.from('\r\n'),
    ])
    expect(parseMail(raw).text).toBe('café')
  })

  test('takes raw UTF-8 headers and folded lines', () => {
    const mail = parseMail('Subject: Grüße\r\n aus Berlin\r\n\r\nhi\r\n')
    expect(mail).toMatchObject({ subject: 'Grüße aus Berlin', text: 'hi', html: '' })
  })

  test('gives empty strings for a message without subject, sender or body', () => {
    expect(parseMail('X-Empty: 1\r\n\r\n')).toEqual({ subject: '', from: '', text: '', html: '' })
  })

  test('still reads a multipart message cut before its closing delimiter', () => {
    const raw = [
      'Content-Type: multipart/alternative; boundary=b1',
      '',
      'preamble',
      '--b1',
      'Content-Type: text/plain',
      '',
      'first',
      '--b1',
      'Content-Type: text/html',
      '',
      '<i>cut',
    ].join('\r\n')
    expect(parseMail(raw)).toMatchObject({ text: 'first', html: '<i>cut' })
  })
})

describe('decodeHeader', () => {
  test('joins adjacent encoded words and keeps plain text around them', () => {
    expect(decodeHeader('Re: =?UTF-8?B?Q2Fmw6k=?= =?UTF-8?Q?_ouvert?= (2)')).toBe(
      'Re: Café ouvert (2)',
    )
  })

  test('joins the bytes of a character split across two words', () => {
    // "é" is C3 A9; each word holds one byte of it.
    expect(decodeHeader('=?utf-8?Q?caf=C3?= =?utf-8?Q?=A9?=')).toBe('café')
  })

  test('decodes words in other charsets', () => {
    expect(decodeHeader('=?ISO-8859-1?Q?caf=E9?=')).toBe('café')
  })
})
