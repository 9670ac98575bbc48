import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { BUNDLER_KEYS, ENTRY_POINT_07 } from '@porthole/shared/devnet'

/** Options of {@link startBundler}. */
export type StartBundlerParameters = {
  /** Port to listen on; `0` picks a free one. */
  port: number
  /** Interface to listen on; default 127.0.0.1. */
  host?: string
  /** The devnet's JSON-RPC URL (its EntryPoint v0.7 and bundler keys set up by `startDevnet`). */
  rpcUrl: string
  /** The devnet's chain id; a devnet answering another one is refused. */
  chainId: number
  /** Don't pipe alto's output (warnings and errors) to this process's. Default false. */
  silent?: boolean
  /** How long to wait for alto to answer; default 30 s. */
  timeoutMs?: number
}

/** A running bundler. */
export type StartBundlerReturnType = {
  /** Its JSON-RPC address, e.g. `http://127.0.0.1:4350`. */
  url: string
  port: number
  chainId: number
  /** Stops alto (SIGTERM to its process group, SIGKILL after 3 s); resolves once it exited. */
  stop(): Promise<void>
}

/** Thrown when the bundler's port is taken. */
export class BundlerPortInUseError extends Error {
  override name = 'BundlerPortInUseError' as const
}

/** Thrown when alto cannot start: a wrong devnet, an early exit, no answer in time. */
export class BundlerStartError extends Error {
  override name = 'BundlerStartError' as const
}

/**
 * How often alto polls the devnet (its `--block-time`; it polls at a quarter of it): anvil mines
 * on every transaction, so a short one only shortens the wait for receipts.
 */
export const BUNDLER_BLOCK_TIME_MS = 200

/**
 * The alto command line for a devnet (after `node <alto.js>`): EntryPoint v0.7, the devnet's
 * bundler keys (`BUNDLER_KEYS`), safe mode off (anvil has no `debug_traceCall` tracer alto
 * accepts), its simulation contracts deployed by the utility key, warnings and errors only.
 *
 * @example
 * altoArguments({ rpcUrl: 'http://127.0.0.1:8545', port: 4350 }) // ['--entrypoints', '0x0000…a032', …]
 */
export function altoArguments({ rpcUrl, port }: { rpcUrl: string; port: number }): string[] {
  return [
    '--entrypoints',
    ENTRY_POINT_07,
    '--executor-private-keys',
    BUNDLER_KEYS.executor.privateKey,
    '--utility-private-key',
    BUNDLER_KEYS.utility.privateKey,
    '--rpc-url',
    rpcUrl,
    '--port',
    String(port),
    '--safe-mode',
    'false',
    '--deploy-simulations-contract',
    'true',
    '--block-time',
    String(BUNDLER_BLOCK_TIME_MS),
    // viem's smart accounts use a fresh nonce key per user operation: parallel ones.
    '--mempool-max-parallel-ops',
    '32',
    '--min-bundle-interval',
    '10',
    '--utility-wallet-monitor',
    'false',
    '--log-level',
    'warn',
  ]
}

/**
 * alto's CLI file, found from the installed package (never imported here: alto runs as its own
 * process).
 *
 * @example
 * altoCliPath() // '/…/node_modules/@pimlico/alto/esm/cli/alto.js'
 */
export function altoCliPath(): string {
  // The package's entry (`esm/index.js`) is resolved, not loaded; the CLI sits beside it.
  const entry = createRequire(import.meta.url).resolve('@pimlico/alto')
  const cli = join(dirname(entry), 'cli', 'alto.js')
  if (!existsSync(cli))
    throw new BundlerStartError(`alto's CLI is not at ${cli}: is @pimlico/alto@0.0.20 installed?`)
  return cli
}

const LISTEN_HOST_PRELOAD = new URL('./internal/listenHost.mjs', import.meta.url).href

const live = new Set<ChildProcess>()
let exitHookInstalled = false
function killOnExit(child: ChildProcess): void {
  live.add(child)
  child.once('exit', () => live.delete(child))
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once('exit', () => {
    for (const c of live) killGroup(c, 'SIGKILL')
  })
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    child.kill(signal)
  }
}

function freePortOn(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen({ port: 0, host }, () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

function assertPortFree(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new BundlerPortInUseError(`Port ${port} is in use: the bundler cannot start`)
          : new BundlerStartError(`Cannot start the bundler on ${host}:${port}: ${error.message}`),
      ),
    )
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()))
  })
}

async function rpc(
  url: string,
  method: string,
  signal: AbortSignal,
  params: unknown[] = [],
): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal,
  })
  const body = (await response.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(body.error.message)
  return body.result
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}

