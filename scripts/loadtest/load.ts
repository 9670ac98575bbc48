/**
 * One bounded load run at a fixed request rate for a fixed duration, open loop: request `i` is
 * due at `start + i / rate` whatever the answers before it did (as independent users arrive), on
 * a pool of keep-alive connections; its latency counts from when it was due, so a request that
 * waited for a free connection or a stalled client counts that wait (no coordinated omission).
 * Prints the figures the load test reports and a per-second timeline of answers and errors.
 *
 * Not autocannon: its `overallRate` lets each connection send back to back until its share of
 * the second is spent and then pause, so every second began with a burst at full concurrency
 * (80 requests in flight at once) and the figures measured that queue, not a steady rate.
 */
import http from 'node:http'
import { performance } from 'node:perf_hooks'
import { quantile as nearestRank } from '../bench/stats.js'

/** A request of a load run. */
export type LoadRequest = {
  method: 'GET' | 'POST'
  path: string
  body?: string
  headers?: Record<string, string>
}

/** Options of {@link runLoad}. */
export type RunLoadParameters = {
  /** Base URL (`http://127.0.0.1:4300`). */
  url: string
  /** Cycled through in order. */
  requests: readonly LoadRequest[]
  /** Requests per second, evenly spaced. */
  rate: number
  durationSeconds: number
  /** Keep-alive connections at most (requests beyond them wait, and that wait counts). */
  connections: number
  /**
   * The connections to use, kept open after the run (from {@link createConnectionPool}: a
   * warm-up and the measured run on the same connections); default a pool of this run's own.
   */
  pool?: http.Agent
  /** Headers of every request. */
  headers?: Record<string, string>
  /** A request without an answer after this long is an error; default 10 s. */
  timeoutSeconds?: number
  /** Called once the load runs, with the millisecond it started. */
  onStart?: (startedAt: number) => void
}

/** Answers and errors of one second of a run (by when the request was due). */
export type LoadSecond = { second: number; statuses: Record<string, number>; errors: number }

/** What {@link runLoad} measured. */
export type LoadResult = {
  /** Requests sent. */
  sent: number
  /** Answers (any status). */
  answered: number
  /** Connection errors and timeouts: requests without an HTTP answer. */
  errors: number
  timeouts: number
  /** Answers that were not 2xx. */
  non2xx: number
  /** Answers per status code. */
  statuses: Record<string, number>
  /** Latency in ms from when each answered request was due until its answer was read whole. */
  latency: { p50: number; p90: number; p99: number; max: number; mean: number }
  /** Answers per second, averaged. */
  rps: number
  durationSeconds: number
  timeline: LoadSecond[]
}

/**
 * Keep-alive connections for several runs (close them with `destroy()`).
 *
 * @example
 * const pool = createConnectionPool(80)
 */
export function createConnectionPool(connections: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections })
}

/** The `q` quantile (0–1) of `values` by nearest rank, rounded to 0.1 ms; 0 when empty. */
export function quantile(values: readonly number[], q: number): number {
  return values.length ? Math.round(nearestRank(values, q) * 10) / 10 : 0
}

/**
 * Runs requests against `url` at `rate` per second for `durationSeconds`, then waits for the
 * last answers (each at most `timeoutSeconds`).
 *
 * @example
 * const result = await runLoad({ url: 'http://127.0.0.1:4300', requests: [{ method: 'GET', path: '/healthz' }], rate: 100, durationSeconds: 5, connections: 10 })
 */
