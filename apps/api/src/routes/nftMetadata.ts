import type { Hono, MiddlewareHandler } from 'hono'
import {
  collectionMetadata,
  DEVNET_COLLECTIONS,
  NFT_METADATA_PATH,
} from '../chaindata/devnetCollections.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'

const CACHE_CONTROL = 'public, max-age=86400'

/**
 * Metadata and images of the devnet NFT collections (their on-chain `tokenURI`s point here):
 * `GET /nft/v1/{collection}/{tokenId}` → `{ name, description, image }` and
 * `GET /nft/v1/{collection}/{tokenId}/image.svg`. Rate limited but open to any caller: a token
 * URI is public and read without a project (wallets, marketplaces, the indexer), like
 * `/projects/v1/frame-check`.
 *
 * @example
 * nftMetadataRoutes(app, [limit], { publicUrl: 'http://127.0.0.1:4300' })
 */
export function nftMetadataRoutes(
  app: Hono<AppEnv>,
  guard: readonly MiddlewareHandler<AppEnv>[],
  { publicUrl }: { publicUrl: string },
): void {
  app.use(`${NFT_METADATA_PATH}/*`, ...guard)
  app.get(`${NFT_METADATA_PATH}/:collection/:tokenId`, (c) => {
    const metadata = collectionMetadata(
      publicUrl,
      c.req.param('collection'),
      c.req.param('tokenId'),
    )
    if (!metadata) throw new ApiError('NOT_FOUND', { details: 'no such token' })
    c.header('Cache-Control', CACHE_CONTROL)
    return c.json(metadata)
  })
  app.get(`${NFT_METADATA_PATH}/:collection/:tokenId/image.svg`, (c) => {
    const slug = c.req.param('collection')
    const tokenId = c.req.param('tokenId')
    const collection = DEVNET_COLLECTIONS.get(slug)
    if (!collection || !collectionMetadata(publicUrl, slug, tokenId))
      throw new ApiError('NOT_FOUND', { details: 'no such image' })
    return c.body(collection.art(BigInt(tokenId)), 200, {
      'Content-Type': 'image/svg+xml',
      'Cache-Control': CACHE_CONTROL,
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      'Cross-Origin-Resource-Policy': 'cross-origin',
    })
  })
}
