import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { afterEach, expect, test } from 'vitest'
import { quantile, runLoad } from './load.js'

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((done) => server?.close(done) ?? done(undefined))
  server = undefined
})

/** A local server answering each request through `handle`, with its arrival times. */
async function serve(
  handle: (index: number, req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; arrivals: number[] }> {
  const arrivals: number[] = []
  server = createServer((req, res) => {
    arrivals.push(performance.now())
    handle(arrivals.length - 1, req, res)
  })
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals }
}

const ok = (res: ServerResponse) => res.end('{}')

test('requests arrive evenly paced, not in a burst at the start of each second', async () => {
  const { url, arrivals } = await serve((_, __, res) => ok(res))
  const result = await runLoad({
    url,
    requests: [{ method: 'GET', path: '/' }],
    rate: 200,
    durationSeconds: 1,
    connections: 40,
  })
  expect(result.answered).toBe(200)
  expect(result.statuses).toEqual({ 200: 200 })
  // 200 per second is 10 per 50 ms; a per-second budget spent back to back would put most of
  // them in the first window.
  let busiest = 0
  for (const start of arrivals)
    busiest = Math.max(busiest, arrivals.filter((at) => at >= start && at < start + 50).length)
  expect(busiest).toBeLessThanOrEqual(20)
  expect((arrivals.at(-1) as number) - (arrivals[0] as number)).toBeGreaterThan(900)
})

test('a request that waits behind a slow one counts the wait (no coordinated omission)', async () => {
  // One connection: the 10th answer takes 400 ms, and the requests due meanwhile wait for it.
  const { url } = await serve((index, _, res) =>
    index === 9 ? setTimeout(() => ok(res), 400) : ok(res),
  )
  const result = await runLoad({
    url,
    requests: [{ method: 'GET', path: '/' }],
    rate: 100,
    durationSeconds: 1,
    connections: 1,
  })
  expect(result.answered).toBe(100)
  expect(result.latency.max).toBeGreaterThanOrEqual(390)
  // About 40 requests were due during the 400 ms: timed from when they were sent they would look
  // instant; from when they were due they are late.
  expect(result.latency.p90).toBeGreaterThanOrEqual(100)
})

test('a cut connection is an error and a request past the timeout a timeout, each counted once', async () => {
  const { url } = await serve((index, req, res) => {
    if (index === 2) req.socket.destroy()
    else if (index === 5) setTimeout(() => ok(res), 1500)
    else ok(res)
  })
  const result = await runLoad({
    url,
    requests: [{ method: 'GET', path: '/' }],
    rate: 20,
    durationSeconds: 0.5,
    connections: 10,
    timeoutSeconds: 0.3,
  })
  expect(result.sent).toBe(10)
  expect(result.answered).toBe(8)
  expect(result.errors).toBe(2)
  expect(result.timeouts).toBe(1)
  expect(result.timeline.reduce((sum, second) => sum + second.errors, 0)).toBe(2)
})

test('quantiles are read from the sorted values, the maximum included', () => {
  const values = Array.from({ length: 100 }, (_, i) => i + 1)
  expect(quantile(values, 0.5)).toBe(50)
  expect(quantile(values, 0.99)).toBe(99)
  expect(quantile(values, 1)).toBe(100)
  expect(quantile([], 0.5)).toBe(0)
})
