/** Small statistics helpers for the benchmarks. */

/** The q-quantile (0..1) of samples, by nearest rank. */
export function quantile(samples: readonly number[], q: number): number {
  if (!samples.length) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[index] as number
}

/** Formats milliseconds with a sensible precision. */
export function ms(value: number): string {
  return value < 1
    ? `${value.toFixed(3)} ms`
    : value < 100
      ? `${value.toFixed(1)} ms`
      : `${Math.round(value)} ms`
}

/** Formats a byte count. */
export function bytes(value: number): string {
  return value < 1024 ? `${value} B` : `${(value / 1024).toFixed(1)} KiB`
}
