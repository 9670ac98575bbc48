/**
 * The NFT collections seeded on the devnets (apps/devnet `seedDevnet`) keep their metadata and
 * images here: their on-chain base URI is `<API>/nft/v1/<collection>/`, so `tokenURI(n)` is
 * `<API>/nft/v1/<collection>/n`, which answers the metadata JSON whose `image` is a generated
 * SVG on the same API. Nothing is stored: metadata and art derive from the collection and id.
 */

/** A collection the API serves metadata for. */
export type DevnetCollection = {
  /** The path segment (`porthole-pals`). */
  slug: string
  name: string
  description: string
  /** Draws token `id`. */
  art(id: bigint): string
}

/**
 * The path prefix of the collection metadata routes.
 *
 * @example
 * `${publicUrl}${NFT_METADATA_PATH}/porthole-pals/1` // a token URI
 */
export const NFT_METADATA_PATH = '/nft/v1'

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif"

/** A porthole with a sea and a sky whose colours and waves derive from the id. */
function palArt(id: bigint): string {
  const n = Number(id % 1_000_000n)
  const hue = (n * 47) % 360
  const sky = `hsl(${hue} 70% 72%)`
  const sea = `hsl(${(hue + 180) % 360} 60% 38%)`
  const sun = `hsl(${(hue + 40) % 360} 90% 60%)`
  const wave = 8 + (n % 5) * 4
  const sunX = 60 + ((n * 13) % 80)
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240" role="img">',
    `<title>Porthole Pal #${id}</title>`,
    '<rect width="240" height="240" fill="#1f2937"/>',
    '<circle cx="120" cy="120" r="100" fill="#9ca3af"/>',
    '<circle cx="120" cy="120" r="84" fill="#4b5563"/>',
    '<clipPath id="glass"><circle cx="120" cy="120" r="76"/></clipPath>',
    '<g clip-path="url(#glass)">',
    `<rect x="0" y="0" width="240" height="240" fill="${sky}"/>`,
    `<circle cx="${sunX}" cy="92" r="18" fill="${sun}"/>`,
    `<path d="M0 ${130} Q 30 ${130 - wave} 60 130 T 120 130 T 180 130 T 240 130 V 240 H 0 Z" fill="${sea}"/>`,
    '</g>',
    ...[0, 60, 120, 180, 240, 300].map((angle) => {
      const rad = (angle * Math.PI) / 180
      return `<circle cx="${(120 + 92 * Math.cos(rad)).toFixed(1)}" cy="${(120 + 92 * Math.sin(rad)).toFixed(1)}" r="5" fill="#e5e7eb"/>`
    }),
    `<text x="120" y="228" text-anchor="middle" font-family="${FONT}" font-size="16" font-weight="700" fill="#f9fafb">#${id}</text>`,
    '</svg>',
    '',
  ].join('\n')
}

/** A loud "claim your reward" card, the usual look of airdropped spam. */
function spamArt(id: bigint): string {
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240" role="img">',
    `<title>Reward voucher #${id}</title>`,
    '<rect width="240" height="240" fill="#facc15"/>',
    '<rect x="12" y="12" width="216" height="216" rx="16" fill="#dc2626"/>',
    `<text x="120" y="86" text-anchor="middle" font-family="${FONT}" font-size="24" font-weight="800" fill="#fff">YOU WON</text>`,
    `<text x="120" y="130" text-anchor="middle" font-family="${FONT}" font-size="34" font-weight="900" fill="#fde047">5,000 USDC</text>`,
    `<text x="120" y="170" text-anchor="middle" font-family="${FONT}" font-size="14" fill="#fff">claim at free-usdc.example</text>`,
    '</svg>',
    '',
  ].join('\n')
}

/**
 * The seeded collections by slug.
 *
 * @example
 * DEVNET_COLLECTIONS.get('porthole-pals')?.art(1n) // '<svg …'
 */
export const DEVNET_COLLECTIONS: ReadonlyMap<string, DevnetCollection> = new Map(
  [
    {
      slug: 'porthole-pals',
      name: 'Porthole Pals',
      description: 'A view of the sea through a porthole, one per token. Devnet test collection.',
      art: palArt,
    },
    {
      slug: 'reward-vouchers',
      name: 'Reward Vouchers',
      description: 'Airdropped spam: there is no reward. Devnet test collection.',
      art: spamArt,
    },
  ].map((collection) => [collection.slug, collection]),
)

/** Metadata JSON of one token (ERC-721 metadata standard). */
export type CollectionMetadata = { name: string; description: string; image: string }

/**
 * Metadata of token `tokenId` of collection `slug`, its image on `publicUrl`; `undefined` for
 * an unknown collection or an id that is not a positive integer.
 *
 * @example
 * collectionMetadata('http://127.0.0.1:4300', 'porthole-pals', '3')
 * // { name: 'Porthole Pal #3', description: '…', image: 'http://127.0.0.1:4300/nft/v1/porthole-pals/3/image.svg' }
 */
export function collectionMetadata(
  publicUrl: string,
  slug: string,
  tokenId: string,
): CollectionMetadata | undefined {
  const collection = DEVNET_COLLECTIONS.get(slug)
  if (!collection || !/^[1-9]\d{0,30}$/.test(tokenId)) return undefined
  const singular = collection.name.replace(/s$/, '')
  return {
    name: `${singular} #${tokenId}`,
    description: collection.description,
    image: `${publicUrl}${NFT_METADATA_PATH}/${slug}/${tokenId}/image.svg`,
  }
}

/**
 * Resolves a token URI on this API (`<publicUrl>/nft/v1/<slug>/<id>`) without a request, for
 * the indexer running in the API process; `undefined` for any other URI.
 *
 * @example
 * const local = localCollectionMetadata('http://127.0.0.1:4300')
 * local('http://127.0.0.1:4300/nft/v1/porthole-pals/1')?.name // 'Porthole Pal #1'
 */
export function localCollectionMetadata(
  publicUrl: string,
): (uri: string) => { name: string; image: string } | undefined {
  const prefix = `${publicUrl}${NFT_METADATA_PATH}/`
  return (uri) => {
    if (!uri.startsWith(prefix)) return undefined
    const [slug, tokenId, ...rest] = uri.slice(prefix.length).split('/')
    if (rest.length || !slug || !tokenId) return undefined
    const metadata = collectionMetadata(publicUrl, slug, tokenId)
    return metadata && { name: metadata.name, image: metadata.image }
  }
}
