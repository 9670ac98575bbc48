import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { negotiateEncoding } from '@porthole/shared'
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from './AppEnv.js'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Options of {@link compressJson}. */
export type CompressJsonParameters = {
  /** Smallest body compressed, in bytes; default 1024. */
  threshold?: number
  /** Brotli quality; default 5 (fast enough per response, near gzip 9 in time, smaller). */
  brotliQuality?: number
}

/**
 * Compresses JSON responses of at least `threshold` bytes with brotli (preferred) or gzip, as
 * the request's `Accept-Encoding` allows (the rule of `negotiateEncoding`), with
 * `Vary: Accept-Encoding`, the compressed `Content-Length`, and a strong `ETag` given the
 * encoding as a suffix (`"x"` → `"x-br"`). Leaves alone HEAD, 204/206/304, bodies already
 * encoded and `Cache-Control: no-transform`. Bodies are read whole: API JSON is never streamed.
 *
 * @example
 * app.use('*', compressJson())
 */
export function compressJson({
  threshold = 1024,
  brotliQuality = 5,
}: CompressJsonParameters = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next()
    const res = c.res
    // Hono's JSON answers are still a string here: a small one is left as it is (Node's server
    // writes it with its length), and a large one is read without turning the response into a
    // stream first (reading `body` would). That was a fifth of the API's CPU on the balance
    // endpoint under load.
    const text = pendingText(res)
    if (
      c.req.method === 'HEAD' ||
      (text === undefined && !res.body) ||
      [204, 206, 304].includes(res.status) ||
      !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(res.headers.get('Content-Type') ?? '') ||
      res.headers.has('Content-Encoding') ||
      /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get('Cache-Control') ?? '')
    )
      return
    if (text !== undefined && Buffer.byteLength(text) < threshold) return
    const body = text === undefined ? Buffer.from(await res.arrayBuffer()) : Buffer.from(text)
    let sent: Buffer = body
    const encoding =
      body.length < threshold ? 'identity' : negotiateEncoding(c.req.header('Accept-Encoding'))
    if (encoding === 'br')
      sent = await brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: brotliQuality,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      })
    else if (encoding === 'gzip') sent = await gzipAsync(body, { level: 6 })
    // The old body is consumed: a new Response (Hono copies the old headers onto it).
    c.res = new Response(new Uint8Array(sent), res)
    const headers = c.res.headers
    headers.set('Content-Length', String(sent.length))
    if (body.length < threshold) return
    if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(headers.get('Vary') ?? ''))
      headers.append('Vary', 'Accept-Encoding')
    if (encoding === 'identity') return
    headers.set('Content-Encoding', encoding)
    const etag = headers.get('ETag')
    if (etag && /^"[^"]*"$/.test(etag)) headers.set('ETag', `${etag.slice(0, -1)}-${encoding}"`)
  }
}

/**
 * The body of a response that `@hono/node-server` still holds as the string it was made with
 * (its lightweight `Response`, read through its own cache slot), or undefined for any other
 * response (then the body is read the standard way).
 *
 * @example
 * pendingText(c.res) // '{"balances":[…]}'
 */
export function pendingText(res: Response): string | undefined {
  for (const symbol of Object.getOwnPropertySymbols(res)) {
    if (symbol.description !== 'cache') continue
    const cache = (res as unknown as Record<symbol, unknown>)[symbol]
    if (Array.isArray(cache) && typeof cache[1] === 'string') return cache[1]
  }
  return undefined
}