/**
 * Starts the local ERC-4337 bundler, alto (`@pimlico/alto`), for one devnet: spawned through
 * its CLI file with {@link altoArguments}, listening on `host:port`, and resolved once it
 * answers `eth_supportedEntryPoints` with EntryPoint v0.7 (~2.5 s, most of it alto loading).
 * Rejects with {@link BundlerPortInUseError} when the port is taken and with
 * {@link BundlerStartError} when the devnet answers another chain id, alto exits early or does
 * not answer in `timeoutMs`.
 *
 * @example
 * const bundler = await startBundler({ port: 4350, rpcUrl: 'http://127.0.0.1:8545', chainId: 31337 })
 * // … eth_sendUserOperation to bundler.url
 * await bundler.stop()
 */
export async function startBundler(
  parameters: StartBundlerParameters,
): Promise<StartBundlerReturnType> {
  const { rpcUrl, chainId, host = '127.0.0.1', silent = false, timeoutMs = 30_000 } = parameters
  const cli = altoCliPath()
  const port = parameters.port === 0 ? await freePortOn(host) : parameters.port
  await assertPortFree(host, port)
  let answered: unknown
  let entryPointCode: unknown
  try {
    ;[answered, entryPointCode] = await Promise.all([
      rpc(rpcUrl, 'eth_chainId', AbortSignal.timeout(5000)),
      rpc(rpcUrl, 'eth_getCode', AbortSignal.timeout(5000), [ENTRY_POINT_07, 'latest']),
    ])
  } catch (error) {
    throw new BundlerStartError(
      `The bundler's devnet ${rpcUrl} does not answer: ${(error as Error).message}`,
    )
  }
  if (Number(answered) !== chainId)
    throw new BundlerStartError(
      `The bundler's devnet ${rpcUrl} answers chain id ${Number(answered)}, not ${chainId}`,
    )
  if (typeof entryPointCode !== 'string' || entryPointCode.length <= 2)
    throw new BundlerStartError(
      `The bundler's devnet ${rpcUrl} has no EntryPoint v0.7 at ${ENTRY_POINT_07}: start it with startDevnet (or run deployAccountAbstraction)`,
    )

  // alto reads ALTO_* variables and a .env file: it gets neither, only its command line.
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.startsWith('ALTO_')) env[key] = value
  env.DOTENV_CONFIG_PATH = join(dirname(cli), 'no-such.env')
  env.PORTHOLE_BUNDLER_LISTEN_HOST = host
  const child = spawn(
    process.execPath,
    ['--import', LISTEN_HOST_PRELOAD, cli, ...altoArguments({ rpcUrl, port })],
    { stdio: ['ignore', 'pipe', 'pipe'], env, cwd: dirname(cli), detached: true },
  )
  killOnExit(child)

  // The tail of alto's output, and its first fatal line (alto prints ` × <error>` and exits).
  let output = ''
  let fatal: string | undefined
  const keepTail = (chunk: Buffer) => {
    const text = output + chunk.toString('utf8')
    fatal ??= /^\s*× (.+)$/m.exec(text)?.[1]?.trim()
    output = text.slice(-4000)
  }
  child.stdout!.on('data', keepTail)
  child.stderr!.on('data', keepTail)
  if (!silent) {
    child.stdout!.pipe(process.stdout, { end: false })
    child.stderr!.pipe(process.stderr, { end: false })
  }
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once('exit', () => resolve())
  })
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      killGroup(child, 'SIGTERM')
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 3000)
      await exited
      clearTimeout(timer)
    }
    child.stdout!.unpipe()
    child.stderr!.unpipe()
  }

  const url = `http://${urlHost(host)}:${port}`
  const ready = async (): Promise<void> => {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) break
      const entryPoints = await rpc(
        url,
        'eth_supportedEntryPoints',
        AbortSignal.timeout(1000),
      ).catch(() => undefined)
      if (Array.isArray(entryPoints)) {
        if (entryPoints.some((e) => String(e).toLowerCase() === ENTRY_POINT_07.toLowerCase()))
          return
        throw new BundlerStartError(
          `${url} answers entry points ${entryPoints.join(', ')}, not ${ENTRY_POINT_07}`,
        )
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new BundlerStartError(
      child.exitCode !== null || child.signalCode !== null
        ? `alto exited (${child.exitCode ?? child.signalCode}) before it was ready: ${fatal ?? errorLine(output)}`
        : `alto did not answer on ${url} within ${timeoutMs} ms: ${fatal ?? errorLine(output)}`,
    )
  }
  const spawnFailed = new Promise<never>((_, reject) =>
    child.once('error', (error) =>
      reject(new BundlerStartError(`Cannot run alto (${cli}): ${error.message}`)),
    ),
  )
  spawnFailed.catch(() => {})
  try {
    await Promise.race([ready(), spawnFailed])
    return { url, port, chainId, stop }
  } catch (error) {
    await stop()
    if (/EADDRINUSE/.test(output))
      throw new BundlerPortInUseError(`Port ${port} is in use: the bundler cannot start`)
    throw error
  }
}

function errorLine(output: string): string {
  const lines = output.trim().split('\n')
  return lines.find((line) => /error/i.test(line))?.trim() ?? lines.at(-1)?.trim() ?? '(no output)'
}
