/**
 * Prometheus metrics of an API replica (prom-client), served at `GET /metrics`: request rate and
 * latency per route, rate-limit refusals, the indexer's leadership and lag, and Node's own
 * process figures. Each `createApiMetrics()` has its own registry, so several APIs in one
 * process (tests) do not mix their counts.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { IndexerChainStatus } from '../chaindata/createIndexer.js'

/** What the indexer gauges read when scraped. */
export type IndexerMetricsSource = () => {
  /** Whether this replica holds the indexer lock (always true for a lone indexer). */
  leader: boolean
  /** Per chain, from `Indexer.status()`; empty when this replica does not index. */
  chains: readonly IndexerChainStatus[]
}

/** The metrics of one API. */
export type ApiMetrics = {
  readonly registry: Registry
  /** Counts one answered request. `route` is the matched route pattern, never the raw path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void
  /** Counts one request refused by the limiter `name`. */
  rateLimited(name: string): void
  /** Where the indexer gauges come from; default: not leader, no chains. */
  setIndexerSource(source: IndexerMetricsSource): void
}

/**
 * A fresh set of API metrics; `processMetrics: false` leaves out Node's default collectors
 * (memory, event-loop lag, GC).
 *
 * @example
 * const metrics = createApiMetrics()
 * metrics.observeRequest('GET', '/v1/account/:address/balance', 200, 0.004)
 * await metrics.registry.metrics() // '# HELP porthole_http_requests_total …'
 */
export function createApiMetrics({
  processMetrics = true,
  labels = {},
}: {
  processMetrics?: boolean
  labels?: Record<string, string>
} = {}): ApiMetrics {
  const registry = new Registry()
  registry.setDefaultLabels(labels)
  if (processMetrics) collectDefaultMetrics({ register: registry, prefix: 'porthole_' })
  const requests = new Counter({
    name: 'porthole_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'porthole_http_request_duration_seconds',
    help: 'Time from a request reaching the API to its answer, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  const limited = new Counter({
    name: 'porthole_rate_limit_hits_total',
    help: 'Requests refused with 429 Rate Limited, by limiter.',
    labelNames: ['limiter'] as const,
    registers: [registry],
  })
  let source: IndexerMetricsSource = () => ({ leader: false, chains: [] })
  new Gauge({
    name: 'porthole_indexer_leader',
    help: '1 while this replica holds the indexer lock and runs the indexer, else 0.',
    registers: [registry],
    collect() {
      this.set(source().leader ? 1 : 0)
    },
  })
  new Gauge({
    name: 'porthole_indexer_lag_blocks',
    help: "Blocks between a chain's head and the last block indexed (on the leader).",
    labelNames: ['chain'] as const,
    registers: [registry],
    collect() {
      this.reset()
      for (const chain of source().chains)
        if (chain.head >= 0)
          this.set({ chain: chain.chainId }, Math.max(0, chain.head - chain.indexed))
    },
  })
  new Gauge({
    name: 'porthole_indexer_last_block',
    help: 'The last block indexed per chain (on the leader; -1 before the first).',
    labelNames: ['chain'] as const,
    registers: [registry],
    collect() {
      this.reset()
      for (const chain of source().chains) this.set({ chain: chain.chainId }, chain.indexed)
    },
  })
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) })
      duration.observe({ method, route }, seconds)
    },
    rateLimited(name) {
      limited.inc({ limiter: name })
    },
    setIndexerSource(next) {
      source = next
    },
  }
}
