/**
 * Test helper: a throwaway Debian `redis-server` on a free loopback port, which a test can stop
 * and start again (outages). Fails, never skips, when redis-server is missing.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { freePort } from './freePort.js'

const BINARY = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find(existsSync)

/** A running test Redis. */
export type TestRedis = {
  url: string
  port: number
  /** Stops the server (SIGKILL: an outage, not a shutdown). */
  kill(): Promise<void>
  /** Starts it again on the same port (empty). */
  start(): Promise<void>
  stop(): Promise<void>
}

/**
 * Starts redis-server on a free port.
 *
 * @example
 * const redis = await startTestRedis()
 * // … PORTHOLE_REDIS_URL = redis.url
 * await redis.stop()
 */
export async function startTestRedis(): Promise<TestRedis> {
  if (!BINARY)
    throw new Error('Redis tests need redis-server (Debian: apt-get install redis-server)')
  const port = await freePort()
  let child: ChildProcess | undefined
  const start = async () => {
    const started = spawn(
      BINARY,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    child = started
    await new Promise<void>((resolve, reject) => {
      let output = ''
      const timer = setTimeout(
        () => reject(new Error(`redis-server did not start: ${output}`)),
        10_000,
      )
      started.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer)
          resolve()
        }
      })
      started.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`redis-server exited (${code}): ${output}`))
      })
    })
  }
  const kill = async () => {
    const running = child
    child = undefined
    if (!running || running.exitCode !== null) return
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve())
      running.kill('SIGKILL')
    })
  }
  await start()
  return { url: `redis://127.0.0.1:${port}`, port, kill, start, stop: kill }
}
