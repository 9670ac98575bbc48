/** Test helper: an API app over a fresh in-memory database with the catalogue and a project. */
import type { Hono } from 'hono'
import { createApp } from '../src/app.js'
import { seedWallets } from '../src/catalogue/seedWallets.js'
import type { ApiConfig } from '../src/config.js'
import type { Db } from '../src/db/Db.js'
import { openDatabase } from '../src/db/openDatabase.js'
import type { AppEnv } from '../src/http/AppEnv.js'
import { createProject } from '../src/projects/createProject.js'

/** Origins the test app's CORS allows. */
export const MODAL_ORIGIN = 'http://127.0.0.1:4100'
export const WALLET_ORIGIN = 'http://127.0.0.1:4200'
/** The project every test app has. */
export const PROJECT_ID = 'test-project'

/** A test app, its database, and `get`/`post` helpers that add `?projectId`. */
export type TestApp = {
  app: Hono<AppEnv>
  db: Db
  /** GET `path` with `projectId` (unless the query already names one) and `st`/`sv`. */
  get(path: string, headers?: Record<string, string>): Promise<Response>
  /** POST JSON to `path` with `projectId`. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>
  close(): Promise<void>
}

/** Builds the app with rate limiting off and no project cache unless `config` says otherwise. */
export async function createTestApp(config: Partial<ApiConfig> = {}): Promise<TestApp> {
  const db = await openDatabase({ url: ':memory:' })
  await seedWallets(db)
  await createProject(db, {
    id: PROJECT_ID,
    origins: ['http://localhost:4000', 'https://*.shop.test'],
  })
  const app = createApp({
    db,
    config: {
      publicUrl: 'http://api.test',
      frameOrigins: [MODAL_ORIGIN, WALLET_ORIGIN],
      rateLimit: false,
      projectCacheMs: 0,
      upstreams: {},
      onError: () => undefined,
      ...config,
    },
  })
  const withProject = (path: string) =>
    /[?&]projectId=/.test(path)
      ? path
      : `${path}${path.includes('?') ? '&' : '?'}projectId=${PROJECT_ID}&st=appkit&sv=html-test-1`
  return {
    app,
    db,
    get: async (path, headers = {}) => app.request(withProject(path), { headers }),
    post: async (path, body, headers = {}) =>
      app.request(withProject(path), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close: () => db.close(),
  }
}
