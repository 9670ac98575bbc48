import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../test/databases.js'
import { createTestApp, PROJECT_ID } from '../../test/testApp.js'
import { openDatabase } from '../db/openDatabase.js'
import { DEFAULT_REMOTE_FEATURES, RemoteFeatures } from '../projects/features.js'
import { getProject } from '../projects/getProject.js'
import { FEATURE_NAMES, parseFeatureChange, projectFeature } from './projectFeature.js'
import { runAdmin } from './runAdmin.js'

describe('project feature (admin CLI)', () => {
  let target: TestDatabase
  let projectId: string
  const run = async (argv: string[]) => {
    const out: string[] = []
    const err: string[] = []
    const code = await runAdmin(argv, {
      stdout: (line) => out.push(line),
      stderr: (line) => err.push(line),
      databaseUrl: target.url,
    })
    return { code, out: out.join('\n'), err: err.join('\n') }
  }

  beforeAll(async () => {
    target = await createTestDatabase('sqlite')
    const created = await run(['project', 'create', '--origin', 'https://f.test'])
    projectId = created.out.split('\n').at(-1) as string
  })
  afterAll(async () => {
    await target.cleanup()
  })

  test('turns a remote feature off, on and back to its default, keeping the others', async () => {
    const db = await openDatabase({ url: target.url })
    await run(['project', 'recovery', projectId, 'user'])

    const off = await run(['project', 'feature', projectId, 'email', 'off'])
    expect(off).toMatchObject({ code: 0, err: '' })
    expect(off.out).toContain(`Project ${projectId}: email is now off`)
    expect((await getProject(db, projectId))?.features).toEqual({ recovery: 'user', email: false })

    const on = await run(['project', 'feature', projectId, 'multiWallet', 'on'])
    expect(on.out).toContain('multiWallet is now on')
    const back = await run(['project', 'feature', projectId, 'email', 'default'])
    expect(back.out).toContain('email is now on (default)')
    expect((await getProject(db, projectId))?.features).toEqual({
      recovery: 'user',
      multiWallet: true,
    })
    await db.close()
  })

  test('socials, swaps and onramp take off, on (the default list) or a list of providers', async () => {
    const db = await openDatabase({ url: target.url })
    await run(['project', 'feature', projectId, 'socials', 'github, google,github'])
    expect((await getProject(db, projectId))?.features.socials).toEqual(['github', 'google'])
    await run(['project', 'feature', projectId, 'swaps', 'off'])
    expect((await getProject(db, projectId))?.features.swaps).toBe(false)
    await run(['project', 'feature', projectId, 'socials', 'on'])
    expect((await getProject(db, projectId))?.features.socials).toBeUndefined()
    await db.close()
  })

  test('without a feature it lists every switch and whether the project set it', async () => {
    await run(['project', 'feature', projectId, 'activity', 'off'])
    const { code, out } = await run(['project', 'feature', projectId])
    expect(code).toBe(0)
    expect(out).toMatch(/^activity\s+off$/m)
    expect(out).toMatch(/^email\s+on\s+\(default\)$/m)
    expect(out).toMatch(/^onramp\s+meld\s+\(default\)$/m)
    expect(out.split('\n')).toHaveLength(FEATURE_NAMES.length)
  })

  test.each([
    [['project', 'feature', 'PID', 'color', 'off'], 'Unknown feature "color": use email, socials'],
    [
      ['project', 'feature', 'PID', 'email', 'maybe'],
      'Unknown setting "maybe" for email: use on, off or default',
    ],
    [
      ['project', 'feature', 'PID', 'socials', 'google,myspace'],
      'comma list of google, x, discord',
    ],
    [['project', 'feature', 'PID', 'email'], 'project feature needs <projectId> [<feature>'],
    [['project', 'feature'], 'project feature needs <projectId>'],
    [['project', 'feature', 'no-such-project', 'email', 'off'], 'Unknown project: no-such-project'],
  ])('%j fails with %s', async (argv, message) => {
    const { code, err } = await run(argv.map((a) => (a === 'PID' ? projectId : a)))
    expect(code).toBe(1)
    expect(err).toContain(message)
  })

  test('every remote feature the API serves can be set', () => {
    expect([...FEATURE_NAMES].sort()).toEqual(
      [...Object.keys(RemoteFeatures.shape), 'analytics'].sort(),
    )
    expect(parseFeatureChange('onramp', 'coinbase,meld')).toEqual({
      change: { name: 'onramp', value: ['coinbase', 'meld'] },
    })
  })
})

test('a running API serves a feature turned off without a restart (project cache ≤ 1 s)', async () => {
  const t = await createTestApp({ projectCacheMs: 50 })
  try {
    const features = async () => (await (await t.get('/appkit/v1/config')).json()).features
    expect((await features()).email).toBe(true)
    await projectFeature(t.db, { projectId: PROJECT_ID, change: { name: 'email', value: false } })
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(await features()).toEqual({ ...DEFAULT_REMOTE_FEATURES, email: false })
    await projectFeature(t.db, {
      projectId: PROJECT_ID,
      change: { name: 'email', value: undefined },
    })
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect((await features()).email).toBe(true)
  } finally {
    await t.close()
  }
})
