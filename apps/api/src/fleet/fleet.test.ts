/**
 * Several API replicas over one database and one Redis, attacked the way a fleet fails: a client
 * spreading requests over replicas, Redis dying and coming back, the database going away, a
 * forged request id, a scrape of the metrics.
 */
import { connect, createServer, type Server, type Socket } from 'node:net'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestDatabase, openTestDatabase } from '../../test/databases.js'
import { startTestRedis, type TestRedis } from '../../test/redisServer.js'
import { createTestApp, type TestApp } from '../../test/testApp.js'
import type { Db } from '../db/Db.js'
import { openDatabase } from '../db/openDatabase.js'
import { createApiMetrics } from './metrics.js'
import { openRedis } from './redis.js'

let server: TestRedis
beforeAll(async () => {
  server = await startTestRedis()
})
afterAll(async () => {
  await server?.stop()
})

const clients: Redis[] = []
afterAll(() => {
  for (const client of clients) client.disconnect()
})
async function connectRedis(): Promise<Redis> {
  const redis = await openRedis({ url: server.url })
  clients.push(redis)
  return redis
}

/** Three replicas (apps) over one database, each with its own Redis connection (or none). */
async function replicas(
  db: Db,
  { shared, rateLimit }: { shared: boolean; rateLimit: { ratePerSecond: number; burst: number } },
): Promise<TestApp[]> {
  const apps: TestApp[] = []
  for (let i = 0; i < 3; i++)
    apps.push(
      await createTestApp(
        { rateLimit, trustProxy: 1 },
        { db, catalogue: i === 0, ...(shared ? { fleet: { redis: await connectRedis() } } : {}) },
      ),
    )
  return apps
}

async function spread(apps: TestApp[], count: number, ip: string): Promise<number[]> {
  const statuses: number[] = []
  for (let i = 0; i < count; i++) {
    const response = await apps[i % apps.length]!.get('/getWallets', { 'x-forwarded-for': ip })
    statuses.push(response.status)
  }
  return statuses
}

describe('rate limits across replicas', () => {
  test('a client spreading requests over three replicas is limited as one', async () => {
    const db = await openTestDatabase('postgres')
    try {
      const apps = await replicas(db, { shared: true, rateLimit: { ratePerSecond: 1, burst: 6 } })
      const statuses = await spread(apps, 18, '203.0.113.10')
      expect(statuses.filter((status) => status === 200)).toHaveLength(6)
      expect(statuses.filter((status) => status === 429)).toHaveLength(12)
      // Another client still has its own allowance.
      expect((await spread(apps, 3, '203.0.113.11')).every((status) => status === 200)).toBe(true)
    } finally {
      await db.close()
    }
  })

  test('without Redis the same spread gets three allowances (what the shared store prevents)', async () => {
    const db = await openTestDatabase('postgres')
    try {
      const apps = await replicas(db, { shared: false, rateLimit: { ratePerSecond: 1, burst: 6 } })
      const statuses = await spread(apps, 18, '203.0.113.12')
      expect(statuses.filter((status) => status === 200)).toHaveLength(18)
    } finally {
      await db.close()
    }
  })

  test('while Redis is down each replica limits by itself and nothing fails; then it rejoins', async () => {
    const db = await openTestDatabase('sqlite')
    try {
      const metrics = createApiMetrics({ processMetrics: false })
      const redis = await connectRedis()
      const app = await createTestApp(
        { rateLimit: { ratePerSecond: 1, burst: 4 }, trustProxy: 1 },
        { db, fleet: { redis, metrics } },
      )
      expect((await app.get('/readyz')).status).toBe(200)
      await server.kill()
      const during = await spread([app], 8, '198.51.100.1')
      expect(during.filter((status) => status === 200)).toHaveLength(4)
      expect(during.filter((status) => status === 429)).toHaveLength(4)
      const ready = await app.get('/readyz')
      expect(ready.status).toBe(503)
      expect(await ready.json()).toMatchObject({
        status: 'unavailable',
        redis: 'down',
        database: 'ok',
      })
      await server.start()
      await waitFor(async () => (await app.get('/readyz')).status === 200)
      // Back on the shared store: a fresh client has its allowance there.
      const after = await spread([app], 5, '198.51.100.2')
      expect(after.filter((status) => status === 200)).toHaveLength(4)
      expect(await redis.keys('porthole:rl:api:*')).toContain(
        'porthole:rl:api:198.51.100.2|test-project',
      )
      const text = await metrics.registry.metrics()
      expect(text).toMatch(/porthole_rate_limit_hits_total\{limiter="api"\} 5/)
    } finally {
      await db.close()
    }
  })
})

