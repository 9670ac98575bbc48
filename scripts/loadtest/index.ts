/**
 * `npm run loadtest`: load and faults against the production stack on loopback (issue 17).
 * Starts the stack itself (`npm run stack:prod` in a child process) unless
 * PORTHOLE_LOADTEST_REUSE=1 names a running one (its control endpoint,
 * PORTHOLE_PROD_CONTROL_URL, default http://127.0.0.1:4390). Phases, each printing its figures:
 *   a. balance   the modal's balance request through nginx: PORTHOLE_LOADTEST_RATE (2000) per
 *                second for PORTHOLE_LOADTEST_SECONDS (60); p99 ≤ 50 ms, 0 errors, every replica
 *   b. otp       e-mail login starts spread over the replicas are limited as one
 *   c. kill      a replica SIGKILLed under load: no GET fails, POSTs only those in flight
 *   d. leader    the indexer leader killed: another takes over ≤ 10 s, no block skipped or twice
 *   e. outage    PostgreSQL, then Redis, restarted under load: only 503s, recovery by itself
 * PORTHOLE_LOADTEST_PHASES=a,c runs some. Exits 1 when a target is missed (or after 15 min).
 * PORTHOLE_LOADTEST_JSON=<file> writes the figures.
 *
 * Every request comes from one client (this process), so a stack it starts gets a per-client
 * limit that 2,000 requests per second fit in (PORTHOLE_RATE_LIMIT_PER_SECOND=100000; the
 * limiter still runs on every request); start a reused stack with the same.
 */
import { writeFileSync } from 'node:fs'
import { prodState, type SpawnedProdStack, spawnProdStack } from '@porthole/local-stack/prod'
import type { LoadtestContext, PhaseResult } from './context.js'
import { balancePhase } from './phases/balance.js'
import { killReplicaPhase } from './phases/killReplica.js'
import { leaderPhase } from './phases/leader.js'
import { otpPhase } from './phases/otp.js'
import { outagePhase } from './phases/outage.js'

const PHASES = {
  a: { name: 'balance', run: balancePhase },
  b: { name: 'otp', run: otpPhase },
  c: { name: 'kill', run: killReplicaPhase },
  d: { name: 'leader', run: leaderPhase },
  e: { name: 'outage', run: outagePhase },
} as const
type PhaseKey = keyof typeof PHASES

const env = process.env
const rate = Number(env.PORTHOLE_LOADTEST_RATE || 2000)
const seconds = Number(env.PORTHOLE_LOADTEST_SECONDS || 60)
if (!(rate > 0 && rate <= 5000) || !(seconds > 0 && seconds <= 120)) {
  console.error('PORTHOLE_LOADTEST_RATE must be 1–5000 and PORTHOLE_LOADTEST_SECONDS 1–120')
  process.exit(2)
}
const wanted = (env.PORTHOLE_LOADTEST_PHASES || 'a,b,c,d,e')
  .split(',')
  .map((p) => p.trim())
  .map(
    (p) =>
      (Object.entries(PHASES).find(([key, phase]) => key === p || phase.name === p)?.[0] ??
        p) as PhaseKey,
  )
for (const key of wanted)
  if (!(key in PHASES)) {
    console.error(
      `Unknown phase ${key}: use ${Object.entries(PHASES)
        .map(([k, p]) => `${k} (${p.name})`)
        .join(', ')}`,
    )
    process.exit(2)
  }

// Bounded in time, whatever happens.
const guard = setTimeout(() => {
  console.error('\nThe load test ran for 15 minutes: stopping.')
  void stack?.stop().finally(() => process.exit(1))
}, 15 * 60_000)
guard.unref()

const log = (line: string) => console.log(`  ${line}`)
let stack: SpawnedProdStack | undefined
const controlUrl = (env.PORTHOLE_PROD_CONTROL_URL || 'http://127.0.0.1:4390').replace(/\/+$/, '')
if (env.PORTHOLE_LOADTEST_REUSE === '1') console.log(`Using the production stack at ${controlUrl}`)
else {
  console.log('Starting the production stack (npm run stack:prod)…')
  stack = await spawnProdStack({
    PORTHOLE_RATE_LIMIT_PER_SECOND: env.PORTHOLE_RATE_LIMIT_PER_SECOND || '100000',
    PORTHOLE_RATE_LIMIT_BURST: env.PORTHOLE_RATE_LIMIT_BURST || '200000',
  }).catch((error: unknown) => {
    console.error((error as Error).message)
    process.exit(1)
  })
}
const stopStack = async () => {
  await stack?.stop()
  stack = undefined
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void stopStack().finally(() => process.exit(1)))

const results: PhaseResult[] = []
let failed = false
try {
  const state = await prodState(controlUrl)
  // Loopback only: every address the phases use.
  const addresses = [
    state.urls.api,
    state.urls.devnet,
    state.databaseUrl,
    ...state.replicas.map((r) => r.url),
  ]
  for (const address of addresses) {
    const host = new URL(address).hostname
    if (!/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(host))
      throw new Error(`The load test runs on loopback only; ${address} is not`)
  }
  const context: LoadtestContext = { state, controlUrl, rate, seconds, log }
  for (const key of wanted) {
    const phase = PHASES[key]
    console.log(`\n${key}. ${phase.name}`)
    const started = Date.now()
    const result = await phase.run({ ...context, state: await prodState(controlUrl) })
    results.push(result)
    for (const t of result.targets)
      console.log(`  ${t.ok ? 'ok  ' : 'MISS'} ${t.name}: ${t.got} (target ${t.want})`)
    console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`)
  }
} catch (error) {
  failed = true
  console.error(`\nThe load test stopped: ${(error as Error).stack ?? error}`)
} finally {
  await stopStack()
}

const missed = results.flatMap((r) =>
  r.targets.filter((t) => !t.ok).map((t) => `${r.phase}: ${t.name}`),
)
console.log('\nSummary')
for (const result of results)
  console.log(`  ${result.targets.every((t) => t.ok) ? 'ok  ' : 'MISS'} ${result.phase}`)
if (rate !== 2000 || seconds !== 60)
  console.log(
    `  (balance phase at ${rate}/s for ${seconds} s; the acceptance figures need 2000/s for 60 s)`,
  )
if (env.PORTHOLE_LOADTEST_JSON)
  writeFileSync(
    env.PORTHOLE_LOADTEST_JSON,
    `${JSON.stringify({ rate, seconds, results }, null, 2)}\n`,
  )
if (missed.length) console.log(`\nMissed: ${missed.join('; ')}`)
process.exit(failed || missed.length ? 1 : 0)
