/**
 * Runs the chain indexer alone, for a stateless API fleet started with `PORTHOLE_INDEXER=off`:
 * `node --import tsx apps/api/src/indexerMain.ts` (one process per database). It reads the same
 * configuration as the API: PORTHOLE_DATABASE_URL, PORTHOLE_RPC_UPSTREAMS,
 * PORTHOLE_INDEXER_CHAINS, PORTHOLE_INDEXER_POLL_MS, PORTHOLE_NFT_METADATA_ORIGINS,
 * PORTHOLE_IPFS_GATEWAY and PORTHOLE_API_PUBLIC_URL (the API whose devnet NFT metadata it may
 * fetch). On PostgreSQL it campaigns for the same advisory lock as the API replicas
 * (`fleet/leader.ts`) and indexes only while it holds it; on SQLite it indexes at once.
 */
import { createIndexer } from './chaindata/createIndexer.js'
import { createNftMetadataFetcher } from './chaindata/nftMetadata.js'
import { resolveConfig } from './config.js'
import { openDatabase, redactUrl } from './db/openDatabase.js'
import { electLeader } from './fleet/leader.js'

const config = resolveConfig()
const { chainData } = config
if (!chainData.chains.length) {
  console.error('No chain to index: set PORTHOLE_INDEXER_CHAINS (and PORTHOLE_RPC_UPSTREAMS).')
  process.exit(1)
}
const db = await openDatabase(
  process.env.PORTHOLE_DATABASE_URL ? { url: process.env.PORTHOLE_DATABASE_URL } : {},
)
const indexer = createIndexer({
  db,
  chains: chainData.chains,
  pollIntervalMs: chainData.pollIntervalMs,
  rpcTimeoutMs: config.rpcTimeoutMs,
  nftMetadata: createNftMetadataFetcher({
    allowedOrigins:
      chainData.nftMetadataOrigins === '*'
        ? '*'
        : [new URL(config.publicUrl).origin, ...chainData.nftMetadataOrigins],
    ipfsGateway: chainData.ipfsGateway,
  }),
})
const election =
  db.dialect === 'postgres' && process.env.PORTHOLE_DATABASE_URL
    ? electLeader({
        url: process.env.PORTHOLE_DATABASE_URL,
        onElected: () => indexer.start(),
        onDeposed: () => indexer.stop(),
        onError: (error) => console.warn('[indexer] election:', String(error)),
      })
    : undefined
if (!election) indexer.start()
console.log(
  `Porthole indexer following ${chainData.chains.map((chain) => chain.chainId).join(', ')} (database: ${redactUrl(process.env.PORTHOLE_DATABASE_URL ?? 'default .data/porthole.db')})`,
)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    if (stopping) return
    stopping = true
    Promise.resolve(election ? election.stop() : indexer.stop())
      .then(() => db.close())
      .then(
        () => process.exit(0),
        (error) => {
          console.error(error)
          process.exit(1)
        },
      )
  })
