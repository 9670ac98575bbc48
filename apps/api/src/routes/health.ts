import { timingSafeEqual } from 'node:crypto'
import type { Hono } from 'hono'
import type { Redis } from 'ioredis'
import type { DbExecutor } from '../db/Db.js'
import { migrations } from '../db/migrations.js'
import { ApiError } from '../errors.js'
import type { ApiMetrics } from '../fleet/metrics.js'
import { redisAnswers } from '../fleet/redis.js'
import type { AppEnv } from '../http/AppEnv.js'

/** Options of {@link healthRoutes}. */
export type HealthRoutesOptions = {
  db: DbExecutor
  /** The fleet's Redis, when configured (its absence is not a fault). */
  redis?: Redis | undefined
  metrics?: ApiMetrics | undefined
  /** `PORTHOLE_METRICS_TOKEN`: when set, `/metrics` wants `Authorization: Bearer <token>`. */
  metricsToken?: string | undefined
  /** True once the process is draining (SIGTERM): not ready for new traffic. */
  draining?: () => boolean
}

const LATEST_MIGRATION = Math.max(...migrations.map((migration) => migration.version))

/**
 * Probes for load balancers and orchestrators, and the metrics scrape:
 * - `GET /healthz` → 200 `{ status: 'ok' }` while the process serves at all;
 * - `GET /readyz` → 200 `{ status: 'ready', database: 'ok', redis: 'ok' | 'off', migrations: 'ok' }`
 *   only when the database answers within 1 s with every migration applied, Redis (if
 *   configured) answers, and the process is not draining; else 503 with `status: 'unavailable'`
 *   (or `'draining'`) and the failing part marked `'down'` or `'behind'`;
 * - `GET /metrics` → Prometheus text (keep it off the public network: nginx denies it).
 *
 * @example
 * healthRoutes(app, { db, redis, metrics, draining: () => stopping })
 */
export function healthRoutes(
  app: Hono<AppEnv>,
  { db, redis, metrics, metricsToken, draining = () => false }: HealthRoutesOptions,
): void {
  app.get('/healthz', (c) => c.json({ status: 'ok' }))
  app.get('/readyz', async (c) => {
    const [database, cache] = await Promise.all([
      databaseState(db),
      redis ? redisAnswers(redis).then((ok) => (ok ? 'ok' : 'down')) : 'off',
    ])
    const report = {
      database: database === 'down' ? 'down' : 'ok',
      redis: cache,
      migrations: database === 'down' ? 'unknown' : database === 'behind' ? 'behind' : 'ok',
    }
    if (draining()) return c.json({ status: 'draining', ...report }, 503)
    const ready = database === 'ok' && cache !== 'down'
    return c.json({ status: ready ? 'ready' : 'unavailable', ...report }, ready ? 200 : 503)
  })
  if (!metrics) return
  app.get('/metrics', async (c) => {
    if (metricsToken !== undefined && !bearerMatches(c.req.header('authorization'), metricsToken))
      throw new ApiError('UNAUTHENTICATED')
    return c.body(await metrics.registry.metrics(), 200, {
      'Content-Type': metrics.registry.contentType,
    })
  })
}

async function databaseState(db: DbExecutor): Promise<'ok' | 'behind' | 'down'> {
  try {
    const rows = await Promise.race([
      db.query<{ version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations'),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('timeout')), 1000).unref(),
      ),
    ])
    return Number(rows[0]?.version ?? 0) >= LATEST_MIGRATION ? 'ok' : 'behind'
  } catch {
    return 'down'
  }
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, '') ?? '')
  const expected = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
