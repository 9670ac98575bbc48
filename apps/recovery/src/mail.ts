/**
 * The recovery service's own mail: the device-approval link and the notice of each recovery.
 * It goes out through this service's SMTP server, never the API's, so the API never sees a link.
 */
import nodemailer from 'nodemailer'
import { escapeHtml } from './pages.js'

/** One message. */
export type MailMessage = { to: string; subject: string; text: string; html: string }

/** Sends mail. */
export type Mailer = { send(message: MailMessage): Promise<void> }

/**
 * An SMTP mailer from a URL: `smtp://host:port` (STARTTLS when offered; add `?requireTLS=true` to
 * refuse a server without it) or `smtps://user:pass@host:465` (TLS).
 *
 * @example
 * const mailer = createMailer('smtp://127.0.0.1:2525', 'Porthole <no-reply@porthole.local>')
 */
export function createMailer(smtpUrl: string, from: string): Mailer {
  const url = new URL(smtpUrl)
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`Unsupported SMTP URL scheme: ${url.protocol} (use smtp:// or smtps://)`)
  const transport = nodemailer.createTransport({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    requireTLS: url.searchParams.get('requireTLS') === 'true',
    ...(url.username
      ? {
          auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
        }
      : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  })
  return {
    async send(message) {
      await transport.sendMail({ from, ...message })
    },
  }
}

/** What the mails name about the request. */
export type RequestDetails = { site: string; device: string; ip: string; time: number }

function render(to: string, subject: string, lines: string[], link?: string): MailMessage {
  const html = lines
    .map((line) => (line ? `<p>${escapeHtml(line)}</p>` : ''))
    .join('')
    .concat(link ? `<p><a href="${escapeHtml(link)}">Review the request</a></p>` : '')
  return {
    to,
    subject,
    text: `${[...lines, ...(link ? ['', link] : [])].join('\n')}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:15px;color:#111">${html}</body></html>`,
  }
}

const details = ({ site, device, ip, time }: RequestDetails) => [
  `Site: ${site}`,
  `Device: ${device}`,
  `IP address: ${ip}`,
  `Time: ${new Date(time).toUTCString()}`,
]

/**
 * The device-approval mail: who asks, and the link to a page where the owner approves or denies.
 *
 * @example
 * approvalMail('ada@example.com', link, { site, device, ip, time: Date.now() })
 */
export function approvalMail(to: string, link: string, request: RequestDetails): MailMessage {
  return render(
    to,
    'Approve a new device for your Porthole wallet',
    [
      'A device asks to set up your Porthole wallet:',
      '',
      ...details(request),
      '',
      'To approve or deny it, open this link (valid for 15 minutes) and choose:',
      link,
      '',
      'If this was not you, ignore this mail: nobody can use your wallet on a new device without this approval.',
    ],
    link,
  )
}

/**
 * The notice of a recovery: the recovery share was released to a new device.
 *
 * @example
 * recoveredMail('ada@example.com', { site, device, ip, time: Date.now() })
 */
export function recoveredMail(to: string, request: RequestDetails): MailMessage {
  return render(to, 'Your Porthole wallet was recovered on a new device', [
    'The recovery share of your Porthole wallet was just released to a new device:',
    '',
    ...details(request),
    '',
    'If this was not you, sign in and move your funds to a new wallet.',
  ])
}
