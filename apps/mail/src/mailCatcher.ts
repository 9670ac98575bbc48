/**
 * A mail catcher for development and tests: an SMTP server that accepts every message on
 * loopback and keeps it in memory, and an HTTP server to read the messages back (JSON API and
 * an inbox page).
 */
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { allowedHosts, endpoints, isAllowedHost, portOf } from '@porthole/shared'
import { SMTPServer } from 'smtp-server'
import { parseMail } from './internal/mime.ts'
import { MESSAGE_HTML_CSP, PAGE_CSP, renderInbox } from './internal/page.ts'

/**
 * One caught message as delivered to one recipient: a message sent to several recipients is
 * stored once per recipient, each with its own `id`.
 */
export type Message = {
  /** Unique id of this copy. */
  id: string
  /** The envelope recipient (`RCPT TO`, so Bcc recipients too) as the sender wrote it. */
  to: string
  /** Decoded From header, e.g. `Porthole <no-reply@porthole.test>`; the envelope sender when absent. */
  from: string
  /** Decoded Subject; `''` when absent. */
  subject: string
  /** Decoded text/plain body; `''` when the message has none. */
  text: string
  /** Decoded text/html body; `''` when the message has none. */
  html: string
  /** When the catcher received the message, as an ISO 8601 string. */
  date: string
}

/** Options of {@link startMailCatcher}. */
export type StartMailCatcherParameters = {
  /** HTTP port; default the port of `endpoints().mail` (4500). `0` picks a free port. */
  httpPort?: number
  /** SMTP port; default the port of `endpoints().smtp` (2525). `0` picks a free port. */
  smtpPort?: number
  /** Interface both servers bind to; default `127.0.0.1`. */
  host?: string
  /**
   * More `Host` header values the HTTP side answers, e.g. `mail.internal:4500`. It always
   * answers `<host>:<port>` and, bound to loopback, `localhost`, `127.0.0.1` and `[::1]` on its
   * port; any other `Host` gets 421 before any handler runs (DNS rebinding protection).
   */
  extraHosts?: readonly string[]
  /** Messages kept (one per recipient); the oldest are dropped past it. Default 1000. */
  maxMessages?: number
  /** Largest accepted message in bytes; default 10 MB. */
  maxMessageBytes?: number
}

/** A filter for {@link StartMailCatcherReturnType.messages}. */
export type MessagesFilter = {
  /** Only messages to this address, compared case-insensitively. */
  to?: string
}

/** A running mail catcher. */
export type StartMailCatcherReturnType = {
  /** Base URL of the HTTP API and inbox page, e.g. `http://127.0.0.1:4500`. */
  httpUrl: string
  /** URL to give an SMTP client, e.g. `smtp://127.0.0.1:2525`. */
  smtpUrl: string
  /** The caught messages, newest first, optionally only those to one address. */
  messages(filter?: MessagesFilter): Message[]
  /** Forgets every caught message. */
  clear(): void
  /** Stops both servers (open connections are cut); safe to call twice. */
  close(): Promise<void>
}

/**
 * Thrown when a port of the catcher is already taken.
 *
 * @example
 * await startMailCatcher({ smtpPort: 2525 }).catch((error) => {
 *   if (error instanceof MailCatcherPortInUseError) console.log('a catcher already runs')
 * })
 */
export class MailCatcherPortInUseError extends Error {
  override name = 'MailCatcherPortInUseError'
  constructor(url: string, options?: ErrorOptions) {
    super(`Cannot start the mail catcher: ${url} is already in use`, options)
  }
}

/** Errors {@link startMailCatcher} may reject with. */
export type StartMailCatcherErrorType = MailCatcherPortInUseError | Error

const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024

/**
 * Starts the SMTP and HTTP servers of the mail catcher.
 *
 * HTTP API: `GET /messages?to=<address>` (JSON array, newest first), `GET /messages/:id`
 * (one message or 404), `GET /messages/:id/html` (the HTML body under a sandboxing CSP),
 * `DELETE /messages` (204), `GET /` (inbox page), `GET /health` (`{ ok: true }`). A request
 * whose `Host` is not a name the server is served under gets 421 (see `extraHosts`).
 *
 * @example
 * const catcher = await startMailCatcher({ httpPort: 0, smtpPort: 0 })
 * await nodemailer.createTransport(catcher.smtpUrl).sendMail({ to: 'ada@example.com', text: 'Hi' })
 * const [mail] = catcher.messages({ to: 'ada@example.com' })
 * await catcher.close()
 */
