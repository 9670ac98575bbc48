import { DEMO_PROJECT_ID, InvalidOriginPatternError, isOriginAllowed } from '@porthole/shared'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createTestDatabase, DRIVERS, openTestDatabase } from '../../test/databases.js'
import type { Db, DbExecutor, SqlValue } from '../db/Db.js'
import { migrate, migrations } from '../db/migrations.js'
import { openDatabase } from '../db/openDatabase.js'
import { allowOrigin } from './allowOrigin.js'
import { createProject } from './createProject.js'
import { createProjectCache, NEGATIVE_CACHE_MS } from './createProjectCache.js'
import { denyOrigin } from './denyOrigin.js'
import { DEFAULT_REMOTE_FEATURES, resolveRemoteFeatures } from './features.js'
import { getProject } from './getProject.js'
import { listProjects } from './listProjects.js'
import { InvalidProjectIdError, ProjectExistsError, ProjectNotFoundError } from './Project.js'
import { seedDemoProject } from './seedDemoProject.js'
import { setProjectFeatures } from './setProjectFeatures.js'
import {
  OriginNotAllowedError,
  trustOrigin,
  untrustOrigin,
  WildcardTrustError,
} from './trustOrigin.js'

describe.each(DRIVERS)('projects on %s', (driver) => {
  let db: Db
  beforeEach(async () => {
    db = await openTestDatabase(driver)
  })
  afterEach(async () => {
    await db.close()
  })

  test('creates a project with a random 32-hex id and normalised, de-duplicated origins', async () => {
    const project = await createProject(db, {
      name: ' Shop ',
      origins: ['HTTPS://Shop.Example.com:443', 'https://shop.example.com', 'http://localhost:*'],
    })
    expect(project.id).toMatch(/^[0-9a-f]{32}$/)
    expect(project.name).toBe('Shop')
    expect(project.origins).toEqual(['http://localhost:*', 'https://shop.example.com'])
    expect(await getProject(db, project.id)).toEqual(project)
  })

  test('creates a project with a given id and refuses to create it twice', async () => {
    await createProject(db, { id: 'my-app', origins: [] })
    await expect(createProject(db, { id: 'my-app' })).rejects.toThrow(ProjectExistsError)
    await expect(createProject(db, { id: 'bad id!' })).rejects.toThrow(InvalidProjectIdError)
  })

  test('refuses invalid origin patterns and writes nothing', async () => {
    for (const origin of ['*', 'ftp://x.com', 'https://example.com/path', 'example.com'])
      await expect(createProject(db, { id: 'p', origins: [origin] })).rejects.toThrow(
        InvalidOriginPatternError,
      )
    expect(await listProjects(db)).toEqual([])
  })

  test('a wildcard over a public suffix is refused: no stranger’s site under it can frame the modal', async () => {
    const project = await createProject(db, { id: 'shop', origins: ['https://shop.example'] })
    for (const origin of ['https://*.com', 'https://*.co.uk', 'https://*.github.io'])
      await expect(allowOrigin(db, { projectId: project.id, origin })).rejects.toThrow(
        /is a public suffix/,
      )
    await expect(
      createProject(db, { id: 'shop2', origins: ['https://*.vercel.app'] }),
    ).rejects.toThrow(InvalidOriginPatternError)
    const stored = await getProject(db, 'shop')
    expect(stored?.origins).toEqual(['https://shop.example'])
    expect(isOriginAllowed('https://attacker.github.io', stored?.origins ?? [])).toBe(false)
    expect(await getProject(db, 'shop2')).toBeUndefined()
  })

  test('allow and deny are idempotent and match after normalisation', async () => {
    const { id } = await createProject(db, { origins: ['https://a.example'] })
    expect(await allowOrigin(db, { projectId: id, origin: 'https://*.Example.com' })).toEqual({
      origin: 'https://*.example.com',
      added: true,
    })
    expect(
      (await allowOrigin(db, { projectId: id, origin: 'https://*.example.com:443' })).added,
    ).toBe(false)
    expect((await getProject(db, id))?.origins).toEqual([
      'https://*.example.com',
      'https://a.example',
    ])
    expect(await denyOrigin(db, { projectId: id, origin: 'HTTPS://A.EXAMPLE' })).toEqual({
      origin: 'https://a.example',
      removed: true,
    })
    expect((await denyOrigin(db, { projectId: id, origin: 'https://a.example' })).removed).toBe(
      false,
    )
    expect((await getProject(db, id))?.origins).toEqual(['https://*.example.com'])
  })

  test('allow and deny refuse unknown projects and invalid patterns', async () => {
    await expect(allowOrigin(db, { projectId: 'nope', origin: 'https://a.b' })).rejects.toThrow(
      ProjectNotFoundError,
    )
    await expect(denyOrigin(db, { projectId: 'nope', origin: 'https://a.b' })).rejects.toThrow(
      ProjectNotFoundError,
    )
    const { id } = await createProject(db)
    await expect(allowOrigin(db, { projectId: id, origin: 'https://*' })).rejects.toThrow(
      InvalidOriginPatternError,
    )
  })

  test('wildcard allowlists match subdomains and any port, not the bare domain', async () => {
    const { id } = await createProject(db, {
      origins: ['https://*.example.com', 'http://localhost:*'],
    })
    const { origins } = (await getProject(db, id))!
    expect(isOriginAllowed('https://app.example.com', origins)).toBe(true)
    expect(isOriginAllowed('https://a.b.example.com', origins)).toBe(true)
    expect(isOriginAllowed('https://example.com', origins)).toBe(false)
    expect(isOriginAllowed('http://app.example.com', origins)).toBe(false)
    expect(isOriginAllowed('http://localhost:5173', origins)).toBe(true)
    expect(isOriginAllowed('http://localhost', origins)).toBe(true)
    expect(isOriginAllowed('https://localhost:5173', origins)).toBe(false)
  })

  test('lists projects oldest first with their origins', async () => {
    const a = await createProject(db, { id: 'a', name: 'A', origins: ['https://a.test'] })
    const b = await createProject(db, { id: 'b', name: 'B' })
    expect((await listProjects(db)).map((p) => [p.id, p.name, p.origins])).toEqual([
      [a.id, 'A', ['https://a.test']],
      [b.id, 'B', []],
    ])
  })

  test('seedDemoProject is idempotent and keeps origins added by hand', async () => {
    const first = await seedDemoProject(db, { demoOrigin: 'http://localhost:4000' })
    expect(first).toMatchObject({ id: DEMO_PROJECT_ID, origins: ['http://localhost:4000'] })
    await allowOrigin(db, { projectId: DEMO_PROJECT_ID, origin: 'http://localhost:5173' })
    await Promise.all([seedDemoProject(db), seedDemoProject(db)])
    const again = await seedDemoProject(db, { demoOrigin: 'http://localhost:4000' })
    expect(again.origins).toEqual(['http://localhost:4000', 'http://localhost:5173'])
    expect((await listProjects(db)).filter((p) => p.id === DEMO_PROJECT_ID)).toHaveLength(1)
  })

  test('seedDemoProject turns multi-wallet on for the demo project once; an operator turning it off is kept', async () => {
    const seeded = await seedDemoProject(db, { demoOrigin: 'http://localhost:4000' })
    expect(resolveRemoteFeatures(seeded.features).multiWallet).toBe(true)
    await setProjectFeatures(db, { projectId: DEMO_PROJECT_ID, features: { multiWallet: false } })
    const again = await seedDemoProject(db, { demoOrigin: 'http://localhost:4000' })
    expect(resolveRemoteFeatures(again.features).multiWallet).toBe(false)
  })

  test('seedDemoProject trusts the demo origin it adds for approvals in the page, and keeps an untrust', async () => {
    const seeded = await seedDemoProject(db, { demoOrigin: 'http://localhost:4000' })
    expect(seeded.inlineApprovalOrigins).toEqual(['http://localhost:4000'])
    await allowOrigin(db, { projectId: DEMO_PROJECT_ID, origin: 'http://localhost:5173' })
    await untrustOrigin(db, { projectId: DEMO_PROJECT_ID, origin: 'http://localhost:4000' })
    const again = await seedDemoProject(db, { demoOrigin: 'http://localhost:4000' })
    expect(again.inlineApprovalOrigins).toEqual([])
  })

  test('a new project and an origin allowed later are not trusted: every approval there goes to the popup', async () => {
    const { id, inlineApprovalOrigins } = await createProject(db, {
      origins: ['https://shop.example'],
    })
    expect(inlineApprovalOrigins).toEqual([])
    await allowOrigin(db, { projectId: id, origin: 'https://admin.shop.example' })
    expect((await getProject(db, id))?.inlineApprovalOrigins).toEqual([])
  })

  test('trust takes an exact allowed origin, normalised; untrust ends it and the origin stays allowed', async () => {
    const { id } = await createProject(db, { origins: ['https://shop.example', 'https://b.test'] })
    expect(await trustOrigin(db, { projectId: id, origin: 'HTTPS://Shop.Example:443' })).toEqual({
      origin: 'https://shop.example',
      changed: true,
    })
    expect((await trustOrigin(db, { projectId: id, origin: 'https://shop.example' })).changed).toBe(
      false,
    )
    expect((await getProject(db, id))?.inlineApprovalOrigins).toEqual(['https://shop.example'])
    expect(await untrustOrigin(db, { projectId: id, origin: 'https://shop.example' })).toEqual({
      origin: 'https://shop.example',
      changed: true,
    })
    expect(
      (await untrustOrigin(db, { projectId: id, origin: 'https://shop.example' })).changed,
    ).toBe(false)
    expect(await getProject(db, id)).toMatchObject({
      origins: ['https://b.test', 'https://shop.example'],
      inlineApprovalOrigins: [],
    })
  })

  test('trust is refused for an origin the project does not allow, for a wildcard, and for an unknown project; nothing is written', async () => {
    const { id } = await createProject(db, {
      origins: ['https://*.shop.example', 'https://a.test'],
    })
    // Covered by the wildcard, but not an entry of its own.
    await expect(
      trustOrigin(db, { projectId: id, origin: 'https://app.shop.example' }),
    ).rejects.toThrow(OriginNotAllowedError)
    await expect(trustOrigin(db, { projectId: id, origin: 'https://evil.test' })).rejects.toThrow(
      /https:\/\/evil\.test is not an allowed origin of project/,
    )
    await expect(
      trustOrigin(db, { projectId: id, origin: 'https://*.shop.example' }),
    ).rejects.toThrow(WildcardTrustError)
    await expect(trustOrigin(db, { projectId: id, origin: 'http://localhost:*' })).rejects.toThrow(
      WildcardTrustError,
    )
    await expect(trustOrigin(db, { projectId: 'nope', origin: 'https://a.test' })).rejects.toThrow(
      ProjectNotFoundError,
    )
    await expect(trustOrigin(db, { projectId: id, origin: 'ftp://a.test' })).rejects.toThrow(
      InvalidOriginPatternError,
    )
    expect((await getProject(db, id))?.inlineApprovalOrigins).toEqual([])
    // A row marked by hand cannot make a wildcard trusted either.
    await db.execute('UPDATE project_origins SET inline_approvals = 1 WHERE project_id = ?', [id])
    expect((await getProject(db, id))?.inlineApprovalOrigins).toEqual(['https://a.test'])
  })

  test('trust is per project: the same origin allowed by two projects is trusted only where it was trusted', async () => {
    const a = await createProject(db, { id: 'a', origins: ['https://shared.test'] })
    const b = await createProject(db, { id: 'b', origins: ['https://shared.test'] })
    await trustOrigin(db, { projectId: a.id, origin: 'https://shared.test' })
    expect((await getProject(db, 'a'))?.inlineApprovalOrigins).toEqual(['https://shared.test'])
    expect((await getProject(db, b.id))?.inlineApprovalOrigins).toEqual([])
  })

  test('a database before migration 17 reads its projects with nothing trusted; the migration trusts nothing', async () => {
    const target = await createTestDatabase(driver)
    const old = await openDatabase({ url: target.url, migrate: false })
    try {
      await migrate(
        old,
        migrations.filter((m) => m.version < 17),
      )
      await createProject(old, { id: 'before', origins: ['https://shop.example'] })
      expect((await getProject(old, 'before'))?.inlineApprovalOrigins).toEqual([])
      expect((await migrate(old)).applied).toContain(17)
      expect(await getProject(old, 'before')).toMatchObject({
        origins: ['https://shop.example'],
        inlineApprovalOrigins: [],
      })
    } finally {
      await old.close()
      await target.cleanup()
    }
  })

  test('deny ends the trust, and allowing the origin again does not bring it back', async () => {
    const { id } = await createProject(db, { origins: ['https://shop.example'] })
    await trustOrigin(db, { projectId: id, origin: 'https://shop.example' })
    await denyOrigin(db, { projectId: id, origin: 'https://shop.example' })
    await allowOrigin(db, { projectId: id, origin: 'https://shop.example' })
    expect(await getProject(db, id)).toMatchObject({
      origins: ['https://shop.example'],
      inlineApprovalOrigins: [],
    })
  })

  test('stored features override the spec defaults; invalid stored keys fall back', async () => {
    const { id } = await createProject(db, { features: { multiWallet: true, socials: ['google'] } })
    const project = (await getProject(db, id))!
    expect(resolveRemoteFeatures(project.features)).toEqual({
      ...DEFAULT_REMOTE_FEATURES,
      multiWallet: true,
      socials: ['google'],
    })
    await setProjectFeatures(db, { projectId: id, features: { swaps: false, analytics: false } })
    expect((await getProject(db, id))!.features).toEqual({ swaps: false, analytics: false })
    await db.execute('UPDATE projects SET features = ? WHERE id = ?', [
      '{"email":"yes","activity":false}',
      id,
    ])
    expect(resolveRemoteFeatures((await getProject(db, id))!.features)).toEqual({
      ...DEFAULT_REMOTE_FEATURES,
      activity: false,
    })
    await expect(setProjectFeatures(db, { projectId: 'nope', features: {} })).rejects.toThrow(
      ProjectNotFoundError,
    )
  })
})

