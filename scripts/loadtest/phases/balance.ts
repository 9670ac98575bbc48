/**
 * Phase (a): the modal's balance request through nginx across the replicas at a fixed rate
 * (acceptance: 2,000 requests per second for 60 s, p99 ≤ 50 ms, no error). Each replica's share
 * comes from its own `porthole_http_requests_total`.
 */
import { availableParallelism, loadavg } from 'node:os'
import {
  balanceRequests,
  type LoadtestContext,
  modalHeaders,
  type PhaseResult,
  target,
} from '../context.js'
import { createConnectionPool, describeLoad, runLoad } from '../load.js'
import { scrape, sumMetric } from '../metrics.js'

const BALANCE_ROUTE = /\/balance$/

async function balanceCounts(context: LoadtestContext): Promise<number[]> {
  return Promise.all(
    context.state.replicas.map(async (replica) => {
      const samples = await scrape(replica.url)
      return samples
        ? sumMetric(samples, 'porthole_http_requests_total', { route: BALANCE_ROUTE })
        : Number.NaN
    }),
  )
}

/**
 * Runs phase (a).
 *
 * @example
 * const result = await balancePhase(context)
 */
export async function balancePhase(context: LoadtestContext): Promise<PhaseResult> {
  const { state, rate, seconds, log } = context
  const requests = balanceRequests(state)
  const common = { url: state.urls.api, requests, headers: modalHeaders(state) }
  const connections = Math.min(128, Math.max(16, Math.round(rate / 25)))
  const pool = createConnectionPool(connections)
  // Not counted: the replicas' code warming up and the connections opening, first at a quarter
  // of the rate, then at the full rate. Their figures are printed all the same: a jump to four
  // times the traffic costs its first seconds (measured in the note).
  for (const warm of [Math.round(rate / 4), rate]) {
    const warmUp = await runLoad({ ...common, rate: warm, durationSeconds: 5, connections, pool })
    log(`warm-up (not counted): ${warm}/s for 5 s: ${describeLoad(warmUp)}`)
  }
  const before = await balanceCounts(context)
  // The figures depend on what else this machine runs: say so.
  const loadBefore = loadavg()[0] as number
  log(
    `load: ${rate}/s for ${seconds} s through nginx (${state.urls.api}), ${requests.length} distinct requests, ${connections} connections`,
  )
  const result = await runLoad({ ...common, rate, durationSeconds: seconds, connections, pool })
  pool.destroy()
  const after = await balanceCounts(context)
  const machine = {
    cpus: availableParallelism(),
    loadBefore: Number(loadBefore.toFixed(2)),
    loadAfter: Number((loadavg()[0] as number).toFixed(2)),
  }
  const served = after.map((count, index) => count - (before[index] as number))
  const total = served.reduce((a, b) => a + b, 0)
  const shares = state.replicas.map((replica, index) => ({
    replica: replica.id,
    requests: served[index],
    share: total > 0 ? (served[index] as number) / total : 0,
  }))
  log(describeLoad(result))
  if (result.statuses['429'])
    log(
      'all the load comes from this one client: run the stack with PORTHOLE_RATE_LIMIT_PER_SECOND=100000 PORTHOLE_RATE_LIMIT_BURST=200000 (as the load test does when it starts it)',
    )
  log(
    `machine: ${machine.cpus} CPUs, load average ${machine.loadBefore} before, ${machine.loadAfter} after (the stack, this load and anything else running here share them)`,
  )
  log(
    `per replica: ${shares.map((s) => `${s.replica} ${s.requests?.toLocaleString('en')} (${(s.share * 100).toFixed(1)}%)`).join(', ')}`,
  )
  const expected = rate * seconds
  return {
    phase: 'a. balance at a fixed rate',
    figures: { rate, seconds, ...result, timeline: undefined, shares, machine },
    targets: [
      target(
        'answered',
        `≥ 99% of ${expected.toLocaleString('en')}`,
        result.answered.toLocaleString('en'),
        result.answered >= expected * 0.99,
      ),
      target('p99 latency', '≤ 50 ms', `${result.latency.p99} ms`, result.latency.p99 <= 50),
      target('errors', '0', String(result.errors), result.errors === 0),
      target('non-2xx', '0', String(result.non2xx), result.non2xx === 0),
      target(
        'replicas serving',
        `all ${state.replicas.length}`,
        String(shares.filter((s) => (s.requests ?? 0) > 0).length),
        shares.every((s) => (s.requests ?? 0) > 0),
      ),
    ],
  }
}
