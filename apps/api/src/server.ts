import type { AddressInfo } from 'node:net'
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
   * `PORTHOLE_INDEXER=off`: a stateless API fleet runs `indexerMain.ts` once beside it).
   */
  indexer?: boolean
}

/** A running API. */
export type StartApiReturnType = {
  /** Base URL, e.g. `http://127.0.0.1:4300`. */
  url: string
  port: number
  db: Db
  /** The indexer running in this process, if any. */
  indexer: Indexer | undefined
  /** Stops listening and the indexer, and closes the database it opened. */
  close(): Promise<void>
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
      })
      return createApp({ db, config: resolved }).fetch
    })
    const address = server.address() as AddressInfo
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`
    const chainData = resolved!.chainData
    const indexer =
      runIndexer && !chainData.externalUrl && chainData.chains.length
        ? createIndexer({
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
        : undefined
    indexer?.start()
    return {
      url,
      port: address.port,
      db,
      indexer,
      close: async () => {
        await indexer?.stop()
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        })
        if (!given) await db.close()
      },
    }
  } catch (error) {
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
