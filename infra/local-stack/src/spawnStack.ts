/**
 * Runs the local stack in a child process (exactly as `npm start` does) and waits until it
 * is ready: the e2e tests and the benchmarks use it.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { endpoints } from '@porthole/shared'
import { busyPorts, stackPorts } from './stackPorts.js'

const ROOT = resolve(import.meta.dirname, '../../..')

/**
 * Starts the stack with `env` added to this process's environment; rejects with the stack's
 * output if it fails or takes more than 60 s, or at once if its ports are taken.
 *
 * @example
 * const stack = await spawnStack({ PORTHOLE_DATABASE_URL: 'file:/tmp/x.db' })
 * await stack.stop()
 */
export async function spawnStack(
  env: Record<string, string> = {},
): Promise<{ pid: number; stop(): Promise<void> }> {
  const urls = endpoints({ ...process.env, ...env })
  const ports = stackPorts(urls)
  const busy = await busyPorts(ports)
  if (busy.length)
    throw new Error(
      `Ports ${busy.join(', ')} are in use: stop \`npm start\` (or whatever holds them) first.`,
    )
  // One process (no tsx wrapper in between), so signals reach the stack itself.
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', resolve(ROOT, 'infra/local-stack/src/cli.ts')],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`The stack did not start in 60 s:\n${output}`)),
      60_000,
    )
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Porthole is running')) {
        clearTimeout(timer)
        ready()
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`The stack exited (${code}):\n${output}`))
    })
  })
  return {
    pid: child.pid as number,
    stop: () =>
      new Promise<void>((done) => {
        child.removeAllListeners('exit')
        const timer = setTimeout(() => {
          child.kill('SIGKILL')
          done()
        }, 5000)
        child.once('exit', () => {
          clearTimeout(timer)
          done()
        })
        child.kill('SIGTERM')
      }),
  }
}
