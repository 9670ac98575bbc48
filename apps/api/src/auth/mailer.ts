/**
 * Login mail over SMTP (nodemailer): the one-time code, and the notices of a wallet's custody
 * events (a new device, a change of recovery).
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
   * `smtp://[user:pass@]host[:port]` (plain, upgraded with STARTTLS when the server offers it;
   * `?requireTLS=true` refuses to send without it) or
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
    // `?requireTLS=true`: refuse to send unless the server upgrades with STARTTLS.
    ...(url.searchParams.get('requireTLS') === 'true' ? { requireTLS: true } : {}),
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

/** Who asks for a login code: the site (as the modal verified it, allowed by the project) and the project's name. */
export type CodeMailLogin = { site: string; project: string }

/**
 * The one-time code mail (the code is in the subject, so it shows in notifications). A login
 * code names the site that asked for it and the project, in the subject and first line: a code
 * asked for by another site than the one the user is on (a phishing page relaying a login) is
 * recognisable, and the mail says not to enter it there.
 *
 * @example
 * codeMail({ to: 'a@b.test', code: '123456', login: { site: 'https://app.example', project: 'App' } }).subject
 * // 'Your Porthole code for app.example is 123456'
 */
export function codeMail({
  to,
  code,
  login,
}: {
  to: string
  code: string
  login?: CodeMailLogin
}): MailMessage {
  const host = login ? new URL(login.site).host : undefined
  const asked = login
    ? `${login.site} (${login.project}) asked for this code to sign you in with Porthole.`
    : undefined
  const warning = login
    ? `Enter it only on ${login.site}. If another site shows you this request, do not enter the code there: it would sign that site in as you.`
    : 'If you did not ask for it, you can ignore this e-mail.'
  return {
    to,
    subject: host ? `Your Porthole code for ${host} is ${code}` : `Your Porthole code is ${code}`,
    text: `${asked ? `${asked}\n\n` : ''}Your Porthole code is ${code}.\n\nIt expires in 10 minutes and works once.\n${warning}\n`,
    html: page(
      `${asked ? `<p>${escapeHtml(asked)}</p>` : ''}<p>Your Porthole code is</p><p style="font-size:28px;font-weight:600;letter-spacing:4px">${code}</p><p>It expires in 10 minutes and works once.</p><p style="color:#666">${escapeHtml(warning)}</p>`,
    ),
  }
}

/** What {@link walletNoticeMail} reports. */
export type WalletNoticeMailParameters = {
  to: string
  /** A new device or site set the wallet up, or the way of recovery changed. */
  event: 'new-device' | 'recovery-changed'
  address: string
  /** The host site the wallet frame served, when it said. */
  site: string | null
  /** Browser and system, from the User-Agent. */
  device: string
  ip: string
  /** How the recovery share is kept now. */
  recovery: 'automatic' | 'passkey'
}

/**
 * The notice of a custody event of a wallet: set up on a new device or site, or its recovery
 * changed. Every such event is mailed, so one the owner did not cause does not go unseen.
 *
 * @example
 * walletNoticeMail({ to, event: 'new-device', address, site: 'https://app.example', device: 'Chrome 156 on Linux', ip, recovery: 'automatic' })
 */
export function walletNoticeMail(parameters: WalletNoticeMailParameters): MailMessage {
  const { to, event, address, site, device, ip, recovery } = parameters
  const how =
    recovery === 'passkey'
      ? 'It can be set up on a new device only with your passkey.'
      : 'It can be set up on a new device after you approve that device from your e-mail.'
  const lines = [
    event === 'new-device'
      ? `Your Porthole wallet ${address} was just set up on a new device or site.`
      : `The way your Porthole wallet ${address} is recovered just changed.`,
    '',
    `Site: ${site ?? 'not given'}`,
    `Device: ${device}`,
    `IP address: ${ip}`,
    `Time: ${new Date().toUTCString()}`,
    '',
    how,
    'If this was not you, sign in and move your funds to a new wallet.',
  ]
  return {
    to,
    subject:
      event === 'new-device'
        ? 'Your Porthole wallet was set up on a new device'
        : 'The recovery of your Porthole wallet changed',
    text: `${lines.join('\n')}\n`,
    html: page(lines.map((line) => (line ? `<p>${escapeHtml(line)}</p>` : '')).join('')),
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
