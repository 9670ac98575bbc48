import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { sanitizeSvg, UnsafeSvgError } from './sanitizeSvg.js'

/** The image families the API serves, each a directory under `assets/`. */
export const IMAGE_KINDS = ['wallets', 'networks', 'currencies', 'tokens', 'socials'] as const
/** An image family. */
export type ImageKind = (typeof IMAGE_KINDS)[number]

/**
 * One image, read once at start-up. SVGs also come brotli- and gzip-compressed (`encoded`), each
 * only when smaller than the plain body.
 */
export type ImageAsset = {
  body: Uint8Array<ArrayBuffer>
  contentType: string
  etag: string
  encoded: { br?: Uint8Array<ArrayBuffer>; gzip?: Uint8Array<ArrayBuffer> }
}

/** Every image by family and normalised id. */
export type ImageAssets = Record<ImageKind, ReadonlyMap<string, ImageAsset>>

/** The committed assets directory (apps/api/assets). */
export const DEFAULT_ASSETS_DIR = fileURLToPath(new URL('../../assets/', import.meta.url))

const CONTENT_TYPES: Record<string, string> = { svg: 'image/svg+xml', png: 'image/png' }

/** The first bytes of every PNG file. */
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** Compressed forms by ETag: computed once per process, however many apps load the files. */
const compressedCache = new Map<string, ImageAsset['encoded']>()

function compressed(body: Uint8Array<ArrayBuffer>, etag: string): ImageAsset['encoded'] {
  const cached = compressedCache.get(etag)
  if (cached) return cached
  const br = new Uint8Array(
    brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  )
  const gzip = new Uint8Array(gzipSync(body, { level: 9 }))
  const encoded = {
    ...(br.length < body.length ? { br } : {}),
    ...(gzip.length < body.length ? { gzip } : {}),
  }
  compressedCache.set(etag, encoded)
  return encoded
}

/** A file's bytes as served: SVGs re-written by {@link sanitizeSvg}, PNGs checked by signature. */
function readImage(file: string, extension: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(readFileSync(file))
  if (extension === 'png') {
    if (!PNG_SIGNATURE.every((byte, i) => bytes[i] === byte))
      throw new Error(`${file}: not a PNG file`)
    return bytes
  }
  try {
    return new TextEncoder().encode(
      sanitizeSvg(new TextDecoder('utf-8', { fatal: true }).decode(bytes)),
    )
  } catch (error) {
    const reason = error instanceof UnsafeSvgError ? error.message : 'not UTF-8 text'
    throw new Error(`${file}: refused SVG (${reason})`, { cause: error })
  }
}

/**
 * Reads every image under `dir/<kind>/` into memory, keyed by file name without extension.
 * Requests are answered from these maps only, so no request path ever reaches the filesystem.
 * SVGs are served as {@link sanitizeSvg} re-writes them (a file it refuses stops the start with
 * an error naming it), with brotli and gzip forms computed once here.
 *
 * @example
 * const assets = loadImageAssets()
 * assets.wallets.get('metamask')?.contentType // 'image/svg+xml'
 */
export function loadImageAssets(dir: string = DEFAULT_ASSETS_DIR): ImageAssets {
  const out = {} as Record<ImageKind, Map<string, ImageAsset>>
  for (const kind of IMAGE_KINDS) {
    const map = new Map<string, ImageAsset>()
    const folder = `${dir.replace(/\/?$/, '/')}${kind}/`
    if (existsSync(folder))
      for (const file of readdirSync(folder)) {
        const match = /^([a-z0-9][a-z0-9._-]*)\.(svg|png)$/.exec(file)
        if (!match) continue
        const body = readImage(`${folder}${file}`, match[2]!)
        const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`
        const svg = match[2] === 'svg'
        map.set(match[1]!, {
          body,
          contentType: CONTENT_TYPES[match[2]!]!,
          etag,
          encoded: svg ? compressed(body, etag) : {},
        })
      }
    out[kind] = map
  }
  return out
}

/**
 * The id an image request names, in the form the files use: lower case, and for networks a
 * CAIP-2 `:` written as `-` (`eip155:1` → `eip155-1`). `undefined` for anything else.
 *
 * @example
 * normaliseImageId('networks', 'eip155:8453') // 'eip155-8453'
 * normaliseImageId('currencies', 'USD') // 'usd'
 * normaliseImageId('socials', 'GitHub') // 'github'
 */
export function normaliseImageId(kind: ImageKind, id: string): string | undefined {
  let value = id.trim().toLowerCase()
  if (kind === 'networks') value = value.replace(':', '-')
  return /^[a-z0-9][a-z0-9._-]{0,79}$/.test(value) && !value.includes('..') ? value : undefined
}