describe('database outages', () => {
  test('requests answer 503 while the database is away and recover without a restart', async () => {
    const target = await createTestDatabase('postgres')
    const upstream = new URL(target.url)
    const proxy = await startTcpProxy(Number(upstream.port))
    const proxied = new URL(target.url)
    proxied.port = String(proxy.port)
    const db = await openDatabase({ url: proxied.href })
    const app = await createTestApp({}, { db })
    try {
      expect((await app.get('/getWallets')).status).toBe(200)
      await proxy.pause()
      const during = await app.get('/getWallets')
      expect(during.status).toBe(503)
      expect(during.headers.get('retry-after')).toBe('1')
      expect(await during.json()).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: 'Service Unavailable',
      })
      const ready = await app.get('/readyz')
      expect(ready.status).toBe(503)
      expect(await ready.json()).toMatchObject({ database: 'down' })
      await proxy.resume()
      await waitFor(async () => (await app.get('/getWallets')).status === 200)
      expect((await app.get('/readyz')).status).toBe(200)
    } finally {
      await db.close()
      await proxy.close()
      await target.cleanup()
    }
  })

  test('readiness says so when the database lacks a migration', async () => {
    const app = await createTestApp({})
    try {
      expect(await (await app.get('/readyz')).json()).toEqual({
        status: 'ready',
        database: 'ok',
        redis: 'off',
        migrations: 'ok',
      })
      await app.db.execute(
        'DELETE FROM schema_migrations WHERE version = (SELECT MAX(version) FROM schema_migrations)',
      )
      const behind = await app.get('/readyz')
      expect(behind.status).toBe(503)
      expect(await behind.json()).toMatchObject({ status: 'unavailable', migrations: 'behind' })
    } finally {
      await app.close()
    }
  })
})

describe('request ids and metrics', () => {
  test("a caller's plain request id is answered and counted by route; a forged one is replaced", async () => {
    const metrics = createApiMetrics({ processMetrics: false })
    const app = await createTestApp({}, { fleet: { metrics } })
    try {
      const own = await app.get('/getWallets', { 'x-request-id': 'ph-3f9c.12' })
      expect(own.headers.get('x-request-id')).toBe('ph-3f9c.12')
      const forged = await app.get('/getWallets', { 'x-request-id': 'x" level=error msg=forged' })
      expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
      const fromQuery = await app.get('/getWallets?rid=modal-7.3')
      expect(fromQuery.headers.get('x-request-id')).toBe('modal-7.3')
      await app.get('/v1/account/0x00000000000000000000000000000000000000aa/balance?currency=usd')
      await app.get('/no/such/0xabc')
      const text = await (await app.get('/metrics')).text()
      expect(text).toMatch(
        /porthole_http_requests_total\{method="GET",route="\/getWallets",status="200"\} 3/,
      )
      expect(text).toContain('route="unmatched"')
      expect(text).not.toContain('0x00000000000000000000000000000000000000aa')
      expect(text).not.toContain('/no/such')
    } finally {
      await app.close()
    }
  })

  test('/metrics wants the bearer token when one is configured', async () => {
    const metrics = createApiMetrics({ processMetrics: false })
    const app = await createTestApp({}, { fleet: { metrics, metricsToken: 's3cret-token' } })
    try {
      expect((await app.get('/metrics')).status).toBe(401)
      expect((await app.get('/metrics', { authorization: 'Bearer wrong-token!' })).status).toBe(401)
      expect((await app.get('/metrics', { authorization: 'Bearer s3cret-token' })).status).toBe(200)
    } finally {
      await app.close()
    }
  })
})

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('condition not met in time')
}

/** A TCP forwarder to a local port that a test can cut (every connection dropped) and restore. */
async function startTcpProxy(targetPort: number) {
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let port = 0
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = connect(targetPort, '127.0.0.1')
        for (const socket of [client, upstream]) {
          sockets.add(socket)
          socket.on('close', () => sockets.delete(socket))
          socket.on('error', () => socket.destroy())
        }
        client.pipe(upstream).pipe(client)
      })
      next.once('error', reject)
      next.listen(port, '127.0.0.1', () => {
        port = (next.address() as { port: number }).port
        server = next
        resolve()
      })
    })
  const pause = async () => {
    const running = server
    server = undefined
    for (const socket of sockets) socket.destroy()
    await new Promise<void>((resolve) => (running ? running.close(() => resolve()) : resolve()))
  }
  await listen()
  return { port, pause, resume: listen, close: pause }
}
