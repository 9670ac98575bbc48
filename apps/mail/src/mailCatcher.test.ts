import { request as httpRequest } from 'node:http'
import { createServer } from 'node:net'
import nodemailer, { type SendMailOptions } from 'nodemailer'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import {
  MailCatcherPortInUseError,
  type Message,
  type StartMailCatcherReturnType,
  startMailCatcher,
} from './mailCatcher.ts'

let catcher: StartMailCatcherReturnType

beforeEach(async () => {
  catcher = await startMailCatcher({ httpPort: 0, smtpPort: 0 })
})
afterEach(() => catcher.close())

function send(mail: SendMailOptions, smtpUrl = catcher.smtpUrl) {
  return nodemailer.createTransport(smtpUrl).sendMail({ from: 'no-reply@porthole.test', ...mail })
}

async function getJson<T>(path: string): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await fetch(`${catcher.httpUrl}${path}`)
  return { status: response.status, body: (await response.json()) as T, headers: response.headers }
}

describe('SMTP to JSON', () => {
  test('serves the text and html bodies, sender and date of a sent mail', async () => {
    const before = Date.now()
    await send({
      from: 'Porthole <no-reply@porthole.test>',
      to: 'ada@example.com',
      subject: 'Your code',
      text: 'Your code is 123456',
      html: '<p>Your code is <b>123456</b></p>',
    })
    const { status, body, headers } = await getJson<Message[]>('/messages')
    expect(status).toBe(200)
    expect(headers.get('cache-control')).toBe('no-store')
    expect(headers.get('content-type')).toMatch(/^application\/json/)
    expect(body).toEqual([
      {
        id: expect.any(String),
        to: 'ada@example.com',
        from: 'Porthole <no-reply@porthole.test>',
        subject: 'Your code',
        text: 'Your code is 123456',
        html: '<p>Your code is <b>123456</b></p>',
        date: expect.any(String),
      },
    ])
    const date = Date.parse(body[0]!.date)
    expect(new Date(date).toISOString()).toBe(body[0]!.date)
    expect(date).toBeGreaterThanOrEqual(before - 1000)
    expect(date).toBeLessThanOrEqual(Date.now())
  })

  test('decodes a UTF-8 subject and a quoted-printable body', async () => {
    const subject = 'Bestätigen Sie Ihr Gerät — 验证码 🚀'
    const text = `Grüße! ${'Ein sehr langer Satz. '.repeat(8)}\nCode = 123456`
    await send({ to: 'jörg@example.com', subject, text, textEncoding: 'quoted-printable' })
    const [mail] = catcher.messages()
    expect(mail).toMatchObject({ to: 'jörg@example.com', subject, text, html: '' })
  })

  test('lists a mail to several recipients under each, Bcc included', async () => {
    await send({
      to: ['ada@example.com', 'bob@example.com'],
      bcc: 'carol@example.com',
      subject: 'Hello all',
      text: 'hi',
    })
    const all = catcher.messages()
    expect(all.map((message) => message.to).sort()).toEqual([
      'ada@example.com',
      'bob@example.com',
      'carol@example.com',
    ])
    expect(new Set(all.map((message) => message.id)).size).toBe(3)
    for (const to of ['ada@example.com', 'bob@example.com', 'carol@example.com']) {
      const { body } = await getJson<Message[]>(`/messages?to=${encodeURIComponent(to)}`)
      expect(body).toHaveLength(1)
      expect(body[0]).toMatchObject({ to, subject: 'Hello all' })
    }
  })

  test('lists messages newest first', async () => {
    for (const subject of ['first', 'second', 'third'])
      await send({ to: 'ada@example.com', subject, text: subject })
    const { body } = await getJson<Message[]>('/messages')
    expect(body.map((message) => message.subject)).toEqual(['third', 'second', 'first'])
    expect(catcher.messages().map((message) => message.subject)).toEqual([
      'third',
      'second',
      'first',
    ])
  })

  test('filters by recipient case-insensitively and by exact address', async () => {
    await send({ to: 'Ada@Example.com', subject: 'for ada', text: 'a' })
    await send({ to: 'bob@example.com', subject: 'for bob', text: 'b' })
    await send({ to: 'ada@example.com.evil', subject: 'lookalike', text: 'c' })
    const { body } = await getJson<Message[]>('/messages?to=ADA%40example.COM')
    expect(body.map((message) => message.subject)).toEqual(['for ada'])
    // The recipient is listed as sent (nodemailer lower-cases only the domain).
    expect(body[0]?.to).toBe('Ada@example.com')
    expect(catcher.messages({ to: 'ada@EXAMPLE.com' }).map((message) => message.subject)).toEqual([
      'for ada',
    ])
    expect((await getJson<Message[]>('/messages?to=nobody%40example.com')).body).toEqual([])
    expect((await getJson<Message[]>('/messages')).body).toHaveLength(3)
  })

  test('serves one message by id and a JSON 404 for an unknown id', async () => {
    await send({ to: 'ada@example.com', subject: 'one', text: 'x' })
    const [mail] = catcher.messages()
    const found = await getJson<Message>(`/messages/${mail!.id}`)
    expect(found.status).toBe(200)
    expect(found.body).toEqual(mail)
    const missing = await getJson<{ error: string }>('/messages/no-such-id')
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ error: 'Message not found' })
    expect(missing.headers.get('cache-control')).toBe('no-store')
    expect((await getJson<{ error: string }>('/nowhere')).status).toBe(404)
  })

  test('DELETE /messages and clear() forget every message', async () => {
    await send({ to: 'ada@example.com', subject: 'one', text: 'x' })
    const response = await fetch(`${catcher.httpUrl}/messages`, { method: 'DELETE' })
    expect(response.status).toBe(204)
    expect((await getJson<Message[]>('/messages')).body).toEqual([])

    await send({ to: 'ada@example.com', subject: 'two', text: 'x' })
    expect(catcher.messages()).toHaveLength(1)
    catcher.clear()
    expect(catcher.messages()).toEqual([])
  })

  test('answers 405 to other methods', async () => {
    const response = await fetch(`${catcher.httpUrl}/messages`, { method: 'POST' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, DELETE')
  })

  test('reports health', async () => {
    const { status, body } = await getJson('/health')
    expect(status).toBe(200)
    expect(body).toEqual({ ok: true })
  })
})

