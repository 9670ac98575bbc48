/**
 * Starts and stops an anvil process (the `@foundry-rs/anvil` binary) on loopback.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEV_MNEMONIC } from './accounts.ts'

/** Options of {@link startAnvil}. */
export type StartAnvilParameters = {
  /** Port to listen on; `0` lets anvil pick a free one. */
  port: number
  chainId: number
  /** Interface to bind; default `127.0.0.1`. */
  host?: string
  /** Seconds between blocks (interval mining); default: a block per transaction. */
  blockTime?: number
  /** When true anvil's output is dropped; default false (forwarded to this process). */
  silent?: boolean
  /** More anvil arguments, e.g. `['--dump-state', 'state.json']`. */
  args?: readonly string[]
  /** How long to wait for `eth_chainId` to answer; default 10 000 ms. */
  timeoutMs?: number
}

/** A running anvil. */
export type StartAnvilReturnType = {
  rpcUrl: string
  chainId: number
  /** Kills anvil and resolves once it has exited; safe to call twice. */
  stop(): Promise<void>
  process: ChildProcess
}

/** Error thrown when anvil cannot start: binary missing, port in use, early exit, timeout. */
export class AnvilStartError extends Error {
  override name = 'AnvilStartError'
}

/** Error thrown when the requested port is already taken. */
export class AnvilPortInUseError extends AnvilStartError {
  override name = 'AnvilPortInUseError'
  constructor(host: string, port: number) {
    super(`Cannot start anvil: ${host}:${port} is already in use`)
  }
}

const PLATFORM_PACKAGE: Record<string, string> = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
}

/**
 * Path of the anvil executable: `PORTHOLE_ANVIL_BIN` when set, else the binary of the
 * platform package of `@foundry-rs/anvil`, else the nearest `node_modules/.bin/anvil`.
 *
 * @example
 * anvilBinary() // '/repo/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil'
 */
export function anvilBinary(env: Record<string, string | undefined> = process.env): string {
  const override = env.PORTHOLE_ANVIL_BIN
  if (override) return override
  const exe = process.platform === 'win32' ? 'anvil.exe' : 'anvil'
  const platformPackage = PLATFORM_PACKAGE[`${process.platform}-${process.arch}`]
  if (platformPackage) {
    const require = createRequire(import.meta.url)
    // The platform package is an optional dependency of @foundry-rs/anvil: resolve it from
    // here (hoisted) or from the wrapper package's own folder (nested install).
    const bases = [import.meta.url]
    try {
      bases.push(require.resolve('@foundry-rs/anvil/package.json'))
    } catch {}
    for (const base of bases) {
      try {
        const pkg = createRequire(base).resolve(`${platformPackage}/package.json`)
        const bin = join(dirname(pkg), 'bin', exe)
        if (existsSync(bin)) return bin
      } catch {}
    }
  }
  // The npm wrapper script: it forwards SIGTERM to the real binary.
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const bin = join(dir, 'node_modules', '.bin', 'anvil')
    if (existsSync(bin)) return bin
    if (dirname(dir) === dir) break
  }
  throw new AnvilStartError(
    'anvil binary not found: install @foundry-rs/anvil with its optional dependencies or set PORTHOLE_ANVIL_BIN',
  )
}

const live = new Set<ChildProcess>()
let exitHookInstalled = false

function killOnExit(child: ChildProcess): void {
  live.add(child)
  child.once('exit', () => live.delete(child))
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once('exit', () => {
    for (const c of live) c.kill('SIGKILL')
  })
}

function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new AnvilPortInUseError(host, port)
          : new AnvilStartError(`Cannot start anvil on ${host}:${port}: ${error.message}`),
      ),
    )
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()))
  })
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}

async function rpcChainId(rpcUrl: string, signal: AbortSignal): Promise<number | undefined> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      signal,
    })
    const body = (await response.json()) as { result?: string }
    return body.result ? Number(body.result) : undefined
  } catch {
    return undefined
  }
}

/**
 * Spawns anvil with the default dev accounts and resolves once `eth_chainId` answers
 * (~60 ms). Rejects with {@link AnvilPortInUseError} when the port is taken and with
 * {@link AnvilStartError} when anvil exits early or does not answer in `timeoutMs`.
 *
 * @example
 * const anvil = await startAnvil({ port: 8545, chainId: 31337 })
 * // … anvil.rpcUrl === 'http://127.0.0.1:8545'
 * await anvil.stop()
 */
export async function startAnvil(parameters: StartAnvilParameters): Promise<StartAnvilReturnType> {
  const { chainId, host = '127.0.0.1', blockTime, silent = false, timeoutMs = 10_000 } = parameters
  await assertPortFree(host, parameters.port)
  const args = [
    '--port',
    String(parameters.port),
    '--host',
    host,
    '--chain-id',
    String(chainId),
    '--mnemonic',
    DEV_MNEMONIC,
    ...(blockTime === undefined ? [] : ['--block-time', String(blockTime)]),
    ...(parameters.args ?? []),
  ]
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] })
  killOnExit(child)

  let output = ''
  const keepTail = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000)
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
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
      await exited
      clearTimeout(timer)
    }
    child.stdout!.unpipe()
    child.stderr!.unpipe()
  }

  const ready = async (): Promise<string> => {
    const deadline = Date.now() + timeoutMs
    let port = parameters.port
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) break
      if (port === 0) port = Number(/Listening on [^\s]*:(\d+)/.exec(output)?.[1] ?? 0)
      if (port !== 0) {
        const rpcUrl = `http://${urlHost(host)}:${port}`
        const answered = await rpcChainId(rpcUrl, AbortSignal.timeout(1000))
        if (answered === chainId) return rpcUrl
        if (answered !== undefined)
          throw new AnvilStartError(
            `Cannot start anvil: ${rpcUrl} answers chain id ${answered}, not ${chainId}`,
          )
      }
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    throw new AnvilStartError(
      child.exitCode !== null || child.signalCode !== null
        ? `anvil exited (${child.exitCode ?? child.signalCode}) before it was ready: ${errorLine(output)}`
        : `anvil did not answer within ${timeoutMs} ms: ${errorLine(output)}`,
    )
  }

  const spawnFailed = new Promise<never>((_, reject) =>
    child.once('error', (error) =>
      reject(new AnvilStartError(`Cannot run anvil (${anvilBinary()}): ${error.message}`)),
    ),
  )
  spawnFailed.catch(() => {})
  try {
    const rpcUrl = await Promise.race([ready(), spawnFailed])
    return { rpcUrl, chainId, stop, process: child }
  } catch (error) {
    await stop()
    if (/Address already in use/i.test(output)) throw new AnvilPortInUseError(host, parameters.port)
    throw error
  }
}

function errorLine(output: string): string {
  const lines = output.trim().split('\n')
  return lines.find((line) => /error/i.test(line))?.trim() ?? lines.at(-1)?.trim() ?? '(no output)'
}
