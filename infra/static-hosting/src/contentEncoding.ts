/**
 * Compression (brotli, gzip) at maximum quality, and checking a precompressed sibling. Only
 * `node:` imports: the Vite configs bundle it through `precompress.ts`. (`negotiateEncoding`
 * is in @porthole/shared.)
 */
import { promisify } from 'node:util'
import { brotliCompress, brotliDecompress, constants, gunzip, gzip } from 'node:zlib'

/** The file suffix of a precompressed sibling per encoding: `sdk.js.br`, `sdk.js.gz`. */
export const ENCODING_SUFFIX = { br: '.br', gzip: '.gz' } as const

const brotli = promisify(brotliCompress)
const unbrotli = promisify(brotliDecompress)
const gzipAsync = promisify(gzip)
const gunzipAsync = promisify(gunzip)

/** Options of {@link compress}. */
export type CompressOptions = {
  /** Brotli's text mode (UTF-8 text); default true. False for binary bodies such as wasm. */
  text?: boolean
}

/**
 * Compresses a body at maximum quality: brotli 11 (with a size hint) or gzip 9. The build
 * (`precompress()`) and the server use this one function, so a file compressed at build time
 * and on the fly is the same bytes.
 *
 * @example
 * const body = await compress(Buffer.from('…'), 'br')
 */
export function compress(
  body: Buffer,
  encoding: 'br' | 'gzip',
  { text = true }: CompressOptions = {},
): Promise<Buffer> {
  if (encoding === 'gzip') return gzipAsync(body, { level: 9 })
  return brotli(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [constants.BROTLI_PARAM_MODE]: text
        ? constants.BROTLI_MODE_TEXT
        : constants.BROTLI_MODE_GENERIC,
    },
  })
}

/**
 * True when `encoded` (a precompressed sibling's bytes) decodes to exactly `body`. A sibling
 * left from another build, truncated or corrupt is false.
 *
 * @example
 * await decodesTo(await compress(body, 'gzip'), 'gzip', body) // true
 */
export async function decodesTo(
  encoded: Buffer,
  encoding: 'br' | 'gzip',
  body: Buffer,
): Promise<boolean> {
  // One byte more than the body is enough to tell a longer decoding apart.
  const options = { maxOutputLength: body.length + 1 }
  const decoded = await (encoding === 'br'
    ? unbrotli(encoded, options)
    : gunzipAsync(encoded, options)
  ).catch(() => undefined)
  return decoded?.equals(body) === true
}
