/** Test helper: an API app over a fresh database with the catalogue and a project. */
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import type { Hono } from 'hono'
import { type AppFleet, createApp } from '../src/app.js'
import { seedWallets } from '../src/catalogue/seedWallets.js'
import type { ApiConfigOverrides } from '../src/config.js'
import type { Db } from '../src/db/Db.js'
import { openDatabase } from '../src/db/openDatabase.js'
import type { AppEnv } from '../src/http/AppEnv.js'
import { createProject } from '../src/projects/createProject.js'
import { getProject } from '../src/projects/getProject.js'
import { type Driver, openTestDatabase } from './databases.js'

/** Origins the test app's CORS allows. */
export const MODAL_ORIGIN = 'http://127.0.0.1:4100'
export const WALLET_ORIGIN = 'http://127.0.0.1:4200'
/** The project every test app has. */
export const PROJECT_ID = 'test-project'
/** The test app's public URL. */
export const PUBLIC_URL = 'http://api.test'

/** A test app, its database, and `get`/`post` helpers that add `?projectId`. */
export type TestApp = {
  app: Hono<AppEnv>
  db: Db
  /** GET `path` with `projectId` (unless the query already names one) and `st`/`sv`. */
  get(path: string, headers?: Record<string, string>): Promise<Response>
  /** POST JSON to `path` with `projectId`. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>
  /** Sends `method` with a JSON body (when given) to `path` with `projectId`. */
  send(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Response>
  close(): Promise<void>
}

/** Options of {@link createTestApp} besides the configuration. */
export type CreateTestAppOptions = {
  /** `sqlite` (in memory, the default) or `postgres` (a fresh schema). */
  driver?: Driver
  /** Seed the wallet catalogue (default true). */
  catalogue?: boolean
  /** A replica's fleet parts (Redis, metrics, logger). */
  fleet?: AppFleet
  /** Share this open database (another replica's) instead of opening one; left open by `close()`. */
  db?: Db
}

/**
 * Fresh auth keys for a test app (so no key file is written).
 *
 * @example
 * createTestApp({ auth: { ...testAuthKeys(), smtpUrl } })
 */
export function testAuthKeys(): { shareKey: string; signingKey: string } {
  return {
    shareKey: randomBytes(32).toString('base64'),
    signingKey: JSON.stringify(generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' })),
  }
}

/** Builds the app with rate limiting off and no project cache unless `config` says otherwise. */
export async function createTestApp(
  config: ApiConfigOverrides = {},
  { driver = 'sqlite', catalogue = true, fleet, db: shared }: CreateTestAppOptions = {},
): Promise<TestApp> {
  const db =
    shared ??
    (driver === 'sqlite' ? await openDatabase({ url: ':memory:' }) : await openTestDatabase(driver))
  if (catalogue) await seedWallets(db)
  // Another replica over the same database made it already.
  if (!shared || !(await getProject(db, PROJECT_ID)))
    await createProject(db, {
      id: PROJECT_ID,
      origins: ['http://localhost:4000', 'https://*.shop.test'],
    })
  const { auth, ...rest } = config
  const app = createApp({
    db,
    ...(fleet ? { fleet } : {}),
    config: {
      publicUrl: PUBLIC_URL,
      frameOrigins: [MODAL_ORIGIN, WALLET_ORIGIN],
      walletUrl: WALLET_ORIGIN,
      credentialOrigins: [WALLET_ORIGIN],
      rateLimit: false,
      projectCacheMs: 0,
      upstreams: {},
      onError: () => undefined,
      ...rest,
      auth: { smtpUrl: 'smtp://127.0.0.1:1', ...testAuthKeys(), ...auth },
    },
  })
  const withProject = (path: string) =>
    /[?&]projectId=/.test(path)
      ? path
      : `${path}${path.includes('?') ? '&' : '?'}projectId=${PROJECT_ID}&st=appkit&sv=html-test-1`
  const send: TestApp['send'] = async (method, path, body, headers = {}) =>
    app.request(withProject(path), {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    })
  return {
    app,
    db,
    get: async (path, headers = {}) => app.request(withProject(path), { headers }),
    post: (path, body, headers = {}) => send('POST', path, body, headers),
    send,
    close: async () => {
      if (!shared) await db.close()
    },
  }
}
