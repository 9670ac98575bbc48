/**
 * NFT metadata: the indexer reads each new ERC-721 token's `tokenURI` from the chain and
 * resolves the JSON it names (`name`, `image`). Fetching URLs that contracts choose is a
 * server-side request forgery risk, so only `data:` URIs, an IPFS gateway and an allowlist of
 * origins (by default the API's own, which serves the devnet collections) are fetched.
 */
import { encodeFunctionData, erc721Abi, type Hex, isHex } from 'viem'
import type { Db } from '../db/Db.js'
import type { Rpc } from './rpc.js'
import { decodeText } from './tokenMetadata.js'

/** What the index keeps of a token's metadata. */
export type NftMetadata = { name?: string; image?: string }

/** Resolves a token URI to its metadata, or `undefined` when it cannot (not allowed, failed). */
export type NftMetadataFetcher = (uri: string) => Promise<NftMetadata | undefined>

/** Options of {@link createNftMetadataFetcher}. */
export type CreateNftMetadataFetcherParameters = {
  /** Origins whose http(s) URIs may be fetched, or `'*'` for any. */
  allowedOrigins: readonly string[] | '*'
  /** Gateway for `ipfs://` URIs (e.g. `https://ipfs.io`); none by default. */
  ipfsGateway?: string | undefined
  /** Per fetch; default 3000 ms. */
  timeoutMs?: number
  /** Largest metadata document read; default 64 KiB. */
  maxBytes?: number
  /** Answers URIs without a request (the API's own collections); tried first. */
  local?: ((uri: string) => NftMetadata | undefined) | undefined
  /** Default the global `fetch`. */
  fetch?: typeof fetch
}

/**
 * A metadata fetcher with the allowlist, a timeout, a size limit and no redirects.
 *
 * @example
 * const fetcher = createNftMetadataFetcher({ allowedOrigins: ['http://127.0.0.1:4300'] })
 * await fetcher('http://127.0.0.1:4300/nft/v1/porthole-pals/1') // { name: 'Porthole Pal #1', image: '…' }
 */
