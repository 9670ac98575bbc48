/**
 * The production stack's supervisor, with real child processes: restarted after a crash, held
 * down when asked, stopped in order with its own signal, and its output in its log file.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { prodPorts } from './prod.js'
import { type SupervisedProcess, superviseProcess } from './prodProcess.js'

const dir = mkdtempSync(join(tmpdir(), 'porthole-supervise-'))
const started: SupervisedProcess[] = []
afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()))
  rmSync(dir, { recursive: true, force: true })
})

/** A child that logs its start and, on SIGTERM, how it stopped. */
function child(name: string, restartDelayMs?: number) {
  const process_ = superviseProcess({
    name,
    command: process.execPath,
    args: [
      '-e',
      `console.log('up ' + process.pid); process.on('SIGTERM', () => { console.log('drained'); process.exit(0) }); setInterval(() => {}, 1000)`,
    ],
    logFile: join(dir, `${name}.log`),
    restartDelayMs,
    stopTimeoutMs: 5000,
  })
  started.push(process_)
  return process_
}

async function until(condition: () => boolean) {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 25))
  expect(condition()).toBe(true)
}

describe('superviseProcess', () => {
  test('starts a crashed process again after its delay, with a new pid', async () => {
    const replica = child('crash', 100)
    await until(() => readFileSync(join(dir, 'crash.log'), 'utf8').includes('up'))
    const first = replica.pid()
    await replica.kill()
    await until(() => replica.pid() !== undefined && replica.pid() !== first)
    expect(replica.starts()).toBe(2)
    await until(() => readFileSync(join(dir, 'crash.log'), 'utf8').split('up ').length === 3)
  })

  test('keeps a process killed with hold down until it is started', async () => {
    const replica = child('hold', 50)
    await until(() => replica.running())
    await replica.kill('SIGKILL', { hold: true })
    await new Promise((r) => setTimeout(r, 300))
    expect(replica.running()).toBe(false)
    expect(replica.starts()).toBe(1)
    replica.start()
    await until(() => replica.running())
    expect(replica.starts()).toBe(2)
  })

  test('stops with its own signal and does not start it again', async () => {
    const replica = child('stop', 50)
    await until(() => readFileSync(join(dir, 'stop.log'), 'utf8').includes('up'))
    await replica.stop()
    expect(replica.running()).toBe(false)
    await new Promise((r) => setTimeout(r, 300))
    expect(replica.running()).toBe(false)
    expect(readFileSync(join(dir, 'stop.log'), 'utf8')).toContain('drained')
  })
})

describe('prodPorts', () => {
  test('reads the replicas, stores and control endpoint from the environment', () => {
    expect(prodPorts({})).toEqual({
      api: [4311, 4312, 4313],
      postgres: 4380,
      redis: 4381,
      controlUrl: 'http://127.0.0.1:4390',
    })
    expect(
      prodPorts({
        PORTHOLE_PROD_API_PORTS: '5001, 5002',
        PORTHOLE_PROD_POSTGRES_PORT: '5432',
        PORTHOLE_PROD_CONTROL_URL: 'http://127.0.0.1:5999/',
      }),
    ).toMatchObject({ api: [5001, 5002], postgres: 5432, controlUrl: 'http://127.0.0.1:5999' })
    expect(() => prodPorts({ PORTHOLE_PROD_API_PORTS: '4311,x' })).toThrow(/port numbers/)
  })
})
