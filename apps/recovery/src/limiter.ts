/**
 * A fixed-window limiter: at most `limit` hits per key in each window.
 *
 * @example
 * const hit = createWindowLimiter(20, 60_000)
 * hit('user-1') // 0 while allowed, else the seconds to wait
 */
export function createWindowLimiter(
  limit: number,
  windowMs: number,
  now: () => number = Date.now,
): (key: string) => number {
  const windows = new Map<string, { start: number; count: number }>()
  return (key) => {
    const time = now()
    if (windows.size > 10_000)
      for (const [k, w] of windows) if (time - w.start >= windowMs) windows.delete(k)
    let window = windows.get(key)
    if (!window || time - window.start >= windowMs) {
      window = { start: time, count: 0 }
      windows.set(key, window)
    }
    window.count += 1
    if (window.count <= limit) return 0
    return Math.max(1, Math.ceil((window.start + windowMs - time) / 1000))
  }
}
