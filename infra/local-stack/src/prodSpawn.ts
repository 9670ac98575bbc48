/**
 * Runs the production stack in a child process (exactly as `npm run stack:prod` does) and talks
 * to its control endpoint: the production e2e tests and the load test use it.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { resolve } from 'node:path'
import type { ProdStackState } from './prod.js'

export type { ProdStackState } from './prod.js'

const ROOT = resolve(import.meta.dirname, '../../..')

/** The control endpoint's default address (`PORTHOLE_PROD_CONTROL_URL`). */
export const DEFAULT_PROD_CONTROL_URL = 'http://127.0.0.1:4390'

/** A production stack in a child process. */
export type SpawnedProdStack = {
  pid: number
  controlUrl: string
  /** SIGTERM, and waits until everything stopped (SIGKILL after 60 s). */
  stop(): Promise<void>
}

/**
 * Starts the production stack with `env` added to this process's environment; rejects with its
 * output if it fails or takes more than `timeoutMs` (default 180 s).
 *
 * @example
 * const stack = await spawnProdStack({ PORTHOLE_RATE_LIMIT_PER_SECOND: '10000' })
 * const state = await prodState(stack.controlUrl)
 * await stack.stop()
 */
export async function spawnProdStack(
  env: Record<string, string> = {},
  { timeoutMs = 180_000, onOutput }: { timeoutMs?: number; onOutput?: (text: string) => void } = {},
): Promise<SpawnedProdStack> {
  const merged = { ...process.env, ...env }
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', resolve(ROOT, 'infra/local-stack/src/prodCli.ts')],
    { cwd: ROOT, env: merged, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM')
      fail(new Error(`The production stack did not start in ${timeoutMs / 1000} s:\n${output}`))
    }, timeoutMs)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      onOutput?.(chunk.toString())
      if (output.includes('Porthole production stack is running')) {
        clearTimeout(timer)
        ready()
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`The production stack exited (${code}):\n${output}`))
    })
  })
  return {
    pid: child.pid as number,
    controlUrl: (merged.PORTHOLE_PROD_CONTROL_URL || DEFAULT_PROD_CONTROL_URL).replace(/\/+$/, ''),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
      child.kill('SIGTERM')
      await exited
      clearTimeout(timer)
    },
  }
}

/**
 * The control endpoint's `GET /state` of a running production stack.
 *
 * @example
 * const { replicas } = await prodState('http://127.0.0.1:4390')
 */
export async function prodState(
  controlUrl: string = DEFAULT_PROD_CONTROL_URL,
): Promise<ProdStackState> {
  const response = await fetch(`${controlUrl}/state`, { signal: AbortSignal.timeout(5000) })
  if (!response.ok) throw new Error(`${controlUrl}/state answered ${response.status}`)
  return (await response.json()) as ProdStackState
}

/**
 * `POST` to the control endpoint (`/replicas/api-2/kill`, `/postgres/restart?downMs=3000`…);
 * resolves with its JSON answer, rejects on an error status.
 *
 * @example
 * await prodControl('/replicas/api-2/kill')
 */
export async function prodControl(
  path: string,
  controlUrl: string = DEFAULT_PROD_CONTROL_URL,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${controlUrl}${path}`, {
    method: 'POST',
    signal: AbortSignal.timeout(150_000),
  })
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`)
  return body
}