export function createNftMetadataFetcher(
  parameters: CreateNftMetadataFetcherParameters,
): NftMetadataFetcher {
  const {
    allowedOrigins,
    ipfsGateway,
    timeoutMs = 3000,
    maxBytes = 64 * 1024,
    local,
    fetch: fetchFn = fetch,
  } = parameters
  const gateway = ipfsGateway?.replace(/\/+$/, '')
  const toHttp = (uri: string): string | undefined => {
    if (uri.startsWith('ipfs://'))
      return gateway ? `${gateway}/ipfs/${uri.slice(7).replace(/^ipfs\//, '')}` : undefined
    return /^https?:\/\//i.test(uri) ? uri : undefined
  }
  const allowed = (url: string) => {
    if (allowedOrigins === '*') return true
    const origin = new URL(url).origin
    return (
      allowedOrigins.includes(origin) ||
      (gateway !== undefined && origin === new URL(gateway).origin)
    )
  }
  const normaliseImage = (image: unknown): string | undefined => {
    if (typeof image !== 'string' || image.length > 2048) return undefined
    if (/^data:image\//i.test(image) || /^https?:\/\//i.test(image)) return image
    if (image.startsWith('ipfs://')) return toHttp(image)
    return undefined
  }
  const fromJson = (value: unknown): NftMetadata | undefined => {
    if (!value || typeof value !== 'object') return undefined
    const record = value as Record<string, unknown>
    const name = typeof record.name === 'string' ? record.name.slice(0, 200) : undefined
    const image = normaliseImage(record.image ?? record.image_url)
    return { ...(name ? { name } : {}), ...(image ? { image } : {}) }
  }

  return async (uri) => {
    const own = local?.(uri)
    if (own) return own
    try {
      if (uri.startsWith('data:')) return fromJson(JSON.parse(decodeDataUri(uri)))
      const url = toHttp(uri)
      if (!url || !allowed(url)) return undefined
      const response = await fetchFn(url, {
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/json' },
      })
      if (!response.ok) return undefined
      const body = await readLimited(response, maxBytes)
      return body === undefined ? undefined : fromJson(JSON.parse(body))
    } catch {
      return undefined
    }
  }
}

/** Options of {@link resolvePendingNfts}. */
export type ResolvePendingNftsParameters = {
  db: Db
  rpc: Rpc
  chainId: string
  fetcher: NftMetadataFetcher
  /** Tokens per round; default 100. */
  limit?: number
  /** Give up after this many attempts; default 5. */
  maxAttempts?: number
  /** Default `Date.now()`. */
  now?: number
}

/**
 * Resolves the metadata of up to `limit` ERC-721 tokens still pending on `chainId`: their
 * `tokenURI`s in one batch, then the documents (8 at a time). Failures are retried later with
 * backoff (5 s, 20 s, 80 s, …) and given up after `maxAttempts`. Returns how many were done.
 *
 * @example
 * await resolvePendingNfts({ db, rpc, chainId: 'eip155:31337', fetcher })
 */
export async function resolvePendingNfts(
  parameters: ResolvePendingNftsParameters,
): Promise<number> {
  const { db, rpc, chainId, fetcher, limit = 100, maxAttempts = 5, now = Date.now() } = parameters
  const pending = await db.query<{ contract: string; token_id: string; metadata_attempts: number }>(
    `SELECT contract, token_id, metadata_attempts FROM chain_nfts
     WHERE chain_id = ? AND metadata_state = 'pending' AND metadata_retry_at <= ?
     ORDER BY block_number LIMIT ?`,
    [chainId, now, limit],
  )
  if (!pending.length) return 0
  const uris = await rpc.batch(
    pending.map((nft) => ({
      method: 'eth_call',
      params: [
        {
          to: nft.contract,
          data: encodeFunctionData({
            abi: erc721Abi,
            functionName: 'tokenURI',
            args: [BigInt(nft.token_id)],
          }),
        },
        'latest',
      ],
    })),
  )
  const results: {
    nft: (typeof pending)[number]
    uri: string
    metadata: NftMetadata | undefined
  }[] = []
  let next = 0
  const worker = async () => {
    while (next < pending.length) {
      const index = next++
      const nft = pending[index]!
      const answer = uris[index]
      const uri =
        answer?.ok && typeof answer.result === 'string' && isHex(answer.result)
          ? decodeText({ ok: true, result: answer.result as Hex })
          : ''
      results.push({ nft, uri, metadata: uri ? await fetcher(uri) : undefined })
    }
  }
  await Promise.all(Array.from({ length: Math.min(8, pending.length) }, worker))
  await db.transaction(async (tx) => {
    for (const { nft, uri, metadata } of results) {
      const attempts = Number(nft.metadata_attempts) + 1
      const done = metadata !== undefined
      const state = done ? 'ok' : attempts >= maxAttempts ? 'failed' : 'pending'
      await tx.execute(
        `UPDATE chain_nfts SET token_uri = ?, name = ?, image_url = ?, metadata_state = ?,
         metadata_attempts = ?, metadata_retry_at = ?
         WHERE chain_id = ? AND contract = ? AND token_id = ?`,
        [
          uri || null,
          metadata?.name ?? null,
          metadata?.image ?? null,
          state,
          attempts,
          now + 5000 * 4 ** (attempts - 1),
          chainId,
          nft.contract,
          nft.token_id,
        ],
      )
    }
  })
  return results.length
}

/**
 * The text of a `data:` URI (base64 or percent-encoded).
 *
 * @example
 * decodeDataUri('data:application/json,%7B%7D') // '{}'
 */
export function decodeDataUri(uri: string): string {
  const comma = uri.indexOf(',')
  if (comma < 0) throw new Error('not a data URI')
  const header = uri.slice(5, comma)
  const payload = uri.slice(comma + 1)
  return /;base64$/i.test(header)
    ? Buffer.from(payload, 'base64').toString('utf8')
    : decodeURIComponent(payload)
}

async function readLimited(response: Response, maxBytes: number): Promise<string | undefined> {
  const length = Number(response.headers.get('content-length') ?? 0)
  if (length > maxBytes) return undefined
  if (!response.body) return await response.text()
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel()
      return undefined
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}
