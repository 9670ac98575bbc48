/** Test helper: a real SMTP server in-process (smtp-server) that keeps every message. */
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

/** A received message. */
export type ReceivedMail = {
  to: string[]
  from: string
  subject: string
  /** The raw message with quoted-printable soft breaks and escapes undone. */
  body: string
  raw: string
}

/** A running SMTP server. */
export type TestSmtp = {
  /** `smtp://127.0.0.1:<port>` */
  url: string
  messages: ReceivedMail[]
  /** The newest message to `to` (waits up to 2 s for one to arrive). */
  last(to: string): Promise<ReceivedMail>
  /** The code in the newest code mail to `to`. */
  code(to: string): Promise<string>
  close(): Promise<void>
}

/**
 * Starts an SMTP server on a free loopback port (no TLS, no auth).
 *
 * @example
 * const smtp = await startTestSmtp()
 * const code = await smtp.code('ada@example.com')
 */
export async function startTestSmtp(): Promise<TestSmtp> {
  const messages: ReceivedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const headerEnd = raw.indexOf('\r\n\r\n')
        const headers = raw.slice(0, headerEnd).replace(/\r\n[ \t]+/g, ' ')
        messages.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          subject: /^Subject: (.*)$/im.exec(headers)?.[1] ?? '',
          body: raw
            .replace(/=\r\n/g, '')
            .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          raw,
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  const last = async (to: string) => {
    for (let i = 0; i < 40; i++) {
      const found = messages.findLast((message) => message.to.includes(to))
      if (found) return found
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`No mail to ${to}`)
  }
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    last,
    async code(to) {
      const code = /Your Porthole code (?:for \S+ )?is (\d{6})/.exec((await last(to)).subject)?.[1]
      if (!code) throw new Error(`The last mail to ${to} holds no code`)
      return code
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
