/**
 * Login mail over SMTP (nodemailer): the one-time code and the new-device approval link.
 */
import nodemailer from 'nodemailer'
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js'

/** One message. */
export type MailMessage = { to: string; subject: string; text: string; html: string }

/** Sends mail. */
export type Mailer = { send(message: MailMessage): Promise<void> }

/** Options of {@link createMailer}. */
export type CreateMailerParameters = {
  /**
   * `smtp://[user:pass@]host[:port]` (plain, upgraded with STARTTLS when the server offers it) or
   * `smtps://[user:pass@]host[:port]` (TLS from the start). Loopback servers may use self-signed
   * certificates.
   */
  smtpUrl: string
  /** The `From` header, e.g. `Porthole <no-reply@porthole.local>`. */
  from: string
}

/**
 * An SMTP mailer. Each message opens its own connection (login mail is rare), with 10 s
 * connection and greeting timeouts.
 *
 * @example
 * const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:2525', from: 'Porthole <no-reply@porthole.local>' })
 * await mailer.send({ to: 'a@b.test', subject: 'Hi', text: 'Hi', html: '<p>Hi</p>' })
 */
export function createMailer({ smtpUrl, from }: CreateMailerParameters): Mailer {
  const transport = nodemailer.createTransport(smtpOptions(smtpUrl))
  return {
    async send(message) {
      await transport.sendMail({ from, ...message })
    },
  }
}

/**
 * nodemailer SMTP options for an `smtp://` or `smtps://` URL.
 *
 * @example
 * smtpOptions('smtps://u:p@mail.example:465') // { host: 'mail.example', port: 465, secure: true, auth: { user: 'u', pass: 'p' }, … }
 */
export function smtpOptions(smtpUrl: string): SMTPTransport.Options {
  const url = new URL(smtpUrl)
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`Unsupported SMTP URL scheme: ${url.protocol} (use smtp:// or smtps://)`)
  const secure = url.protocol === 'smtps:'
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const loopback = host === 'localhost' || host === '::1' || /^127\./.test(host)
  return {
    host,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(url.username
      ? {
          auth: {
            user: decodeURIComponent(url.username),
            pass: decodeURIComponent(url.password),
          },
        }
      : {}),
    ...(loopback ? { tls: { rejectUnauthorized: false } } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  }
}

/**
 * The one-time code mail (the code is in the subject, so it shows in notifications).
 *
 * @example
 * codeMail({ to: 'a@b.test', code: '123456' }).subject // 'Your Porthole code is 123456'
 */
export function codeMail({ to, code }: { to: string; code: string }): MailMessage {
  return {
    to,
    subject: `Your Porthole code is ${code}`,
    text: `Your Porthole code is ${code}.\n\nEnter it in the app to continue. It expires in 10 minutes and works once.\nIf you did not ask for it, you can ignore this e-mail.\n`,
    html: page(
      `<p>Your Porthole code is</p><p style="font-size:28px;font-weight:600;letter-spacing:4px">${code}</p><p>Enter it in the app to continue. It expires in 10 minutes and works once.</p><p style="color:#666">If you did not ask for it, you can ignore this e-mail.</p>`,
    ),
  }
}

/**
 * The new-device approval mail.
 *
 * @example
 * deviceMail({ to: 'a@b.test', link: 'http://127.0.0.1:4300/auth/v1/device/approve?token=…' })
 */
export function deviceMail({ to, link }: { to: string; link: string }): MailMessage {
  return {
    to,
    subject: 'Approve sign-in on a new device',
    text: `Someone is signing in to Porthole with this e-mail on a new device or site.\n\nTo approve it, open this link (valid for 15 minutes):\n${link}\n\nWe will then send you a code to enter in the app.\nIf this was not you, ignore this e-mail.\n`,
    html: page(
      `<p>Someone is signing in to Porthole with this e-mail on a new device or site.</p><p><a href="${escapeHtml(link)}">Approve this device</a> (valid for 15 minutes)</p><p>We will then send you a code to enter in the app.</p><p style="color:#666">If this was not you, ignore this e-mail.</p>`,
    ),
  }
}

/**
 * Escapes text for HTML content and attribute values.
 *
 * @example
 * escapeHtml('<a href="x">') // '&lt;a href=&quot;x&quot;&gt;'
 */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

function page(body: string): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:15px;color:#111">${body}</body></html>`
}
