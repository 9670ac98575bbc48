import pg from 'pg'
import { afterEach, expect, inject, test } from 'vitest'
import { electLeader, type LeaderElection } from './leader.js'

const server = inject('postgres')
const url = () => {
  if ('error' in server) throw new Error(server.error)
  return server.url
}
// Each test campaigns for its own lock: test files share one PostgreSQL server.
let nextLock = 91_000 + Math.floor(Math.random() * 1000) * 10
const elections: LeaderElection[] = []
afterEach(async () => {
  await Promise.all(elections.splice(0).map((election) => election.stop()))
})

function campaign(lockId: number, log: string[], name: string): LeaderElection {
  const election = electLeader({
    url: url(),
    lockId,
    retryMs: 100,
    onElected: () => {
      log.push(`${name} elected`)
    },
    onDeposed: () => {
      log.push(`${name} deposed`)
    },
  })
  elections.push(election)
  return election
}

async function until(check: () => boolean, what = 'condition', timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} not met in time`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

test('of three replicas exactly one leads', async () => {
  const lock = nextLock++
  const log: string[] = []
  const all = ['a', 'b', 'c'].map((name) => campaign(lock, log, name))
  await until(() => all.some((election) => election.leader))
  await new Promise((resolve) => setTimeout(resolve, 500))
  expect(all.filter((election) => election.leader)).toHaveLength(1)
  expect(log).toHaveLength(1)
})

test('a leader whose database session dies is deposed and another takes over', async () => {
  const lock = nextLock++
  const log: string[] = []
  const a = campaign(lock, log, 'a')
  await until(() => a.leader)
  const b = campaign(lock, log, 'b')
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect(b.leader).toBe(false)
  // What a crash or a network cut looks like from PostgreSQL: the holder's session ends.
  const admin = new pg.Client({ connectionString: url() })
  await admin.connect()
  try {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted`,
      [lock],
    )
    expect(rows).toHaveLength(1)
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid])
  } finally {
    await admin.end()
  }
  await until(() => b.leader, `b leads (${log})`)
  await until(() => log.includes('a deposed'), `a deposed (${log})`)
  expect(a.leader).toBe(false)
  expect(log.slice(0, 1)).toEqual(['a elected'])
  expect(log).toContain('b elected')
  // a campaigns again but b holds the lock now.
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect([a.leader, b.leader]).toEqual([false, true])
})

test('a leader that stops hands over at once', async () => {
  const lock = nextLock++
  const log: string[] = []
  const a = campaign(lock, log, 'a')
  await until(() => a.leader)
  const b = campaign(lock, log, 'b')
  await a.stop()
  await until(() => b.leader)
  expect(log).toEqual(['a elected', 'a deposed', 'b elected'])
})
