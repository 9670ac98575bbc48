import type { AddressInfo } from 'node:net'
import { hostname } from 'node:os'
import { dirname } from 'node:path'
import { serve } from '@hono/node-server'
import { endpoints, portOf } from '@porthole/shared'
import { createApp } from './app.js'
import { seedWallets } from './catalogue/seedWallets.js'
import { createIndexer, type Indexer } from './chaindata/createIndexer.js'
import { localCollectionMetadata } from './chaindata/devnetCollections.js'
import { createNftMetadataFetcher } from './chaindata/nftMetadata.js'
import { type ApiConfig, type ApiConfigOverrides, CONFIG_ENV, resolveConfig } from './config.js'
import type { Db } from './db/Db.js'
import { defaultDatabaseUrl, openDatabase } from './db/openDatabase.js'
import { filePath, isMemoryUrl } from './db/openSqlite.js'
import { electLeader, type LeaderElection } from './fleet/leader.js'
import { LOG_ENV, type Logger, silentLogger } from './fleet/logger.js'
import { type ApiMetrics, createApiMetrics } from './fleet/metrics.js'
import { openRedis } from './fleet/redis.js'
import { ProductionConfigError, productionProblems } from './production.js'
import { seedDemoProject } from './projects/seedDemoProject.js'

/** Options for {@link startApi}. */
export type StartApiParameters = ApiConfigOverrides & {
  /** Port; default the port of `endpoints().api` (4300). 0 picks a free one. */
  port?: number
  /** Interface; default 127.0.0.1. */
  host?: string
  /**
   * Database URL (default `PORTHOLE_DATABASE_URL`, else `.data/porthole.db`); ignored with `db`.
   * Unless `PORTHOLE_API_KEY_DIR` or `auth.keyDir` says otherwise, generated auth keys go next to
   * a SQLite file database (else to `.data/`).
   */
  databaseUrl?: string
  /** An open database to use instead (left open by `close()`). */
  db?: Db
  /** Create the demo project (`porthole-demo`) at start; default true. */
  seedDemo?: boolean
  /** The demo host origin its allowlist gets; default `endpoints().demo`. */
  demoOrigin?: string
  /**
   * Run the chain indexer in this process over `chainData.chains` (default off; never with an
   * external data provider). `main.ts` and the local stack turn it on (`main.ts` unless
   * `PORTHOLE_INDEXER=off`). On PostgreSQL every replica campaigns for one advisory lock and
   * only its holder indexes (`fleet/leader.ts`); another takes over when it goes.
   */
  indexer?: boolean
  /**
   * Redis shared by the replicas (`redis://…`): rate limits and balance caches live there.
   * Default `PORTHOLE_REDIS_URL`; unset: this process keeps them itself.
   */
  redisUrl?: string
  /** JSON logs (default: none). `main.ts` logs to stdout (`fleet/logger.ts`). */
  log?: Logger
  /** `PORTHOLE_METRICS_TOKEN`: when set, `/metrics` wants it as a bearer token. */
  metricsToken?: string
  /** How often a follower asks for the indexer lock; default 1000 ms. */
  leaderRetryMs?: number
}

/** A running API. */
export type StartApiReturnType = {
  /** Base URL, e.g. `http://127.0.0.1:4300`. */
  url: string
  port: number
  db: Db
  /** The indexer running in this process now, if any (on PostgreSQL: while it leads). */
  readonly indexer: Indexer | undefined
  /** Whether this process holds the indexer lock (always true for a lone indexer). */
  readonly leader: boolean
  metrics: ApiMetrics
  /**
   * Stops listening and the indexer, and closes the database it opened. With `drainMs`, first
   * answers `/readyz` 503, stops taking connections and lets requests in flight finish for up to
   * `drainMs` (SIGTERM in `main.ts`: 10 s).
   */
  close(options?: { drainMs?: number }): Promise<void>
}

/**
 * Opens the database (migrations applied), seeds the wallet catalogue (and the demo project
 * unless `seedDemo: false`), serves the API on loopback and, with `indexer: true`, starts the
 * chain indexer. In production (`PORTHOLE_ENV=production` or `production: true`) it first throws
 * {@link ProductionConfigError} when any development default is in use, naming each.
 *
 * @example
 * const api = await startApi({ port: 0, databaseUrl: ':memory:' })
 * await fetch(`${api.url}/health`) // { ok: true }
 * await api.close()
 */
