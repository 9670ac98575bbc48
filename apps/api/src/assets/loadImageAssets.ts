import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The image families the API serves, each a directory under `assets/`. */
export const IMAGE_KINDS = ['wallets', 'networks', 'currencies', 'tokens'] as const
/** An image family. */
export type ImageKind = (typeof IMAGE_KINDS)[number]

/** One image, read once at start-up. */
export type ImageAsset = { body: Uint8Array<ArrayBuffer>; contentType: string; etag: string }

/** Every image by family and normalised id. */
export type ImageAssets = Record<ImageKind, ReadonlyMap<string, ImageAsset>>

/** The committed assets directory (apps/api/assets). */
export const DEFAULT_ASSETS_DIR = fileURLToPath(new URL('../../assets/', import.meta.url))

const CONTENT_TYPES: Record<string, string> = { svg: 'image/svg+xml', png: 'image/png' }

/**
 * Reads every image under `dir/<kind>/` into memory, keyed by file name without extension.
 * Requests are answered from these maps only, so no request path ever reaches the filesystem.
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
        const body = new Uint8Array(readFileSync(`${folder}${file}`))
        const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`
        map.set(match[1]!, { body, contentType: CONTENT_TYPES[match[2]!]!, etag })
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
 */
export function normaliseImageId(kind: ImageKind, id: string): string | undefined {
  let value = id.trim().toLowerCase()
  if (kind === 'networks') value = value.replace(':', '-')
  return /^[a-z0-9][a-z0-9._-]{0,79}$/.test(value) && !value.includes('..') ? value : undefined
}