/** A real HTTP request with any `Host` header, as a DNS-rebinding page's browser sends it. */
function requestWithHost(
  url: string,
  host: string,
  method = 'GET',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { host } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        body += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('DNS rebinding', () => {
  const port = () => new URL(catcher.httpUrl).port

  test('a page whose name was rebound to loopback reads no code: 421 for a foreign Host', async () => {
    await send({ to: 'ada@example.com', subject: 'Your code', text: 'Your code is 424242' })
    const [mail] = catcher.messages()
    for (const host of [`evil.example:${port()}`, 'attacker.test', `attacker.test:${port()}`])
      for (const path of [
        '/messages',
        '/messages?to=ada%40example.com',
        `/messages/${mail!.id}`,
        `/messages/${mail!.id}/html`,
        '/',
        '/health',
      ]) {
        const response = await requestWithHost(`${catcher.httpUrl}${path}`, host)
        expect(response.status, `${host} ${path}`).toBe(421)
        expect(response.body, `${host} ${path}`).not.toContain('424242')
        expect(response.body).not.toContain('ada@example.com')
      }
  })

  test('a foreign Host cannot delete the messages either', async () => {
    await send({ to: 'ada@example.com', subject: 'keep me', text: 'x' })
    const response = await requestWithHost(
      `${catcher.httpUrl}/messages`,
      `evil.example:${port()}`,
      'DELETE',
    )
    expect(response.status).toBe(421)
    expect(catcher.messages()).toHaveLength(1)
  })

  test('the loopback names on its port are answered', async () => {
    await send({ to: 'ada@example.com', subject: 'Your code', text: 'Your code is 424242' })
    for (const host of [`127.0.0.1:${port()}`, `localhost:${port()}`, `[::1]:${port()}`]) {
      const response = await requestWithHost(`${catcher.httpUrl}/messages`, host)
      expect(response.status, host).toBe(200)
      expect(response.body).toContain('424242')
    }
    expect((await requestWithHost(`${catcher.httpUrl}/messages`, 'localhost:1')).status).toBe(421)
  })

  test('extraHosts adds the names it is served under', async () => {
    const named = await startMailCatcher({
      httpPort: 0,
      smtpPort: 0,
      extraHosts: ['mail.internal:8025'],
    })
    try {
      const url = `${named.httpUrl}/health`
      expect((await requestWithHost(url, 'mail.internal:8025')).status).toBe(200)
      expect((await requestWithHost(url, 'mail.internal.evil.example:8025')).status).toBe(421)
    } finally {
      await named.close()
    }
  })
})

describe('limits', () => {
  test('drops the oldest messages past maxMessages, counting each recipient', async () => {
    const small = await startMailCatcher({ httpPort: 0, smtpPort: 0, maxMessages: 3 })
    try {
      for (const subject of ['1', '2', '3', '4'])
        await send({ to: 'ada@example.com', subject, text: subject }, small.smtpUrl)
      expect(small.messages().map((message) => message.subject)).toEqual(['4', '3', '2'])
      await send({ to: ['a@example.com', 'b@example.com'], subject: '5', text: '5' }, small.smtpUrl)
      expect(small.messages().map((message) => message.subject)).toEqual(['5', '5', '4'])
    } finally {
      await small.close()
    }
  })

  test('rejects a message above the size limit', async () => {
    const small = await startMailCatcher({ httpPort: 0, smtpPort: 0, maxMessageBytes: 1024 })
    try {
      await expect(
        send({ to: 'ada@example.com', text: 'x'.repeat(4096) }, small.smtpUrl),
      ).rejects.toThrow()
      expect(small.messages()).toEqual([])
    } finally {
      await small.close()
    }
  })

  test('rejects with MailCatcherPortInUseError when a port is taken', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const { port } = blocker.address() as { port: number }
    try {
      await expect(startMailCatcher({ httpPort: 0, smtpPort: port })).rejects.toBeInstanceOf(
        MailCatcherPortInUseError,
      )
      await expect(startMailCatcher({ httpPort: port, smtpPort: 0 })).rejects.toThrow(
        `http://127.0.0.1:${port} is already in use`,
      )
    } finally {
      await new Promise((resolve) => blocker.close(resolve))
    }
  })

  test('close() is idempotent and frees both ports', async () => {
    const other = await startMailCatcher({ httpPort: 0, smtpPort: 0 })
    await Promise.all([other.close(), other.close()])
    await expect(fetch(`${other.httpUrl}/health`)).rejects.toThrow()
    await expect(send({ to: 'a@example.com', text: 'x' }, other.smtpUrl)).rejects.toThrow()
  })
})

