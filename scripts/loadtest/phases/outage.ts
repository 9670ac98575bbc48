/**
 * Phase (e): PostgreSQL, then Redis, is stopped for a few seconds and started again under load
 * (balances, mostly cached in Redis, and histories, read from PostgreSQL). While a store is
 * down the API may only answer 503 (no dropped connection, no 500, no 502 from nginx), each
 * replica's `/readyz` turns 503, and afterwards everything recovers without restarting any API
 * process: `/readyz` 200 on every replica and every request answered 200.
 */
import { prodControl, prodState } from '@porthole/local-stack/prod'
import {
  balanceRequests,
  historyRequests,
  type LoadtestContext,
  modalHeaders,
  type PhaseResult,
  readyz,
  sleep,
  type Target,
  target,
} from '../context.js'
import { describeLoad, type LoadResult, runLoad } from '../load.js'

const SECONDS = 25
const OUTAGE_AT_MS = 4000
const DOWN_MS = 5000
const RATE = 300

type Store = 'postgres' | 'redis'

async function outage(context: LoadtestContext, store: Store) {
  const { state, log, controlUrl } = context
  const pidsBefore = (await prodState(controlUrl)).replicas.map((r) => r.pid)
  const requests = [...balanceRequests(state), ...historyRequests(state)]
  let startedAt = 0
  let polling = true
  const notReady = new Map(state.replicas.map((r) => [r.id, 0]))
  let restart: { downMs?: unknown; tookMs?: unknown } = {}
  let backAt = 0
  /** The first poll after the store came back in which every replica was ready. */
  let readyAt: number | undefined
  const poll = (async () => {
    while (polling) {
      const polledAt = Date.now()
      const statuses = await Promise.all(
        state.replicas.map(async (r) => {
          const status = await readyz(r.url)
          if (status === 503) notReady.set(r.id, (notReady.get(r.id) ?? 0) + 1)
          return status
        }),
      )
      if (backAt && readyAt === undefined && statuses.every((status) => status === 200))
        readyAt = polledAt
      await sleep(200)
    }
  })()
  const fault = (async () => {
    while (!startedAt) await sleep(10)
    await sleep(OUTAGE_AT_MS - (Date.now() - startedAt))
    log(
      `${store} down at ${((Date.now() - startedAt) / 1000).toFixed(1)} s for ${DOWN_MS / 1000} s`,
    )
    restart = await prodControl(`/${store}/restart?downMs=${DOWN_MS}`, controlUrl)
    backAt = Date.now()
    log(`${store} answers again at ${((backAt - startedAt) / 1000).toFixed(1)} s`)
  })()
  const load = await runLoad({
    url: state.urls.api,
    requests,
    headers: modalHeaders(state),
    rate: RATE,
    durationSeconds: SECONDS,
    connections: 32,
    onStart: (at) => {
      startedAt = at
    },
  })
  await fault
  // Every replica ready again, without a restart: the poll records the first round all were.
  const deadline = backAt + 30_000
  while (readyAt === undefined && Date.now() < deadline) await sleep(100)
  const recoveredMs = readyAt === undefined ? undefined : Math.max(0, readyAt - backAt)
  polling = false
  await poll
  const check = await runLoad({
    url: state.urls.api,
    requests,
    headers: modalHeaders(state),
    rate: 100,
    durationSeconds: 3,
    connections: 8,
  })
  const pidsAfter = (await prodState(controlUrl)).replicas.map((r) => r.pid)
  return {
    load,
    check,
    notReady: Object.fromEntries(notReady),
    recoveredMs,
    restart,
    pidsBefore,
    pidsAfter,
  }
}

function report(
  context: LoadtestContext,
  store: Store,
  result: Awaited<ReturnType<typeof outage>>,
): Target[] {
  const { load, check, notReady, recoveredMs, pidsBefore, pidsAfter } = result
  const odd = Object.entries(load.statuses).filter(([code]) => code !== '200' && code !== '503')
  context.log(`during: ${describeLoad(load)}`)
  context.log(`outage seconds: ${outageSeconds(load)}`)
  context.log(
    `/readyz 503 seen (polls): ${Object.entries(notReady)
      .map(([id, n]) => `${id} ${n}`)
      .join(
        ', ',
      )}; all ready ${recoveredMs === undefined ? 'not within 30 s' : `${(recoveredMs / 1000).toFixed(1)} s after ${store} came back`}`,
  )
  context.log(`after: ${describeLoad(check)}`)
  return [
    target(`${store}: requests without an answer`, '0', String(load.errors), load.errors === 0),
    target(
      `${store}: failures are 503`,
      'only 200 or 503',
      odd.length ? odd.map(([c, n]) => `${c}×${n}`).join(' ') : 'yes',
      odd.length === 0,
    ),
    target(
      `${store}: /readyz 503 while down`,
      'every replica',
      Object.entries(notReady)
        .filter(([, n]) => n > 0)
        .map(([id]) => id)
        .join(' ') || 'none',
      Object.values(notReady).every((n) => n > 0),
    ),
    target(
      `${store}: /readyz 200 again`,
      'every replica, ≤ 30 s',
      recoveredMs === undefined ? 'no' : `${(recoveredMs / 1000).toFixed(1)} s`,
      recoveredMs !== undefined,
    ),
    target(
      `${store}: afterwards`,
      'all 200, no error',
      `${check.statuses['200'] ?? 0}/${check.answered} 200, ${check.errors} errors`,
      check.errors === 0 && check.non2xx === 0 && check.answered > 0,
    ),
    target(
      `${store}: API processes`,
      'not restarted',
      pidsBefore.join(',') === pidsAfter.join(',') ? 'same pids' : `${pidsBefore} → ${pidsAfter}`,
      pidsBefore.join(',') === pidsAfter.join(','),
    ),
  ]
}

/** `s12:200×250,503×50` for the seconds that were not all 200. */
function outageSeconds(load: LoadResult): string {
  return (
    load.timeline
      .filter((s) => s.errors > 0 || Object.keys(s.statuses).some((code) => code !== '200'))
      .map(
        (s) =>
          `s${s.second}:${Object.entries(s.statuses)
            .map(([c, n]) => `${c}×${n}`)
            .join(',')}${s.errors ? `,errors×${s.errors}` : ''}`,
      )
      .join(' ') || 'none (every answer 200)'
  )
}

/**
 * Runs phase (e): PostgreSQL, then Redis.
 *
 * @example
 * const result = await outagePhase(context)
 */
export async function outagePhase(context: LoadtestContext): Promise<PhaseResult> {
  context.log(
    `load: balances and histories ${RATE}/s for ${SECONDS} s through nginx; PostgreSQL restarted at ${OUTAGE_AT_MS / 1000} s`,
  )
  const postgres = await outage(context, 'postgres')
  const postgresTargets = report(context, 'postgres', postgres)
  context.log(`load: the same; Redis restarted at ${OUTAGE_AT_MS / 1000} s`)
  const redis = await outage(context, 'redis')
  const redisTargets = report(context, 'redis', redis)
  const figures = (r: typeof postgres) => ({
    ...r,
    load: { ...r.load, timeline: outageSeconds(r.load) },
    check: { ...r.check, timeline: undefined },
  })
  return {
    phase: 'e. PostgreSQL and Redis restarted under load',
    figures: { downMs: DOWN_MS, rate: RATE, postgres: figures(postgres), redis: figures(redis) },
    targets: [...postgresTargets, ...redisTargets],
  }
}
