/**
 * Starts the whole local stack once for the e2e run, in a child process (as `npm start` does),
 * with a throwaway database; stops it when the run ends.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createConnection } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '../..')
const PORTS = [4000, 4100, 4200, 4300, 8545, 8546]

function portInUse(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ port, host: '127.0.0.1' })
    socket.once('connect', () => {
      socket.destroy()
      done(true)
    })
    socket.once('error', () => done(false))
  })
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const busy = []
  for (const port of PORTS) if (await portInUse(port)) busy.push(port)
  if (busy.length)
    throw new Error(
      `Ports ${busy.join(', ')} are in use: stop \`npm start\` (or whatever holds them) before the e2e tests.`,
    )

  const dir = mkdtempSync(join(tmpdir(), 'porthole-e2e-'))
  const databaseUrl = `file:${join(dir, 'porthole.db')}`
  process.env.PORTHOLE_DATABASE_URL = databaseUrl
  const child: ChildProcess = spawn(
    join(ROOT, 'node_modules/.bin/tsx'),
    [join(ROOT, 'infra/local-stack/src/cli.ts')],
    {
      cwd: ROOT,
      env: { ...process.env, PORTHOLE_DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
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
  return async () => {
    child.removeAllListeners('exit')
    await new Promise<void>((done) => {
      child.once('exit', () => done())
      child.kill('SIGTERM')
      setTimeout(() => {
        child.kill('SIGKILL')
        done()
      }, 5000)
    })
    rmSync(dir, { recursive: true, force: true })
  }
}
