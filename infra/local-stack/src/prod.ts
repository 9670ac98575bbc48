import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { openDatabase, productionProblems, resolveConfig } from '@porthole/api'
import { allowOrigin, trustOrigin } from '@porthole/api/projects'
import { DEMO_PROJECT_ID, endpoints, portOf } from '@porthole/shared'
import { readSdkVersion } from '@porthole/static-hosting'
import { BUILD_OUTPUTS, type Stack, startStack } from './index.js'
import { type CheckNginxReturnType, checkNginx, writeProdNginx } from './prodNginx.js'
import { type SupervisedProcess, superviseProcess } from './prodProcess.js'
import { type ProdStore, startPostgres, startRedis } from './prodStores.js'
import { busyPorts, stackPorts } from './stackPorts.js'

const ROOT = resolve(import.meta.dirname, '../../..')

/** Environment variables of the production stack (besides `endpoints()`' and the API's). */
export const PROD_ENV = {
  /**
   * Folder for the cluster, Redis, keys, logs and nginx; kept. Default a temp folder, removed on
   * stop. Run as root, its parents must let the `postgres` user through (mode o+x).
   */
  dir: 'PORTHOLE_PROD_DIR',
  /** Ports of the API replicas, comma-separated; default `4311,4312,4313`. */
  apiPorts: 'PORTHOLE_PROD_API_PORTS',
  /** PostgreSQL's port; default 4380. */
  postgresPort: 'PORTHOLE_PROD_POSTGRES_PORT',
  /** Redis's port; default 4381. */
  redisPort: 'PORTHOLE_PROD_REDIS_PORT',
  /** The stack's control endpoint (loopback only; `prodControl.ts`); default http://127.0.0.1:4390. */
  controlUrl: 'PORTHOLE_PROD_CONTROL_URL',
} as const

/** Where the production stack's own parts listen. */
export type ProdPorts = {
  api: number[]
  postgres: number
  redis: number
  controlUrl: string
}

/**
 * The production stack's ports from the environment ({@link PROD_ENV}).
 *
 * @example
 * prodPorts({}) // { api: [4311, 4312, 4313], postgres: 4380, redis: 4381, controlUrl: 'http://127.0.0.1:4390' }
 */
export function prodPorts(env: Record<string, string | undefined> = process.env): ProdPorts {
  const number = (name: string, fallback: number) => {
    const value = Number(env[name] || fallback)
    if (!Number.isInteger(value) || value <= 0 || value > 65535)
      throw new Error(`${name} must be a port number`)
    return value
  }
  const api = (env[PROD_ENV.apiPorts] || '4311,4312,4313').split(',').map((port) => {
    const value = Number(port.trim())
    if (!Number.isInteger(value) || value <= 0 || value > 65535)
      throw new Error(`${PROD_ENV.apiPorts} must list port numbers`)
    return value
  })
  return {
    api,
    postgres: number(PROD_ENV.postgresPort, 4380),
    redis: number(PROD_ENV.redisPort, 4381),
    controlUrl: (env[PROD_ENV.controlUrl] || 'http://127.0.0.1:4390').replace(/\/+$/, ''),
  }
}

/** One API replica. */
export type ProdReplica = {
  /** `api-1`, `api-2`… (PORTHOLE_REPLICA_ID). */
  id: string
  /** Its own address (`/metrics`, `/readyz`), not the public one. */
  url: string
  process: SupervisedProcess
  logFile: string
}

/** What a running production stack reports (the control endpoint's `GET /state`). */
export type ProdStackState = {
  urls: Stack['urls']
  projectId: string
  tokens: Stack['tokens']
  dir: string
  logsDir: string
  databaseUrl: string
  redisUrl: string
  replicas: { id: string; url: string; pid: number | undefined; starts: number }[]
  postgres: { pid: number | undefined; starts: number; dataDir: string }
  redis: { pid: number | undefined; starts: number }
  nginx: { pid: number | undefined; config: string; accessLog: string }
}

/** A running production stack. */
export type ProdStack = {
  urls: Stack['urls']
  projectId: string
  tokens: Stack['tokens']
  dir: string
  logsDir: string
  replicas: ProdReplica[]
  postgres: ProdStore
  redis: ProdStore
  nginx: SupervisedProcess
  /** The main nginx.conf written for this run. */
  nginxConfig: string
  /** What `PORTHOLE_ENV=production` would refuse in the replicas' configuration. */
  productionProblems: string[]
  state(): ProdStackState
  /**
   * Kills replica `id` (SIGKILL, as a crash): it is started again after 1 s, unless `hold`
   * (then by {@link ProdStack.startReplica}).
   */
  killReplica(id: string, options?: { hold?: boolean }): Promise<void>
  startReplica(id: string): Promise<void>
  /** Fast shutdown of PostgreSQL, `downMs` down, started again; resolves once it answers. */
  restartPostgres(downMs: number): Promise<void>
  /** Stops Redis, `downMs` down, started again; resolves once it answers. */
  restartRedis(downMs: number): Promise<void>
  /** Stops everything: nginx, the replicas (drained), the services, Redis and PostgreSQL. */
  stop(): Promise<void>
}

