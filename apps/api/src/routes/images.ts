import { negotiateEncoding } from '@porthole/shared'
import type { Hono, MiddlewareHandler } from 'hono'
import { type ImageAssets, type ImageKind, normaliseImageId } from '../assets/loadImageAssets.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'

/** Images are content-addressed by ETag; a week of caching is safe. */
const CACHE_CONTROL = 'public, max-age=604800, stale-while-revalidate=86400'

/** Paths of the image endpoints and the family each serves. */
export const IMAGE_ROUTES: readonly [path: string, kind: ImageKind][] = [
  ['/getWalletImage/:id', 'wallets'],
  ['/public/getAssetImage/:id', 'networks'],
  ['/public/getCurrencyImage/:id', 'currencies'],
  ['/public/getTokenImage/:id', 'tokens'],
  ['/public/getSocialImage/:id', 'socials'],
]

/**
 * Image endpoints (spec §7): wallet logos, network logos (`eip155:1` or `eip155-1`, `solana`,
 * `bip122`, …), currency (`USD`) and token (`USDC`) images, and (beyond the spec) the social
 * login providers' logos (`google`, `x`, …), from local files only. SVGs carry
 * `Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'` and `nosniff`, and
 * come brotli- or gzip-compressed when the request accepts it (`Vary: Accept-Encoding`, the
 * encoding added to the ETag); unknown ids answer 404 JSON.
 *
 * @example
 * imageRoutes(app, guard, loadImageAssets())
 */
export function imageRoutes(
  app: Hono<AppEnv>,
  guard: readonly MiddlewareHandler<AppEnv>[],
  assets: ImageAssets,
): void {
  for (const [path, kind] of IMAGE_ROUTES) {
    app.use(path, ...guard)
    app.get(path, (c) => {
      const id = normaliseImageId(kind, c.req.param('id') ?? '')
      const asset = id === undefined ? undefined : assets[kind].get(id)
      if (!asset) throw new ApiError('NOT_FOUND', { details: 'no such image' })
      const headers: Record<string, string> = {
        'Content-Type': asset.contentType,
        'Cache-Control': CACHE_CONTROL,
        ETag: asset.etag,
        'X-Content-Type-Options': 'nosniff',
        'Cross-Origin-Resource-Policy': 'cross-origin',
      }
      if (asset.contentType === 'image/svg+xml')
        headers['Content-Security-Policy'] = "default-src 'none'; style-src 'unsafe-inline'"
      const encoding = negotiateEncoding(c.req.header('accept-encoding'))
      const encoded = encoding === 'identity' ? undefined : asset.encoded[encoding]
      if (asset.encoded.br || asset.encoded.gzip)
        c.header('Vary', 'Accept-Encoding', { append: true })
      if (encoded) {
        headers['Content-Encoding'] = encoding
        headers.ETag = `${asset.etag.slice(0, -1)}-${encoding}"`
      }
      if (c.req.header('if-none-match') === headers.ETag) return c.body(null, 304, headers)
      return c.body(encoded ?? asset.body, 200, headers)
    })
  }
}
