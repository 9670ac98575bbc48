/**
 * Configuration of the blockchain data service (spec §7): which chains are indexed, known
 * tokens, prices, the spam list, caches, NFT metadata fetching, and an optional external data
 * provider that replaces the local index (a hosted deployment on mainnets).
 */
import {
  BITCOIN_REGTEST_CAIP,
  DEVNET_CHAIN_IDS,
  DEVNET_COLLECTIONS,
  DEVNET_TOKENS as SHARED_DEVNET_TOKENS,
  SOLANA_LOCAL_TOKEN,
  SOLANA_LOCALNET_CAIP,
} from '@porthole/shared'
import { z } from 'zod'
import type { IndexedChain } from './createIndexer.js'

/** A token the balance endpoint always reads on its chain (even if the account never touched it). */
export type KnownToken = { address: string; name: string; symbol: string; decimals: number }

/** Everything the blockchain data endpoints and the indexer need. */
export type ChainDataConfig = {
  /** The indexed chains (what `/v1/supported-chains` lists when the index answers). */
  chains: readonly IndexedChain[]
  /** Known tokens per CAIP-2 id. */
  knownTokens: Readonly<Record<string, readonly KnownToken[]>>
  /** USD prices keyed by `<caip2>:native` or CAIP-10 token id (lower case). */
  prices: Readonly<Record<string, number>>
  /** NFT contracts whose tokens are spam, as lower-case CAIP-10 ids. */
  spamContracts: readonly string[]
  /** How long a balance answer is reused per (chain, address) unless `forceUpdate`. */
  balanceCacheMs: number
  /** Indexer head polling interval. */
  pollIntervalMs: number
  /** Origins NFT metadata may be fetched from (`'*'`: any); the API's own is always allowed. */
  nftMetadataOrigins: readonly string[] | '*'
  /** Gateway for `ipfs://` metadata and images, if any. */
  ipfsGateway: string | undefined
  /**
   * Base URL of an external data provider speaking these same endpoints (query parameters in
   * it, such as its own `projectId`, are sent with every call); the local index is then unused.
   */
  externalUrl: string | undefined
  /**
   * Esplora REST API of each Bitcoin network answered for (CAIP-2 id → base URL, e.g. the local
   * regtest or `https://mempool.space/api`): balances of `bip122` accounts are read there.
   */
  esplora: Readonly<Record<string, string>>
  /**
   * JSON-RPC of each Solana network answered for (CAIP-2 id → URL): balances of `solana`
   * accounts (SOL and SPL tokens) are read there. By default the `solana:` entries of the RPC
   * proxy's `upstreams` (in development the local chain, `endpoints().solana`).
   */
  solana: Readonly<Record<string, string>>
}

/**
 * Environment variables of the blockchain data service.
 *
 * @example
 * process.env[CHAIN_DATA_ENV.prices] // PORTHOLE_PRICES
 */
export const CHAIN_DATA_ENV = {
  indexer: 'PORTHOLE_INDEXER',
  chains: 'PORTHOLE_INDEXER_CHAINS',
  pollMs: 'PORTHOLE_INDEXER_POLL_MS',
  prices: 'PORTHOLE_PRICES',
  knownTokens: 'PORTHOLE_KNOWN_TOKENS',
  spam: 'PORTHOLE_SPAM_CONTRACTS',
  balanceCacheMs: 'PORTHOLE_BALANCE_CACHE_MS',
  nftOrigins: 'PORTHOLE_NFT_METADATA_ORIGINS',
  ipfsGateway: 'PORTHOLE_IPFS_GATEWAY',
  externalUrl: 'PORTHOLE_CHAIN_DATA_URL',
  esplora: 'PORTHOLE_ESPLORA_UPSTREAMS',
} as const

/** The devnets of the local stack (apps/devnet; their contracts are in `@porthole/shared`). */
export { DEVNET_CHAIN_IDS }

