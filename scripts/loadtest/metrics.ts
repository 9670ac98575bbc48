/**
 * Reading the replicas' Prometheus text (`GET /metrics` on each replica's own address).
 */

/** One sample: metric name, labels, value. */
export type Sample = { name: string; labels: Record<string, string>; value: number }

/**
 * Parses Prometheus text exposition (comments and blank lines skipped).
 *
 * @example
 * parseMetrics('porthole_indexer_leader{replica="api-1"} 1')
 * // [{ name: 'porthole_indexer_leader', labels: { replica: 'api-1' }, value: 1 }]
 */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line)
    if (!match) continue
    const labels: Record<string, string> = {}
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1] as string] = (pair[2] as string).replace(/\\(.)/g, '$1')
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) })
  }
  return samples
}

/**
 * The sum of `name`'s samples whose labels match `where` (a string: equal; a RegExp: matches).
 *
 * @example
 * sumMetric(samples, 'porthole_http_requests_total', { route: /balance/ })
 */
export function sumMetric(
  samples: readonly Sample[],
  name: string,
  where: Record<string, string | RegExp> = {},
): number {
  let sum = 0
  for (const sample of samples) {
    if (sample.name !== name) continue
    const matches = Object.entries(where).every(([key, want]) => {
      const have = sample.labels[key]
      return have !== undefined && (typeof want === 'string' ? have === want : want.test(have))
    })
    if (matches) sum += sample.value
  }
  return sum
}

/**
 * A replica's samples, or undefined when it does not answer (down, restarting).
 *
 * @example
 * const samples = await scrape('http://127.0.0.1:4311')
 */
export async function scrape(replicaUrl: string, timeoutMs = 2000): Promise<Sample[] | undefined> {
  try {
    const response = await fetch(`${replicaUrl}/metrics`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: process.env.PORTHOLE_METRICS_TOKEN
        ? { authorization: `Bearer ${process.env.PORTHOLE_METRICS_TOKEN}` }
        : {},
    })
    if (!response.ok) return undefined
    return parseMetrics(await response.text())
  } catch {
    return undefined
  }
}
