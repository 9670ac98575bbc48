import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../test/databases.js'
import { openDatabase } from '../db/openDatabase.js'
import { getProject } from '../projects/getProject.js'
import { runAdmin } from './runAdmin.js'

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url))
const REPO = fileURLToPath(new URL('../../../../', import.meta.url))

/** Runs the CLI as `npm run admin` does: `tsx apps/api/src/admin/cli.ts …` from the repo root. */
function cli(args: string[], databaseUrl: string) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: REPO,
    env: { ...process.env, PORTHOLE_DATABASE_URL: databaseUrl },
    encoding: 'utf8',
    timeout: 30_000,
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

// Each test spawns `tsx` (a few seconds on a busy 2-core machine): a generous timeout.
describe('admin CLI (spawned)', { timeout: 90_000 }, () => {
  let target: TestDatabase
  beforeAll(async () => {
    target = await createTestDatabase('sqlite')
  })
  afterAll(async () => {
    await target.cleanup()
  })

  test('create prints the projectId alone on the last line; allow, deny and list work', async () => {
    const created = cli(
      [
        'project',
        'create',
        '--origin',
        'https://*.Shop.test',
        '--origin',
        'http://localhost:*',
        '--name',
        'Shop',
      ],
      target.url,
    )
    expect(created.stderr).toBe('')
    expect(created.code).toBe(0)
    const lines = created.stdout.trimEnd().split('\n')
    const id = lines.at(-1)!
    expect(id).toMatch(/^[0-9a-f]{32}$/)

    expect(cli(['project', 'allow', id, 'https://admin.shop.test'], target.url).code).toBe(0)
    const denied = cli(['project', 'deny', id, 'http://localhost:*'], target.url)
    expect(denied).toMatchObject({ code: 0 })
    expect(denied.stdout).toContain('Denied http://localhost:*')

    const list = cli(['project', 'list'], target.url)
    expect(list.code).toBe(0)
    expect(list.stdout).toMatch(
      new RegExp(`${id}\\s+Shop\\s+https://\\*\\.shop\\.test, https://admin\\.shop\\.test`),
    )

    const db = await openDatabase({ url: target.url })
    expect((await getProject(db, id))?.origins).toEqual([
      'https://*.shop.test',
      'https://admin.shop.test',
    ])
    await db.close()
  })

  test('recovery sets the policy and keeps the other features; bad input is refused', async () => {
    const id = cli(['project', 'create', '--origin', 'https://r.test'], target.url)
      .stdout.trimEnd()
      .split('\n')
      .at(-1)!
    const db = await openDatabase({ url: target.url })
    await db.execute('UPDATE projects SET features = ? WHERE id = ?', ['{"swaps":false}', id])
    const set = cli(['project', 'recovery', id, 'user'], target.url)
    expect(set).toMatchObject({ code: 0, stderr: '' })
    expect(set.stdout).toContain('recovers wallets: user')
    expect((await getProject(db, id))?.features).toEqual({ swaps: false, recovery: 'user' })
    const wrong = cli(['project', 'recovery', id, 'operator'], target.url)
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain('Unknown recovery policy "operator": use automatic or user')
    expect(cli(['project', 'recovery', 'nope', 'user'], target.url).stderr).toContain(
      'Unknown project: nope',
    )
    expect((await getProject(db, id))?.features.recovery).toBe('user')
    await db.close()
  })

  test('bad input exits 1 with a clear message on stderr', () => {
    const unknown = cli(['project', 'allow', 'no-such-project', 'https://a.test'], target.url)
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('Unknown project: no-such-project')
    expect(unknown.stdout).toBe('')

    const invalid = cli(['project', 'create', '--origin', 'ftp://a.test'], target.url)
    expect(invalid.code).toBe(1)
    expect(invalid.stderr).toContain('Invalid origin pattern: ftp://a.test')

    const usage = cli([], target.url)
    expect(usage.code).toBe(1)
    expect(usage.stderr).toContain('Usage: npm run admin')
  })
})

describe('runAdmin', () => {
  const run = async (argv: string[], databaseUrl = ':memory:') => {
    const out: string[] = []
    const err: string[] = []
    const code = await runAdmin(argv, {
      stdout: (line) => out.push(line),
      stderr: (line) => err.push(line),
      databaseUrl,
    })
    return { code, out: out.join('\n'), err: err.join('\n') }
  }

  test.each([
    [['project', 'create'], 'needs at least one --origin'],
    [['project', 'create', 'extra', '--origin', 'https://a.test'], 'takes no positional arguments'],
    [
      ['project', 'create', '--origin', 'https://a.test', '--name', '  '],
      '--name must not be empty',
    ],
    [['project', 'create', '--origin'], "Option '--origin <value>' argument missing"],
    [['project', 'allow', 'only-id'], 'needs <projectId> <origin>'],
    [['project', 'deny'], 'needs <projectId> <origin>'],
    [['project', 'list', 'x'], 'takes no arguments'],
    [['project', 'list', '--origin', 'https://a.test'], 'takes no --origin or --name'],
    [['project', 'rename'], 'Unknown project command: rename'],
    [['project'], 'Missing project command'],
    [['projects', 'list'], 'Unknown command: projects'],
    [['project', 'list', '--verbose'], "Unknown option '--verbose'"],
    [['project', 'allow', 'porthole-demo', '*'], 'Invalid origin pattern: *'],
    [['project', 'allow', 'porthole-demo', 'https://*.co.uk'], 'co.uk is a public suffix'],
    [['project', 'create', '--origin', 'https://*.github.io'], 'github.io is a public suffix'],
  ])('%j fails with %s', async (argv, message) => {
    const { code, err } = await run(argv)
    expect(code).toBe(1)
    expect(err).toContain(message)
  })

  test('help prints the usage and succeeds', async () => {
    const { code, out } = await run(['--help'])
    expect(code).toBe(0)
    expect(out).toContain('project create --origin <origin>')
  })

  test('list says so when there are no projects', async () => {
    expect(await run(['project', 'list'])).toMatchObject({ code: 0, out: 'No projects.' })
  })
})