/**
 * pUSD and PRT, at the same addresses on both devnets (dev account 0, nonces 0 and 1).
 *
 * @example
 * DEVNET_TOKENS[0].symbol // 'pUSD'
 */
export const DEVNET_TOKENS: readonly KnownToken[] = SHARED_DEVNET_TOKENS

/**
 * The seeded spam NFT collection on the devnets (dev account 0, nonce 23).
 *
 * @example
 * `eip155:31337:${DEVNET_SPAM_COLLECTION}` // in the default spam list
 */
export const DEVNET_SPAM_COLLECTION = DEVNET_COLLECTIONS.find((c) => c.spam)?.address as string

/**
 * pUSD on the local Solana chain (an SPL token: `address` is its mint).
 *
 * @example
 * SOLANA_LOCAL_TOKENS[0].address // 'D7H6SUokngbq8FcKMRxVHykdWrveHNupeJyZZQFbHJEA'
 */
export const SOLANA_LOCAL_TOKENS: readonly KnownToken[] = [
  {
    address: SOLANA_LOCAL_TOKEN.mint,
    name: SOLANA_LOCAL_TOKEN.name,
    symbol: SOLANA_LOCAL_TOKEN.symbol,
    decimals: SOLANA_LOCAL_TOKEN.decimals,
  },
]

/**
 * Default USD prices: the devnets' ETH 3000, pUSD 1, PRT 0.25; the local regtest's BTC 100,000;
 * the local Solana chain's SOL 150 and pUSD 1.
 *
 * @example
 * DEFAULT_PRICES['eip155:31337:native'] // 3000
 */
export const DEFAULT_PRICES: Readonly<Record<string, number>> = Object.fromEntries([
  ...DEVNET_CHAIN_IDS.flatMap((chain) => [
    [`${chain}:native`, 3000],
    [`${chain}:${DEVNET_TOKENS[0]!.address.toLowerCase()}`, 1],
    [`${chain}:${DEVNET_TOKENS[1]!.address.toLowerCase()}`, 0.25],
  ]),
  [`${BITCOIN_REGTEST_CAIP}:native`, 100_000],
  [`${SOLANA_LOCALNET_CAIP}:native`, 150],
  [`${SOLANA_LOCALNET_CAIP}:${SOLANA_LOCAL_TOKEN.mint.toLowerCase()}`, 1],
])

/**
 * Default balance cache per (chain, address).
 *
 * @example
 * createTtlCache({ ttlMs: DEFAULT_BALANCE_CACHE_MS })
 */
export const DEFAULT_BALANCE_CACHE_MS = 5000

/**
 * Thrown for an invalid blockchain data setting.
 *
 * @example
 * resolveChainDataConfig({ PORTHOLE_PRICES: 'x' }, { upstreams }) // throws InvalidChainDataConfigError
 */
export class InvalidChainDataConfigError extends Error {
  override name = 'InvalidChainDataConfigError' as const
}

const Caip2 = z.string().regex(/^eip155:[1-9]\d{0,15}$/, 'an eip155 CAIP-2 id')
const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'a 0x address')
const ChainsJson = z.record(
  Caip2,
  z.object({
    startBlock: z.union([z.number().int().min(0), z.literal('latest')]).default(0),
    confirmations: z.number().int().min(0).max(1000).default(0),
    rpcUrl: z.url({ protocol: /^https?$/ }).optional(),
  }),
)
const PricesJson = z.record(
  z
    .string()
    .regex(
      /^(eip155:\d+:(native|0x[0-9a-fA-F]{40})|bip122:[0-9a-f]{32}:native|solana:[1-9A-HJ-NP-Za-km-z]{32}:(native|[1-9A-HJ-NP-Za-km-z]{32,44}))$/,
      '<caip2>:native or a CAIP-10 id',
    ),
  z.number().min(0),
)
const KnownTokensJson = z.record(
  Caip2,
  z.array(
    z.object({
      address: Address,
      name: z.string().max(100),
      symbol: z.string().max(32),
      decimals: z.number().int().min(0).max(255),
    }),
  ),
)
const Caip10 = z.string().regex(/^eip155:\d+:0x[0-9a-fA-F]{40}$/, 'a CAIP-10 contract id')
const EsploraJson = z.record(
  z.string().regex(/^bip122:[0-9a-f]{32}$/, 'a bip122 CAIP-2 id'),
  z.url({ protocol: /^https?$/ }),
)