export async function startMailCatcher(
  parameters: StartMailCatcherParameters = {},
): Promise<StartMailCatcherReturnType> {
  const defaults = endpoints()
  const {
    httpPort = portOf(defaults.mail),
    smtpPort = portOf(defaults.smtp),
    host = '127.0.0.1',
    maxMessages = 1000,
    maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
    extraHosts,
  } = parameters

  // Oldest first; readers reverse it.
  let stored: Message[] = []
  const store = (message: Message) => {
    stored.push(message)
    if (stored.length > maxMessages) stored = stored.slice(stored.length - maxMessages)
  }
  const messages = (filter: MessagesFilter = {}): Message[] => {
    const to = filter.to?.trim().toLowerCase()
    const list = to ? stored.filter((message) => message.to.toLowerCase() === to) : stored
    return list.slice().reverse()
  }

  const smtp = new SMTPServer({
    // Plain SMTP for loopback: no TLS, no authentication, every sender and recipient accepted.
    secure: false,
    disabledCommands: ['AUTH', 'STARTTLS'],
    hideSTARTTLS: true,
    authOptional: true,
    allowInsecureAuth: false,
    size: maxMessageBytes,
    banner: 'Porthole mail catcher',
    logger: false,
    // No reverse DNS of the client: offline it only adds a delay to every connection.
    disableReverseLookup: true,
    closeTimeout: 1000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('error', callback)
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          const error = Object.assign(new Error('Message exceeds the size limit'), {
            responseCode: 552,
          })
          return callback(error)
        }
        const mail = parseMail(Buffer.concat(chunks))
        const date = new Date().toISOString()
        const sender = session.envelope.mailFrom ? session.envelope.mailFrom.address : ''
        for (const recipient of session.envelope.rcptTo)
          store(
            Object.freeze({
              id: randomUUID(),
              to: recipient.address,
              from: mail.from || sender,
              subject: mail.subject,
              text: mail.text,
              html: mail.html,
              date,
            }),
          )
        callback()
      })
    },
  })
  // A client dropping its connection must not bring the catcher down.
  smtp.on('error', () => {})

  // Set once the HTTP port is bound; until then every request is refused.
  let servedHosts: ReadonlySet<string> = new Set()
  const http = createServer((request, response) => {
    try {
      // A page that rebinds its own DNS name to loopback would read every login code: only the
      // names this server is served under are answered.
      if (!isAllowedHost(request.headers.host, servedHosts))
        return sendJson(response, 421, {
          error: 'Misdirected Request: unknown Host',
          allowedHosts: [...servedHosts],
        })
      route(request, response)
    } catch {
      sendJson(response, 500, { error: 'Internal error' })
    }
  })

  const route = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://catcher')
    // HEAD is answered like GET; Node leaves the body out.
    const method = request.method === 'HEAD' ? 'GET' : (request.method ?? 'GET')
    const path = url.pathname.replace(/\/+$/, '') || '/'
    const segments = path.split('/').slice(1).map(decodeSegment)

    if (path === '/health') {
      if (method !== 'GET') return methodNotAllowed(response, 'GET')
      return sendJson(response, 200, { ok: true })
    }
    if (path === '/') {
      if (method !== 'GET') return methodNotAllowed(response, 'GET')
      return sendHtml(response, renderInbox(messages()), PAGE_CSP)
    }
    if (path === '/messages') {
      if (method === 'DELETE') {
        stored = []
        response.writeHead(204, { 'cache-control': 'no-store' }).end()
        return
      }
      if (method !== 'GET') return methodNotAllowed(response, 'GET, DELETE')
      const to = url.searchParams.get('to')
      return sendJson(response, 200, messages(to ? { to } : {}))
    }
    if (segments[0] === 'messages' && (segments.length === 2 || segments[2] === 'html')) {
      if (segments.length > 3) return sendJson(response, 404, { error: 'Not found' })
      if (method !== 'GET') return methodNotAllowed(response, 'GET')
      const message = stored.find((candidate) => candidate.id === segments[1])
      if (!message) return sendJson(response, 404, { error: 'Message not found' })
      if (segments[2] === 'html') return sendHtml(response, message.html, MESSAGE_HTML_CSP)
      return sendJson(response, 200, message)
    }
    return sendJson(response, 404, { error: 'Not found' })
  }

  await listen(http, httpPort, host, 'http')
  servedHosts = allowedHosts({ host, port: (http.address() as AddressInfo).port, extraHosts })
  try {
    await listen(smtp.server, smtpPort, host, 'smtp')
  } catch (error) {
    await closeHttp(http)
    throw error
  }

  let closing: Promise<void> | undefined
  return {
    httpUrl: urlOf('http', host, http),
    smtpUrl: urlOf('smtp', host, smtp.server),
    messages,
    clear() {
      stored = []
    },
    close() {
      closing ??= Promise.all([
        closeHttp(http),
        new Promise<void>((resolve) => smtp.close(() => resolve())),
      ]).then(() => undefined)
      return closing
    },
  }
}

function listen(
  server: Server | SMTPServer['server'],
  port: number,
  host: string,
  scheme: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening)
      const url = `${scheme}://${formatHost(host)}:${port}`
      reject(
        error.code === 'EADDRINUSE' ? new MailCatcherPortInUseError(url, { cause: error }) : error,
      )
    }
    const onListening = () => {
      server.off('error', onError)
      resolve()
    }
    server.once('error', onError)
    server.once('listening', onListening)
    server.listen(port, host)
  })
}

function closeHttp(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}

function urlOf(scheme: string, host: string, server: Server | SMTPServer['server']): string {
  const { port } = server.address() as AddressInfo
  return `${scheme}://${formatHost(host)}:${port}`
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    })
    .end(JSON.stringify(body))
}

function sendHtml(response: ServerResponse, html: string, csp: string) {
  response
    .writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    })
    .end(html)
}

function methodNotAllowed(response: ServerResponse, allow: string) {
  response.setHeader('allow', allow)
  sendJson(response, 405, { error: 'Method not allowed' })
}