/** Options of {@link startProdStack}. */
export type StartProdStackParameters = {
  /** Environment of the replicas and the source of every setting; default `process.env`. */
  env?: NodeJS.ProcessEnv
  /** Print progress lines. */
  log?: (line: string) => void
}

/**
 * Starts the production stack; if any part fails, what already started is stopped again.
 * The replicas get the local stack's configuration (the same RPC upstreams, bundlers, mail,
 * OpenID provider, on-ramp… from `endpoints()`) plus `PORTHOLE_API_URL` (their own address),
 * `PORTHOLE_API_PUBLIC_URL` (nginx's), `PORTHOLE_API_TRUST_PROXY=1`, `PORTHOLE_DATABASE_URL`,
 * `PORTHOLE_REDIS_URL`, `PORTHOLE_REPLICA_ID`, a shared `PORTHOLE_API_KEY_DIR` and
 * `PORTHOLE_SHARE_KEY`. Unless set, `PORTHOLE_RECOVERY_DATA_DIR` and
 * `PORTHOLE_RELAY_DATABASE_URL` point into the stack's folder.
 *
 * @example
 * const stack = await startProdStack({ log: console.log })
 * await fetch(`${stack.urls.api}/healthz`)
 * await stack.stop()
 */
export async function startProdStack(
  parameters: StartProdStackParameters = {},
): Promise<ProdStack> {
  const env = parameters.env ?? process.env
  const log = parameters.log ?? (() => {})
  const urls = endpoints(env)
  const ports = prodPorts(env)
  for (const [name, path] of Object.entries(BUILD_OUTPUTS))
    if (!existsSync(path))
      throw new Error(`Missing build output for ${name} (${path}): run npm run build`)
  const nginxCheck = checkNginx()
  if (nginxCheck.problems.length) throw new Error(nginxCheck.problems.join('\n'))
  const busy = await busyPorts([
    ...stackPorts(urls),
    ...ports.api,
    ports.postgres,
    ports.redis,
    portOf(ports.controlUrl),
  ])
  if (busy.length)
    throw new Error(
      `Ports ${busy.join(', ')} are in use: stop \`npm start\` / \`npm run stack:prod\` (or whatever holds them) first.`,
    )

  const given = env[PROD_ENV.dir]
  const dir = given ? resolve(given) : mkdtempSync(join(tmpdir(), 'porthole-prod-'))
  mkdirSync(dir, { recursive: true })
  // PostgreSQL (its own user) and nginx's workers (nobody) go through it; what is secret has
  // folders of its own (0700).
  chmodSync(dir, 0o711)
  const logsDir = join(dir, 'logs')
  mkdirSync(logsDir, { recursive: true })
  const keyDir = join(dir, 'api-keys')
  mkdirSync(keyDir, { recursive: true, mode: 0o700 })
  const shareKeyFile = join(keyDir, 'api-share.key')
  if (!env.PORTHOLE_SHARE_KEY && !existsSync(shareKeyFile))
    writeFileSync(shareKeyFile, randomBytes(32).toString('base64'), { mode: 0o600 })
  const shareKey = env.PORTHOLE_SHARE_KEY || readFileSync(shareKeyFile, 'utf8').trim()
  // The in-process services read these (the recovery service's key, the relay's mailbox).
  process.env.PORTHOLE_RECOVERY_DATA_DIR ||= join(dir, 'recovery')
  process.env.PORTHOLE_RELAY_DATABASE_URL ||= `file:${join(dir, 'relay.db')}`

  const stops: (() => Promise<void>)[] = []
  const stop = async () => {
    for (const fn of stops.splice(0).reverse()) await fn().catch(() => {})
    if (!given) rmSync(dir, { recursive: true, force: true })
  }
  try {
    // All three settle before anything is judged, so a failure stops what the others started.
    const settled = await Promise.allSettled([
      startPostgres({
        dir: join(dir, 'postgres'),
        port: ports.postgres,
        logFile: join(logsDir, 'postgres.log'),
        log,
      }).then((store) => {
        stops.push(store.stop)
        log(`postgres  ${store.url} (PostgreSQL, data in ${join(dir, 'postgres', 'data')})`)
        return store
      }),
      startRedis({
        dir: join(dir, 'redis'),
        port: ports.redis,
        logFile: join(logsDir, 'redis.log'),
        log,
      }).then((store) => {
        stops.push(store.stop)
        log(`redis     ${store.url} (no persistence)`)
        return store
      }),
      startStack({ log, apiAndFrontends: false }).then((stack) => {
        stops.push(stack.stop)
        return stack
      }),
    ])
    for (const result of settled) if (result.status === 'rejected') throw result.reason
    const [postgres, redis, services] = settled.map(
      (result) => (result as PromiseFulfilledResult<unknown>).value,
    ) as [ProdStore, ProdStore, Stack]

    const replicaEnv = (id: string, port: number): NodeJS.ProcessEnv => ({
      ...env,
      PORTHOLE_API_URL: `http://127.0.0.1:${port}`,
      PORTHOLE_API_PUBLIC_URL: urls.api,
      PORTHOLE_API_TRUST_PROXY: '1',
      PORTHOLE_DATABASE_URL: postgres.url,
      PORTHOLE_REDIS_URL: redis.url,
      PORTHOLE_SEED_DEMO: env.PORTHOLE_SEED_DEMO ?? '1',
      PORTHOLE_REPLICA_ID: id,
      PORTHOLE_API_KEY_DIR: keyDir,
      PORTHOLE_SHARE_KEY: shareKey,
    })
    const replicas: ProdReplica[] = ports.api.map((port, index) => {
      const id = `api-${index + 1}`
      const logFile = join(logsDir, `${id}.log`)
      return {
        id,
        url: `http://127.0.0.1:${port}`,
        logFile,
        process: superviseProcess({
          name: id,
          command: process.execPath,
          args: ['--import', 'tsx', join(ROOT, 'apps/api/src/main.ts')],
          cwd: ROOT,
          env: replicaEnv(id, port),
          logFile,
          stopSignal: 'SIGTERM',
          // The API drains in-flight requests for up to 10 s.
          stopTimeoutMs: 15_000,
          restartDelayMs: 1000,
          log,
        }),
      }
    })
    stops.push(async () => {
      await Promise.all(replicas.map((replica) => replica.process.stop()))
    })
    await Promise.all(replicas.map((replica) => waitReady(replica, log)))
    for (const replica of replicas)
      log(
        `${replica.id.padEnd(9)} ${replica.url} (pid ${replica.process.pid()}, log ${replica.logFile})`,
      )

    // The wagmi example is a second host site of the demo project, and both are vetted for
    // approvals in the page (as in `npm start`).
    const db = await openDatabase({ url: postgres.url })
    try {
      await allowOrigin(db, { projectId: DEMO_PROJECT_ID, origin: urls.wagmiExample })
      for (const origin of [urls.demo, urls.wagmiExample])
        await trustOrigin(db, { projectId: DEMO_PROJECT_ID, origin })
    } finally {
      await db.close()
    }

    const nginxDir = join(dir, 'nginx')
    const nginx = startNginx({
      dir: nginxDir,
      logsDir,
      urls,
      replicas: ports.api.map((port) => `127.0.0.1:${port}`),
      nginx: nginxCheck,
      env,
      log,
    })
    stops.push(() => nginx.process.stop())
    await waitForHttp(`${urls.modal}/sdk.js`, 15_000, nginx.process)
    log(
      `nginx     ${urls.modal} (modal, /sdk.js), ${urls.wallet} (wallet), ${urls.api} (API over ${replicas.length} replicas; config ${nginx.mainConfig})`,
    )

    const problems = productionProblems(
      resolveConfig({}, replicaEnv('api-1', ports.api[0] as number)),
      { seedDemo: true },
    )
    const state = (): ProdStackState => ({
      urls,
      projectId: services.projectId,
      tokens: services.tokens,
      dir,
      logsDir,
      databaseUrl: postgres.url,
      redisUrl: redis.url,
      replicas: replicas.map((replica) => ({
        id: replica.id,
        url: replica.url,
        pid: replica.process.pid(),
        starts: replica.process.starts(),
      })),
      postgres: {
        pid: postgres.process.pid(),
        starts: postgres.process.starts(),
        dataDir: join(dir, 'postgres', 'data'),
      },
      redis: { pid: redis.process.pid(), starts: redis.process.starts() },
      nginx: {
        pid: nginx.process.pid(),
        config: nginx.mainConfig,
        accessLog: join(logsDir, 'nginx-access.log'),
      },
    })
    const replicaById = (id: string) => {
      const replica = replicas.find((r) => r.id === id)
      if (!replica) throw new Error(`No replica ${id}`)
      return replica
    }
    return {
      urls,
      projectId: services.projectId,
      tokens: services.tokens,
      dir,
      logsDir,
      replicas,
      postgres,
      redis,
      nginx: nginx.process,
      nginxConfig: nginx.mainConfig,
      productionProblems: problems,
      state,
      killReplica: (id, options) => replicaById(id).process.kill('SIGKILL', options),
      startReplica: async (id) => {
        const replica = replicaById(id)
        replica.process.start()
        await waitReady(replica, log)
      },
      restartPostgres: (downMs) => postgres.restart(downMs),
      restartRedis: (downMs) => redis.restart(downMs),
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

/** Options of {@link startNginx}. */
type StartNginxParameters = {
  dir: string
  logsDir: string
  urls: Stack['urls']
  replicas: string[]
  nginx: CheckNginxReturnType
  env: NodeJS.ProcessEnv
  log: (line: string) => void
}

/** Writes the configuration (checked with `nginx -t`) and runs nginx in the foreground. */
function startNginx(parameters: StartNginxParameters) {
  const { dir, urls } = parameters
  // The SDK as porthole.conf expects it: the latest at sdk/sdk.js, this release at
  // sdk/<version>/ (links to the build, with its .br and .gz).
  const sdkDir = join(dir, 'srv', 'sdk')
  const version = readSdkVersion()
  mkdirSync(join(sdkDir, version), { recursive: true })
  const sdkBuild = dirname(BUILD_OUTPUTS.sdk)
  for (const suffix of ['', '.br', '.gz']) {
    link(join(sdkBuild, `sdk.js${suffix}`), join(sdkDir, `sdk.js${suffix}`))
    for (const file of ['sdk.js', 'sdk-chains.js', 'sdk-calls.js'])
      link(join(sdkBuild, file + suffix), join(sdkDir, version, file + suffix))
  }
  chmodSync(join(dir, 'srv'), 0o755)
  const { mainConfig, args } = writeProdNginx({
    dir,
    logsDir: parameters.logsDir,
    nginx: parameters.nginx,
    urls,
    replicas: parameters.replicas,
    rpcOrigins: [urls.devnet, urls.devnetB, urls.bitcoin, urls.solana],
    walletConnectProjectId: parameters.env.PORTHOLE_WALLETCONNECT_PROJECT_ID,
    roots: { modal: BUILD_OUTPUTS.modal, wallet: BUILD_OUTPUTS.wallet, sdk: sdkDir },
  })
  const process_ = superviseProcess({
    name: 'nginx',
    command: parameters.nginx.binary,
    args,
    logFile: join(parameters.logsDir, 'nginx.log'),
    // Graceful: workers finish their requests.
    stopSignal: 'SIGQUIT',
    stopTimeoutMs: 10_000,
    restartDelayMs: 1000,
    log: parameters.log,
  })
  return { process: process_, mainConfig }
}

function link(target: string, path: string): void {
  if (!existsSync(target)) return
  rmSync(path, { force: true })
  symlinkSync(target, path)
}

/**
 * Waits until a replica's `/readyz` answers 200 (an API without `/readyz`, 404, counts as
 * ready when `/health` answers).
 */
async function waitReady(replica: ProdReplica, log: (line: string) => void): Promise<void> {
  const deadline = Date.now() + 120_000
  // Restarts while waiting (a crash loop), not the replica's restarts over the stack's life.
  const startsBefore = replica.process.starts()
  let said = false
  for (;;) {
    const ready = await fetch(`${replica.url}/readyz`, { signal: AbortSignal.timeout(2000) })
      .then(async (response) => {
        if (response.status !== 404) return response.ok
        const health = await fetch(`${replica.url}/health`, { signal: AbortSignal.timeout(2000) })
        if (health.ok && !said) {
          said = true
          log(`${replica.id}: no /readyz (404), ready by /health`)
        }
        return health.ok
      })
      .catch(() => false)
    if (ready) return
    if (Date.now() > deadline || replica.process.starts() - startsBefore > 3)
      throw new Error(
        `${replica.id} did not become ready (${replica.url}/readyz); its log:\n${tail(replica.logFile)}`,
      )
    await new Promise((done) => setTimeout(done, 200))
  }
}

async function waitForHttp(url: string, timeoutMs: number, owner: SupervisedProcess) {
  const deadline = Date.now() + timeoutMs
  const startsBefore = owner.starts()
  for (;;) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(1000) })
      .then((response) => response.status < 500)
      .catch(() => false)
    if (ok) return
    if (Date.now() > deadline || owner.starts() - startsBefore > 3)
      throw new Error(`${owner.name} does not answer ${url}`)
    await new Promise((done) => setTimeout(done, 100))
  }
}

function tail(file: string, bytes = 4000): string {
  try {
    return readFileSync(file, 'utf8').slice(-bytes)
  } catch {
    return '(no log)'
  }
}
