/**
 * The shared stores of the production stack: a PostgreSQL 15 cluster (initdb into the stack's
 * folder; as the `postgres` user when the stack runs as root, since initdb and postgres refuse
 * root) and Debian's redis-server without persistence. Both run in the foreground as supervised
 * children, so the stack can restart them (the load test's outages) and stops them with itself.
 */
import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs'
import { createConnection } from 'node:net'
import { delimiter, join } from 'node:path'
import { type SupervisedProcess, superviseProcess } from './prodProcess.js'

/** A running store. */
export type ProdStore = {
  /** Connection URL (`postgres://postgres@127.0.0.1:4380/porthole`, `redis://127.0.0.1:4381`). */
  url: string
  process: SupervisedProcess
  /** Waits until it answers (after a start or restart); rejects after `timeoutMs`. */
  ready(timeoutMs?: number): Promise<void>
  /** Orderly stop, `downMs` down, start again, and wait until it answers. */
  restart(downMs: number): Promise<void>
  stop(): Promise<void>
}

/**
 * `command` on PATH, else in Debian's versioned /usr/lib/postgresql/<version>/bin (newest
 * first); undefined when absent.
 *
 * @example
 * which('initdb') // '/usr/lib/postgresql/15/bin/initdb'
 */
export function which(command: string): string | undefined {
  const debian = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .sort((a, b) => Number(b) - Number(a))
        .map((version) => `/usr/lib/postgresql/${version}/bin`)
    : []
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), ...debian, '/usr/sbin']) {
    const path = join(dir, command)
    if (dir && existsSync(path)) return path
  }
  return undefined
}

/** Options of {@link startPostgres}. */
export type StartPostgresParameters = {
  /** Folder of the cluster (`data/`) and its socket. */
  dir: string
  port: number
  /** Database the API uses; created on first start. Default `porthole`. */
  database?: string
  logFile: string
  log?: (line: string) => void
}

/**
 * Creates a cluster in `dir` (unless there is one) and runs PostgreSQL on 127.0.0.1:`port`
 * (trust authentication for local connections only; fast shutdown on stop), with the API's
 * database created.
 *
 * @example
 * const pg = await startPostgres({ dir: '/tmp/x/pg', port: 4380, logFile: '/tmp/x/pg.log' })
 * pg.url // 'postgres://postgres@127.0.0.1:4380/porthole'
 */
export async function startPostgres(parameters: StartPostgresParameters): Promise<ProdStore> {
  const { dir, port, database = 'porthole', logFile } = parameters
  const initdb = which('initdb')
  const postgres = which('postgres')
  const psql = which('psql')
  if (!initdb || !postgres || !psql)
    throw new Error(
      'PostgreSQL is missing (initdb, postgres, psql): apt-get install -y postgresql (15)',
    )
  const asRoot = process.getuid?.() === 0
  const owner = asRoot
    ? {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
      }
    : {}
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (owner.uid !== undefined) chownSync(dir, owner.uid, owner.gid as number)
  const data = join(dir, 'data')
  if (!existsSync(join(data, 'PG_VERSION')))
    execFileSync(
      initdb,
      ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      { stdio: 'pipe', cwd: dir, ...owner },
    )
  const process_ = superviseProcess({
    name: 'postgres',
    command: postgres,
    args: [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=300',
      '-c',
      'logging_collector=off',
    ],
    cwd: dir,
    uid: owner.uid,
    gid: owner.gid,
    logFile,
    // SIGINT: fast shutdown (sessions are cut; SIGTERM would wait for the API's pools).
    stopSignal: 'SIGINT',
    stopTimeoutMs: 10_000,
    restartDelayMs: 1000,
    ...(parameters.log ? { log: parameters.log } : {}),
  })
  const query = (sql: string, db = 'postgres') =>
    execFileSync(
      psql,
      ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', db, '-Atq', '-c', sql],
      { encoding: 'utf8', stdio: 'pipe' },
    ).trim()
  const ready = async (timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      try {
        query('SELECT 1')
        return
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(
            `PostgreSQL did not answer on port ${port} (see ${logFile}): ${(error as { stderr?: string }).stderr ?? error}`,
          )
        await new Promise((done) => setTimeout(done, 100))
      }
    }
  }
  try {
    await ready()
    if (!query(`SELECT 1 FROM pg_database WHERE datname = '${database}'`))
      query(`CREATE DATABASE ${database}`)
  } catch (error) {
    await process_.stop()
    throw error
  }
  return supervisedStore(`postgres://postgres@127.0.0.1:${port}/${database}`, process_, ready)
}

/** Options of {@link startRedis}. */
export type StartRedisParameters = {
  /** Its working folder. */
  dir: string
  port: number
  logFile: string
  log?: (line: string) => void
}

/**
 * Runs Debian's redis-server on 127.0.0.1:`port` without persistence (`--save ''
 * --appendonly no`): everything the API keeps there (rate-limit counters, caches, OTP attempts)
 * may be lost on a restart.
 *
 * @example
 * const redis = await startRedis({ dir: '/tmp/x/redis', port: 4381, logFile: '/tmp/x/redis.log' })
 * redis.url // 'redis://127.0.0.1:4381'
 */
export async function startRedis(parameters: StartRedisParameters): Promise<ProdStore> {
  const { dir, port, logFile } = parameters
  const binary = which('redis-server')
  if (!binary) throw new Error('redis-server is missing: apt-get install -y redis-server')
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const process_ = superviseProcess({
    name: 'redis',
    command: binary,
    args: [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--daemonize',
      'no',
      '--logfile',
      '',
    ],
    cwd: dir,
    logFile,
    stopSignal: 'SIGTERM',
    stopTimeoutMs: 5000,
    restartDelayMs: 1000,
    ...(parameters.log ? { log: parameters.log } : {}),
  })
  const ready = async (timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs
    while (!(await redisPing(port))) {
      if (Date.now() > deadline)
        throw new Error(`Redis did not answer on port ${port} (see ${logFile})`)
      await new Promise((done) => setTimeout(done, 50))
    }
  }
  await ready().catch(async (error: unknown) => {
    await process_.stop()
    throw error
  })
  return supervisedStore(`redis://127.0.0.1:${port}`, process_, ready)
}

/** A store at `url` run by `process_`: restarted by stopping it, waiting, starting it again. */
function supervisedStore(
  url: string,
  process_: ProdStore['process'],
  ready: ProdStore['ready'],
): ProdStore {
  return {
    url,
    process: process_,
    ready,
    restart: async (downMs) => {
      await process_.stop()
      await new Promise((done) => setTimeout(done, downMs))
      process_.start()
      await ready()
    },
    stop: () => process_.stop(),
  }
}

/** Whether a Redis answers PING on 127.0.0.1:`port`. */
function redisPing(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ port, host: '127.0.0.1' })
    let answer = ''
    const finish = (ok: boolean) => {
      socket.destroy()
      done(ok)
    }
    socket.setTimeout(1000, () => finish(false))
    socket.once('error', () => finish(false))
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.on('data', (chunk) => {
      answer += chunk.toString()
      if (answer.includes('\r\n')) finish(answer.startsWith('+PONG'))
    })
  })
}
