/**
 * One bounded load run with autocannon (fixed request rate, fixed duration), with the
 * figures the load test prints and a per-second timeline of answers and errors.
 */
import autocannon from 'autocannon'

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
  /** Cycled through by every connection. */
  requests: readonly LoadRequest[]
  /** Requests per second over all connections. */
  rate: number
  durationSeconds: number
  connections: number
  /** Headers of every request. */
  headers?: Record<string, string>
  /** A request without an answer after this long is an error; default 10 s. */
  timeoutSeconds?: number
  /** Called once the load runs, with the millisecond it started. */
  onStart?: (startedAt: number) => void
}

/** Answers and errors of one second of a run. */
export type LoadSecond = { second: number; statuses: Record<string, number>; errors: number }

/** What {@link runLoad} measured. */
export type LoadResult = {
  /** Requests autocannon started (it counts the last second's too, unanswered at the end). */
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
  /** Latency in ms (corrected for coordinated omission at a fixed rate). */
  latency: { p50: number; p90: number; p99: number; max: number; mean: number }
  /** Answers per second, averaged. */
  rps: number
  durationSeconds: number
  timeline: LoadSecond[]
}

/**
 * Runs autocannon against `url` at `rate` requests per second for `durationSeconds`.
 *
 * @example
 * const result = await runLoad({ url: 'http://127.0.0.1:4300', requests: [{ method: 'GET', path: '/healthz' }], rate: 100, durationSeconds: 5, connections: 10 })
 */
export async function runLoad(parameters: RunLoadParameters): Promise<LoadResult> {
  const timeline = new Map<number, LoadSecond>()
  let startedAt = 0
  const bucket = () => {
    const second = Math.floor((Date.now() - startedAt) / 1000)
    let entry = timeline.get(second)
    if (!entry) {
      entry = { second, statuses: {}, errors: 0 }
      timeline.set(second, entry)
    }
    return entry
  }
  let finish: (error: Error | null, result: autocannon.Result) => void = () => {}
  const finished = new Promise<autocannon.Result>((done, fail) => {
    finish = (error, result) => (error ? fail(error) : done(result))
  })
  const instance = autocannon(
    {
      url: parameters.url,
      connections: parameters.connections,
      overallRate: parameters.rate,
      duration: parameters.durationSeconds,
      timeout: parameters.timeoutSeconds ?? 10,
      headers: parameters.headers ?? {},
      requests: parameters.requests.map((request) => ({
        method: request.method,
        path: request.path,
        ...(request.body === undefined ? {} : { body: request.body }),
        ...(request.headers ? { headers: request.headers } : {}),
      })),
    },
    (error, result) => finish(error, result),
  )
  startedAt = Date.now()
  parameters.onStart?.(startedAt)
  instance.on('response', (_client, statusCode) => {
    const entry = bucket()
    entry.statuses[statusCode] = (entry.statuses[statusCode] ?? 0) + 1
  })
  instance.on('reqError', () => {
    bucket().errors++
  })
  const result = await finished
  const statuses: Record<string, number> = {}
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {}))
    statuses[code] = count ?? 0
  const answered = Object.values(statuses).reduce((a, b) => a + b, 0)
  return {
    sent: result.requests.sent,
    answered,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statuses,
    latency: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.average,
    },
    rps: answered / Math.max(result.duration, 1e-9),
    durationSeconds: result.duration,
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
