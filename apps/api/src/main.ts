/**
 * Runs the API from the environment: `npx tsx apps/api/src/main.ts`.
 * PORTHOLE_API_URL (address, default http://127.0.0.1:4300), PORTHOLE_DATABASE_URL,
 * PORTHOLE_RPC_UPSTREAMS, PORTHOLE_RATE_LIMIT_PER_SECOND / _BURST, PORTHOLE_API_CORS_ORIGINS,
 * PORTHOLE_API_PUBLIC_URL, PORTHOLE_API_TRUST_PROXY (proxies in front, default 0), PORTHOLE_SEED_DEMO=0 (see `CONFIG_ENV`).
 * PORTHOLE_ENV=production refuses to start on any development default and lists each (`production.ts`).
 * A fleet of replicas (README "Production shape"): PORTHOLE_DATABASE_URL=postgres://…,
 * PORTHOLE_REDIS_URL (shared rate limits and caches), PORTHOLE_REPLICA_ID (name in logs and
 * metrics), PORTHOLE_LOG_LEVEL (JSON lines on stdout; default info), PORTHOLE_METRICS_TOKEN
 * (bearer token for /metrics). On PostgreSQL only the replica holding the indexer lock indexes.
 * SIGTERM drains: /readyz answers 503, requests in flight get up to 10 s, then the process exits.
 * Embedded-wallet auth (README.md beside this package): PORTHOLE_SMTP_URL, PORTHOLE_MAIL_FROM,
 * PORTHOLE_WALLET_URL, PORTHOLE_OIDC_URL, PORTHOLE_SOCIAL_<PROVIDER>_ISSUER / _CLIENT_ID /
 * _CLIENT_SECRET, PORTHOLE_SHARE_KEY, PORTHOLE_API_SIGNING_KEY, PORTHOLE_API_KEY_DIR.
 * Blockchain data (see `chaindata/config.ts`): PORTHOLE_INDEXER=off (no indexer in this process),
 * PORTHOLE_INDEXER_CHAINS, PORTHOLE_INDEXER_POLL_MS, PORTHOLE_PRICES, PORTHOLE_KNOWN_TOKENS,
 * PORTHOLE_SPAM_CONTRACTS, PORTHOLE_BALANCE_CACHE_MS, PORTHOLE_NFT_METADATA_ORIGINS,
 * PORTHOLE_IPFS_GATEWAY, PORTHOLE_CHAIN_DATA_URL.
 * Swaps (see `convert/config.ts`): PORTHOLE_SWAP_ROUTERS, PORTHOLE_SWAP_PROVIDER_URL.
 * ERC-4337 (see `paymaster/config.ts`): PORTHOLE_BUNDLER_UPSTREAMS, PORTHOLE_PAYMASTER_KEY,
 * PORTHOLE_PAYMASTERS.
 */
import { hostname } from 'node:os'
import { endpoints, portOf } from '@porthole/shared'
import { indexerEnabled } from './chaindata/config.js'
import { redactUrl } from './db/openDatabase.js'
import { createLogger, LOG_ENV } from './fleet/logger.js'
import { ProductionConfigError } from './production.js'
import { startApi } from './server.js'

const log = createLogger({
  replica: process.env[LOG_ENV.replica] || `${hostname()}:${process.pid}`,
})
const apiUrl = new URL(endpoints().api)
const api = await startApi({
  log,
  port: portOf(apiUrl.href),
  host: apiUrl.hostname.replace(/^\[|\]$/g, ''),
  ...(process.env.PORTHOLE_DATABASE_URL ? { databaseUrl: process.env.PORTHOLE_DATABASE_URL } : {}),
  seedDemo: process.env.PORTHOLE_SEED_DEMO !== '0',
  indexer: indexerEnabled(process.env),
}).catch((error: unknown) => {
  if (!(error instanceof ProductionConfigError)) throw error
  console.error(error.message)
  process.exit(1)
})
log.info(
  {
    url: api.url,
    database: redactUrl(process.env.PORTHOLE_DATABASE_URL ?? 'default .data/porthole.db'),
    redis: process.env.PORTHOLE_REDIS_URL ? redactUrl(process.env.PORTHOLE_REDIS_URL) : 'off',
  },
  `Porthole API listening on ${api.url}`,
)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    if (stopping) return
    stopping = true
    log.info({ signal }, 'draining')
    api.close({ drainMs: signal === 'SIGTERM' ? 10_000 : 0 }).then(
      () => {
        log.info('stopped')
        log.flush(() => process.exit(0))
      },
      (error) => {
        log.error({ err: error }, 'stop failed')
        log.flush(() => process.exit(1))
      },
    )
  })
