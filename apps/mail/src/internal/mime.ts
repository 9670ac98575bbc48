/**
 * A small MIME reader for what mail clients such as nodemailer send: headers with RFC 2047
 * encoded words (raw UTF-8 accepted too), nested multipart bodies, quoted-printable and
 * base64 transfer encodings, and any charset `TextDecoder` knows. It keeps the subject, the
 * From header and the first inline text/plain and text/html bodies; attachments are skipped.
 * It never throws: malformed input gives its best reading.
 */

/** What {@link parseMail} reads from a message. */
export type ParsedMail = {
  /** Decoded Subject header; `''` when absent. */
  subject: string
  /** Decoded From header as written, e.g. `Porthole <no-reply@porthole.test>`; `''` when absent. */
  from: string
  /** First inline text/plain body, decoded; `''` when the message has none. */
  text: string
  /** First inline text/html body, decoded; `''` when the message has none. */
  html: string
}

/** Deepest multipart nesting followed; deeper parts are ignored. */
const MAX_DEPTH = 20

/**
 * Reads the subject, sender and text/HTML bodies of a raw RFC 5322 message.
 *
 * @example
 * const mail = parseMail('Subject: =?UTF-8?Q?Caf=C3=A9?=\r\n\r\nHello\r\n')
 * mail.subject // 'Café'
 * mail.text // 'Hello'
 */
export function parseMail(raw: Uint8Array | string): ParsedMail {
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : Buffer.from(raw)
  // One char per byte, so bodies can be cut and decoded per part in their own charset.
  // The last line break ends the final line (before SMTP's `.`); it is not part of the text.
  const source = bytes.toString('latin1').replace(/\r\n?/g, '\n').replace(/\n$/, '')
  const root = parseEntity(source)
  const found: { text?: string; html?: string } = {}
  collectBodies(root, found, 0)
  return {
    subject: decodeHeader(root.headers.get('subject') ?? ''),
    from: decodeHeader(root.headers.get('from') ?? ''),
    text: found.text ?? '',
    html: found.html ?? '',
  }
}

/**
 * Decodes a raw header value: raw 8-bit bytes (given one char per byte) as UTF-8, then
 * RFC 2047 encoded words; whitespace between adjacent encoded words is dropped.
 *
 * @example
 * decodeHeader('=?UTF-8?B?Q2Fmw6k=?= =?UTF-8?Q?_ouvert?=') // 'Café ouvert'
 */
export function decodeHeader(raw: string): string {
  const value = decodeCharset(Buffer.from(raw, 'latin1'), undefined)
  const pattern = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g
  let out = ''
  let last = 0
  // Adjacent words of one charset are joined before decoding: a split may cut a character.
  let pending: { charset: string; chunks: Buffer[] } | undefined
  const flush = () => {
    if (pending) out += decodeCharset(Buffer.concat(pending.chunks), pending.charset)
    pending = undefined
  }
  for (const match of value.matchAll(pattern)) {
    const gap = value.slice(last, match.index)
    if (!(pending && /^\s*$/.test(gap))) {
      flush()
      out += gap
    }
    const charset = (match[1] ?? '').split('*')[0] ?? ''
    const text = match[3] ?? ''
    const chunk =
      match[2]?.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : decodeHexEscapes(text.replaceAll('_', ' '))
    if (pending && pending.charset.toLowerCase() !== charset.toLowerCase()) flush()
    pending ??= { charset, chunks: [] }
    pending.chunks.push(chunk)
    last = match.index + match[0].length
  }
  flush()
  return out + value.slice(last)
}

/** A MIME entity: lower-cased header names to unfolded raw values, and its raw body. */
type Entity = { headers: Map<string, string>; body: string }

function parseEntity(source: string): Entity {
  const end = source.startsWith('\n') ? 0 : source.indexOf('\n\n')
  const block = end === -1 ? source : source.slice(0, end)
  const body = end === -1 ? '' : source.slice(end + (end === 0 ? 1 : 2))
  const headers = new Map<string, string>()
  for (const line of block.replace(/\n(?=[ \t])/g, '').split('\n')) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    // The first occurrence wins, as for the Subject a reader sees.
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim())
  }
  return { headers, body }
}