export async function startApi(parameters: StartApiParameters = {}): Promise<StartApiReturnType> {
  const {
    port = portOf(endpoints().api),
    host = '127.0.0.1',
    databaseUrl,
    db: given,
    seedDemo = true,
    demoOrigin,
    indexer: runIndexer = false,
    redisUrl = process.env.PORTHOLE_REDIS_URL || undefined,
    log = silentLogger,
    metricsToken = process.env.PORTHOLE_METRICS_TOKEN || undefined,
    leaderRetryMs,
    ...config
  } = parameters
  const production = config.production ?? process.env[CONFIG_ENV.production] === 'production'
  if (production) {
    const problems = productionProblems(
      resolveConfig({
        ...config,
        production,
        publicUrl:
          config.publicUrl ?? (process.env[CONFIG_ENV.publicUrl] || `http://${host}:${port}`),
        auth: { ...keyDirOf(databaseUrl), ...config.auth },
      }),
      { seedDemo },
    )
    if (problems.length) throw new ProductionConfigError(problems)
  }
  const db = given ?? (await openDatabase(databaseUrl === undefined ? {} : { url: databaseUrl }))
  const redis = redisUrl
    ? await openRedis({
        url: redisUrl,
        onError: (error) => log.warn({ err: error.message }, 'redis unavailable'),
      })
    : undefined
  const metrics = createApiMetrics({
    labels: { replica: process.env[LOG_ENV.replica] || `${hostname()}:${process.pid}` },
  })
  let draining = false
  let inFlight = 0
  let idle: (() => void) | undefined
  let indexer: Indexer | undefined
  let election: LeaderElection | undefined
  try {
    await seedWallets(db)
    if (seedDemo) await seedDemoProject(db, demoOrigin === undefined ? {} : { demoOrigin })
    let resolved: ApiConfig | undefined
    const server = await listen(port, host, (boundUrl) => {
      resolved = resolveConfig({
        ...config,
        publicUrl: config.publicUrl ?? (process.env[CONFIG_ENV.publicUrl] || boundUrl),
        auth: {
          ...keyDirOf(given ? undefined : (databaseUrl ?? defaultDatabaseUrl())),
          ...config.auth,
        },
        ...(config.onError
          ? {}
          : { onError: (error: unknown) => log.error({ err: error }, 'unexpected error') }),
      })
      return createApp({
        db,
        config: resolved,
        fleet: {
          redis,
          metrics,
          log,
          metricsToken,
          draining: () => draining,
        },
      }).fetch
    })
    // Counted until each answer is fully written, which the drain waits for.
    server.on('request', (_request, response) => {
      inFlight++
      response.once('close', () => {
        inFlight--
        if (inFlight === 0) idle?.()
      })
    })
    const address = server.address() as AddressInfo
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`
    const chainData = resolved!.chainData
    const newIndexer = () =>
      createIndexer({
        db,
        chains: chainData.chains,
        pollIntervalMs: chainData.pollIntervalMs,
        rpcTimeoutMs: resolved!.rpcTimeoutMs,
        nftMetadata: createNftMetadataFetcher({
          allowedOrigins:
            chainData.nftMetadataOrigins === '*'
              ? '*'
              : [new URL(resolved!.publicUrl).origin, ...chainData.nftMetadataOrigins],
          ipfsGateway: chainData.ipfsGateway,
          local: localCollectionMetadata(resolved!.publicUrl),
        }),
      })
    if (runIndexer && !chainData.externalUrl && chainData.chains.length) {
      const electionUrl =
        db.dialect === 'postgres' ? (databaseUrl ?? process.env.PORTHOLE_DATABASE_URL) : undefined
      if (electionUrl) {
        election = electLeader({
          url: electionUrl,
          ...(leaderRetryMs === undefined ? {} : { retryMs: leaderRetryMs }),
          onElected: () => {
            indexer = newIndexer()
            indexer.start()
            log.info('indexer lock taken: this replica indexes')
          },
          onDeposed: async () => {
            const stopping = indexer
            indexer = undefined
            await stopping?.stop()
            log.warn('indexer lock lost: indexing stopped here')
          },
          onError: (error) => log.debug({ err: error }, 'indexer election'),
        })
        // A lone replica indexes from the start; in a fleet the first round decides who does.
        await election.firstRound
      } else {
        indexer = newIndexer()
        indexer.start()
      }
    }
    metrics.setIndexerSource(() => ({
      leader: election ? election.leader : indexer !== undefined,
      chains: indexer?.status() ?? [],
    }))
    return {
      url,
      port: address.port,
      db,
      get indexer() {
        return indexer
      },
      get leader() {
        return election ? election.leader : indexer !== undefined
      },
      metrics,
      close: async ({ drainMs = 0 } = {}) => {
        draining = true
        const closed = new Promise<void>((resolve) => server.close(() => resolve()))
        if (drainMs > 0 && inFlight > 0) {
          server.closeIdleConnections()
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, drainMs)
            idle = () => {
              clearTimeout(timer)
              resolve()
            }
          })
        }
        server.closeAllConnections()
        await closed
        await election?.stop()
        await indexer?.stop()
        redis?.disconnect()
        if (!given) await db.close()
      },
    }
  } catch (error) {
    await election?.stop()
    redis?.disconnect()
    if (!given) await db.close()
    throw error
  }
}

/** `{ keyDir }` beside a SQLite file database, unless the environment names a key directory. */
function keyDirOf(databaseUrl: string | undefined): { keyDir?: string } {
  if (process.env[CONFIG_ENV.keyDir] || !databaseUrl) return {}
  if (!databaseUrl.startsWith('file:') || isMemoryUrl(databaseUrl)) return {}
  return { keyDir: dirname(filePath(databaseUrl)) }
}

type Fetch = Parameters<typeof serve>[0]['fetch']

/** Listens first, then builds the handler, so `publicUrl` can name the port actually bound. */
async function listen(port: number, host: string, build: (publicUrl: string) => Fetch) {
  let handler: Fetch | undefined
  const server = serve({
    fetch: (request, env) => handler!(request, env),
    port,
    hostname: host,
  }) as import('node:http').Server
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', reject)
  })
  const bound = (server.address() as AddressInfo).port
  handler = build(`http://${host.includes(':') ? `[${host}]` : host}:${bound}`)
  return server
}