describe('inbox page', () => {
  test('escapes a <script> subject and serves a strict CSP', async () => {
    await send({
      to: 'ada@example.com',
      subject: '<script>alert("x")</script>',
      text: 'body <img src=x onerror=alert(1)>',
      html: '<script>alert(2)</script>',
    })
    const response = await fetch(`${catcher.httpUrl}/`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).not.toContain('script-src')
    const page = await response.text()
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;')
    expect(page).toContain('body &lt;img src=x onerror=alert(1)&gt;')
    expect(page).not.toContain('<script')
    expect(page).not.toContain('<img')
    expect(page).toMatch(/<meta http-equiv="refresh" content="\d+">/)
  })

  test('lists messages newest first with recipient and date', async () => {
    await send({ to: 'ada@example.com', subject: 'older', text: 'x' })
    await send({ to: 'bob@example.com', subject: 'newer', text: 'y' })
    const page = await (await fetch(`${catcher.httpUrl}/`)).text()
    expect(page.indexOf('newer')).toBeLessThan(page.indexOf('older'))
    expect(page).toContain('bob@example.com')
    expect(page).toContain(catcher.messages()[0]!.date)
  })

  test('serves a message HTML body only under a sandboxing CSP', async () => {
    await send({ to: 'ada@example.com', text: 'x', html: '<p>hi</p><script>alert(1)</script>' })
    const [mail] = catcher.messages()
    const response = await fetch(`${catcher.httpUrl}/messages/${mail!.id}/html`)
    expect(response.status).toBe(200)
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp.split(';')[0]).toBe('sandbox')
    expect(csp).toContain("default-src 'none'")
    expect(await response.text()).toBe('<p>hi</p><script>alert(1)</script>')
  })
})