describe('createProjectCache', () => {
  test('serves a found project for ttlMs and an unknown id for the negative TTL (10 s)', async () => {
    const db = await openTestDatabase('sqlite')
    let time = 0
    const cache = createProjectCache(db, { ttlMs: 1000, now: () => time })
    expect(await cache.get('later')).toBeUndefined()
    await createProject(db, { id: 'later' })
    time = NEGATIVE_CACHE_MS - 1
    expect(await cache.get('later')).toBeUndefined()
    time = NEGATIVE_CACHE_MS
    expect((await cache.get('later'))?.id).toBe('later')
    await createProject(db, { id: 'renamed' })
    await db.execute('DELETE FROM projects WHERE id = ?', ['later'])
    time += 999
    expect((await cache.get('later'))?.id).toBe('later')
    time += 1
    expect(await cache.get('later')).toBeUndefined()
    await db.close()
  })

  test('invented ids neither push out the projects in use nor make them unknown to the limiter', async () => {
    const db = await openTestDatabase('sqlite')
    await createProject(db, { id: 'shop' })
    let queries = 0
    const counting: DbExecutor = {
      query: ((sql: string, params?: readonly SqlValue[]) => {
        queries++
        return db.query(sql, params)
      }) as DbExecutor['query'],
      execute: db.execute.bind(db),
      dialect: db.dialect,
    }
    const cache = createProjectCache(counting, { ttlMs: 1000, maxEntries: 10, now: () => 0 })
    expect(cache.isKnown('shop')).toBe(false)
    expect((await cache.get('shop'))?.id).toBe('shop')
    expect(cache.isKnown('shop')).toBe(true)
    const before = queries
    for (let i = 0; i < 50; i++) expect(await cache.get(`invented-${i}`)).toBeUndefined()
    expect(cache.isKnown('invented-1')).toBe(false)
    const afterFlood = queries
    // Still cached: no query for the project in use.
    expect((await cache.get('shop'))?.id).toBe('shop')
    expect(queries).toBe(afterFlood)
    expect(cache.isKnown('shop')).toBe(true)
    expect(afterFlood - before).toBeGreaterThanOrEqual(50)
    await db.close()
  })

  test('ttl 0 reads the database every time', async () => {
    const db = await openTestDatabase('sqlite')
    const cache = createProjectCache(db, { ttlMs: 0 })
    expect(await cache.get('x')).toBeUndefined()
    await createProject(db, { id: 'x' })
    expect((await cache.get('x'))?.id).toBe('x')
    await db.close()
  })
})