export async function runLoad(parameters: RunLoadParameters): Promise<LoadResult> {
  const { rate, durationSeconds, requests } = parameters
  const base = new URL(parameters.url)
  const timeoutMs = (parameters.timeoutSeconds ?? 10) * 1000
  const agent = parameters.pool ?? createConnectionPool(parameters.connections)
  const total = Math.round(rate * durationSeconds)
  const intervalMs = 1000 / rate
  const latencies: number[] = []
  const statuses: Record<string, number> = {}
  const timeline = new Map<number, LoadSecond>()
  let sent = 0
  let errors = 0
  let timeouts = 0
  let open = 0
  const bucket = (dueMs: number) => {
    const second = Math.floor(dueMs / 1000)
    let entry = timeline.get(second)
    if (!entry) {
      entry = { second, statuses: {}, errors: 0 }
      timeline.set(second, entry)
    }
    return entry
  }
  let drained: () => void = () => {}
  const allDone = new Promise<void>((resolve) => {
    drained = resolve
  })
  const settle = () => {
    open--
    if (sent === total && open === 0) drained()
  }
  const fire = (request: LoadRequest, dueMs: number, due: number) => {
    sent++
    open++
    const headers: Record<string, string> = { ...parameters.headers, ...request.headers }
    if (request.body !== undefined)
      headers['content-length'] = String(Buffer.byteLength(request.body))
    let done = false
    const answer = (code: string) => {
      if (done) return
      done = true
      latencies.push(performance.now() - due)
      statuses[code] = (statuses[code] ?? 0) + 1
      const entry = bucket(dueMs)
      entry.statuses[code] = (entry.statuses[code] ?? 0) + 1
      settle()
    }
    const fail = (timedOut: boolean) => {
      if (done) return
      done = true
      errors++
      if (timedOut) timeouts++
      bucket(dueMs).errors++
      settle()
    }
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port || 80,
        method: request.method,
        path: request.path,
        headers,
      },
      (res) => {
        res.on('data', () => {})
        res.on('end', () => answer(String(res.statusCode)))
        res.on('aborted', () => fail(false))
        res.on('error', () => fail(false))
      },
    )
    req.setTimeout(timeoutMs, () => {
      fail(true)
      req.destroy()
    })
    req.on('error', () => fail(false))
    req.end(request.body)
  }
  const startedAt = Date.now()
  const start = performance.now()
  parameters.onStart?.(startedAt)
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now()
      // Every request due by now goes out now, however late this tick is.
      while (sent < total && start + sent * intervalMs <= now) {
        const dueMs = sent * intervalMs
        fire(requests[sent % requests.length] as LoadRequest, dueMs, start + dueMs)
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * intervalMs - performance.now()))
      else resolve()
    }
    tick()
  })
  if (open > 0) await allDone
  const elapsed = (performance.now() - start) / 1000
  if (!parameters.pool) agent.destroy()
  const answered = latencies.length
  const ok = Object.entries(statuses)
    .filter(([code]) => code.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0)
  return {
    sent,
    answered,
    errors,
    timeouts,
    non2xx: answered - ok,
    statuses,
    latency: {
      p50: quantile(latencies, 0.5),
      p90: quantile(latencies, 0.9),
      p99: quantile(latencies, 0.99),
      max: quantile(latencies, 1),
      mean: answered ? Math.round((latencies.reduce((a, b) => a + b, 0) / answered) * 10) / 10 : 0,
    },
    rps: answered / Math.max(Math.min(elapsed, durationSeconds), 1e-9),
    durationSeconds: elapsed,
    timeline: [...timeline.values()].sort((a, b) => a.second - b.second),
  }
}

/**
 * One line of figures of a run.
 *
 * @example
 * console.log(describeLoad(result)) // '119,982 answered (2,000/s), p50 1.2 ms, p99 8 ms, …'
 */
export function describeLoad(result: LoadResult): string {
  const statuses = Object.entries(result.statuses)
    .map(([code, count]) => `${code}×${count.toLocaleString('en')}`)
    .join(' ')
  return [
    `${result.answered.toLocaleString('en')} answered (${Math.round(result.rps).toLocaleString('en')}/s over ${result.durationSeconds.toFixed(1)} s)`,
    `latency p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    `errors ${result.errors} (timeouts ${result.timeouts}), non-2xx ${result.non2xx}`,
    `statuses ${statuses || 'none'}`,
  ].join('; ')
}