/**
 * Resolves the blockchain data configuration from the environment. Indexed chains default to
 * the two devnets, each read through its `upstreams` entry; `PORTHOLE_INDEXER_CHAINS` is a
 * comma list of CAIP-2 ids or JSON `{ "<caip2>": { startBlock, confirmations, rpcUrl } }`.
 * Bitcoin networks are read through `esplora` (default none) and `PORTHOLE_ESPLORA_UPSTREAMS`,
 * JSON `{ "bip122:<ref>": "<Esplora base URL>" }` merged over it. Solana networks are the
 * `solana:` entries of `upstreams`.
 *
 * @example
 * const config = resolveChainDataConfig({}, { upstreams: { 'eip155:31337': 'http://127.0.0.1:8545' } })
 * config.chains[0] // { chainId: 'eip155:31337', rpcUrl: 'http://127.0.0.1:8545', startBlock: 0, confirmations: 0 }
 */
export function resolveChainDataConfig(
  env: Record<string, string | undefined>,
  {
    upstreams,
    esplora = {},
  }: { upstreams: Readonly<Record<string, string>>; esplora?: Readonly<Record<string, string>> },
): ChainDataConfig {
  const chainsText = env[CHAIN_DATA_ENV.chains]?.trim()
  let chainEntries: [
    string,
    { startBlock: number | 'latest'; confirmations: number; rpcUrl?: string | undefined },
  ][]
  if (chainsText?.startsWith('{'))
    chainEntries = Object.entries(parseJson(ChainsJson, chainsText, CHAIN_DATA_ENV.chains))
  else
    chainEntries = (chainsText ? chainsText.split(',') : [...DEVNET_CHAIN_IDS])
      .map((id) => id.trim())
      .filter(Boolean)
      .map((id) => {
        if (!Caip2.safeParse(id).success)
          throw new InvalidChainDataConfigError(
            `${CHAIN_DATA_ENV.chains}: ${id} is not an eip155 CAIP-2 id`,
          )
        return [id, { startBlock: 0, confirmations: 0 }]
      })
  const chains: IndexedChain[] = []
  for (const [chainId, options] of chainEntries) {
    const rpcUrl = options.rpcUrl ?? upstreams[chainId]
    if (!rpcUrl) {
      // The default devnets are indexed only when the API knows their RPC.
      if (chainsText)
        throw new InvalidChainDataConfigError(
          `${CHAIN_DATA_ENV.chains}: no RPC for ${chainId} (add it to PORTHOLE_RPC_UPSTREAMS)`,
        )
      continue
    }
    chains.push({
      chainId,
      rpcUrl,
      startBlock: options.startBlock,
      confirmations: options.confirmations,
    })
  }

  const knownTokens: Record<string, readonly KnownToken[]> = Object.fromEntries([
    ...DEVNET_CHAIN_IDS.map((chain) => [chain, DEVNET_TOKENS]),
    [SOLANA_LOCALNET_CAIP, SOLANA_LOCAL_TOKENS],
  ])
  if (env[CHAIN_DATA_ENV.knownTokens])
    Object.assign(
      knownTokens,
      parseJson(KnownTokensJson, env[CHAIN_DATA_ENV.knownTokens]!, CHAIN_DATA_ENV.knownTokens),
    )

  const prices: Record<string, number> = { ...DEFAULT_PRICES }
  if (env[CHAIN_DATA_ENV.prices])
    for (const [key, value] of Object.entries(
      parseJson(PricesJson, env[CHAIN_DATA_ENV.prices]!, CHAIN_DATA_ENV.prices),
    ))
      prices[key.toLowerCase()] = value

  const spamText = env[CHAIN_DATA_ENV.spam]
  const spamContracts =
    spamText === undefined
      ? DEVNET_CHAIN_IDS.map((chain) => `${chain}:${DEVNET_SPAM_COLLECTION}`.toLowerCase())
      : spamText
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean)
          .map((id) => {
            if (!Caip10.safeParse(id).success)
              throw new InvalidChainDataConfigError(
                `${CHAIN_DATA_ENV.spam}: ${id} is not a CAIP-10 id`,
              )
            return id.toLowerCase()
          })

  const origins = env[CHAIN_DATA_ENV.nftOrigins]?.trim()
  const externalUrl = env[CHAIN_DATA_ENV.externalUrl]?.trim() || undefined
  if (externalUrl && !/^https?:\/\//.test(externalUrl))
    throw new InvalidChainDataConfigError(`${CHAIN_DATA_ENV.externalUrl} must be an http(s) URL`)
  const ipfsGateway = env[CHAIN_DATA_ENV.ipfsGateway]?.trim() || undefined
  if (ipfsGateway && !/^https?:\/\//.test(ipfsGateway))
    throw new InvalidChainDataConfigError(`${CHAIN_DATA_ENV.ipfsGateway} must be an http(s) URL`)
  return {
    chains,
    knownTokens,
    prices,
    spamContracts,
    balanceCacheMs:
      nonNegative(env[CHAIN_DATA_ENV.balanceCacheMs], CHAIN_DATA_ENV.balanceCacheMs) ??
      DEFAULT_BALANCE_CACHE_MS,
    pollIntervalMs: nonNegative(env[CHAIN_DATA_ENV.pollMs], CHAIN_DATA_ENV.pollMs) ?? 500,
    nftMetadataOrigins:
      origins === '*'
        ? '*'
        : (origins ?? '')
            .split(',')
            .map((origin) => origin.trim())
            .filter(Boolean)
            .map((origin) => new URL(origin).origin),
    ipfsGateway,
    externalUrl,
    esplora: {
      ...esplora,
      ...(env[CHAIN_DATA_ENV.esplora]
        ? parseJson(EsploraJson, env[CHAIN_DATA_ENV.esplora]!, CHAIN_DATA_ENV.esplora)
        : {}),
    },
    solana: Object.fromEntries(
      Object.entries(upstreams).filter(([chainId]) => chainId.startsWith('solana:')),
    ),
  }
}

/**
 * Whether the API process runs the indexer: on unless `PORTHOLE_INDEXER` is `off` (or `0`,
 * `false`), for a stateless API fleet with a separate indexer process (`indexerMain.ts`).
 *
 * @example
 * indexerEnabled({ PORTHOLE_INDEXER: 'off' }) // false
 */
export function indexerEnabled(env: Record<string, string | undefined>): boolean {
  const value = env[CHAIN_DATA_ENV.indexer]?.trim().toLowerCase()
  return !(value === 'off' || value === '0' || value === 'false')
}

function parseJson<Schema extends z.ZodType>(
  schema: Schema,
  text: string,
  name: string,
): z.output<Schema> {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    throw new InvalidChainDataConfigError(`${name} is not JSON`)
  }
  const parsed = schema.safeParse(raw)
  if (!parsed.success)
    throw new InvalidChainDataConfigError(`${name}: ${z.prettifyError(parsed.error)}`)
  return parsed.data
}

function nonNegative(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined
  const number = Number(value)
  if (!Number.isFinite(number) || number < 0)
    throw new InvalidChainDataConfigError(`${name} must be a number ≥ 0`)
  return number
}