function collectBodies(entity: Entity, found: { text?: string; html?: string }, depth: number) {
  const type = parseParameterized(entity.headers.get('content-type') || 'text/plain')
  const boundary = type.params.boundary
  if (type.value.startsWith('multipart/')) {
    if (boundary && depth < MAX_DEPTH)
      for (const part of splitMultipart(entity.body, boundary))
        collectBodies(parseEntity(part), found, depth + 1)
    return
  }
  if (parseParameterized(entity.headers.get('content-disposition') ?? '').value === 'attachment')
    return
  const key = type.value === 'text/plain' ? 'text' : type.value === 'text/html' ? 'html' : undefined
  if (!key || found[key] !== undefined) return
  const encoding = (entity.headers.get('content-transfer-encoding') ?? '').trim().toLowerCase()
  found[key] = decodeCharset(decodeTransfer(entity.body, encoding), type.params.charset)
}

/** The parts of a multipart body (line ends already `\n`), without preamble and epilogue. */
function splitMultipart(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`
  const parts: string[] = []
  let current: string[] | undefined
  for (const line of body.split('\n')) {
    const trimmed = line.replace(/[ \t]+$/, '')
    if (trimmed === delimiter || trimmed === `${delimiter}--`) {
      if (current) parts.push(current.join('\n'))
      current = undefined
      if (trimmed === delimiter) current = []
      else break
      continue
    }
    current?.push(line)
  }
  // A body cut before its closing delimiter still yields its last part.
  if (current) parts.push(current.join('\n'))
  return parts
}

/** A header such as `text/plain; charset="utf-8"`: lower-cased value, lower-cased param names. */
function parseParameterized(header: string): { value: string; params: Record<string, string> } {
  const pieces: string[] = []
  let current = ''
  let quoted = false
  for (let i = 0; i < header.length; i++) {
    const char = header[i]
    if (quoted && char === '\\' && i + 1 < header.length) current += header[++i]
    else if (char === '"') quoted = !quoted
    else if (char === ';' && !quoted) {
      pieces.push(current)
      current = ''
    } else current += char
  }
  pieces.push(current)
  const params: Record<string, string> = {}
  for (const piece of pieces.slice(1)) {
    const equals = piece.indexOf('=')
    if (equals > 0)
      params[piece.slice(0, equals).trim().toLowerCase()] = piece.slice(equals + 1).trim()
  }
  return { value: (pieces[0] ?? '').trim().toLowerCase(), params }
}

function decodeTransfer(body: string, encoding: string): Buffer {
  if (encoding === 'base64') return Buffer.from(body.replace(/[^A-Za-z0-9+/]/g, ''), 'base64')
  if (encoding === 'quoted-printable')
    // Trailing whitespace is padding; `=` at a line end is a soft break.
    return decodeHexEscapes(
      body
        .replace(/[ \t]+$/gm, '')
        .replace(/=\n/g, '')
        .replace(/=$/, ''),
    )
  return Buffer.from(body, 'latin1')
}

/** Bytes of a one-char-per-byte string with `=XX` escapes decoded; a lone `=` is kept. */
function decodeHexEscapes(text: string): Buffer {
  const bytes = Buffer.alloc(text.length)
  let length = 0
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === '=' ? text.slice(i + 1, i + 3) : ''
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes[length++] = Number.parseInt(hex, 16)
      i += 2
    } else bytes[length++] = text.charCodeAt(i) & 0xff
  }
  return bytes.subarray(0, length)
}

/** Text of `bytes` in `charset`; without a known charset, UTF-8 when valid, else Windows-1252. */
function decodeCharset(bytes: Uint8Array, charset: string | undefined): string {
  if (charset)
    try {
      return new TextDecoder(charset).decode(bytes)
    } catch {}
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return new TextDecoder('windows-1252').decode(bytes)
  }
}
