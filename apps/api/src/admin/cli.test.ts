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

  test('project domain add, list and remove', async () => {
    const target = await createTestDatabase('sqlite')
    try {
      const created = await run(
        ['project', 'create', '--origin', 'https://app.shop.test'],
        target.url,
      )
      const id = created.out.split('\n').at(-1) as string
      const added = await run(
        [
          'project',
          'domain',
          'add',
          id,
          'HTTPS://Connect.App.Shop.test',
          '--wallet',
          'https://wallet.app.shop.test',
        ],
        target.url,
      )
      expect(added.err).toBe('')
      expect(added.code).toBe(0)
      expect(added.out).toContain(
        `Added project ${id}: modal https://connect.app.shop.test, wallet https://wallet.app.shop.test (passkeys for shop.test)`,
      )
      expect(added.out).not.toContain('Note: no allowed origin')
      // Another project cannot take it; the list shows it once.
      const other = await run(['project', 'create', '--origin', 'https://evil.test'], target.url)
      const otherId = other.out.split('\n').at(-1) as string
      const taken = await run(
        ['project', 'domain', 'add', otherId, 'https://wallet.app.shop.test'],
        target.url,
      )
      expect(taken).toMatchObject({ code: 1 })
      expect(taken.err).toContain(`already a custom domain of project ${id}`)
      // A modal on a site none of its allowed origins is on: added, with a note.
      const elsewhere = await run(
        ['project', 'domain', 'add', otherId, 'https://connect.elsewhere.test'],
        target.url,
      )
      expect(elsewhere.code).toBe(0)
      expect(elsewhere.out).toContain("Porthole's wallet origin")
      expect(elsewhere.out).toContain('Note: no allowed origin')
      const list = await run(['project', 'domain', 'list', id], target.url)
      expect(list.out).toBe(
        `project ${id}: modal https://connect.app.shop.test, wallet https://wallet.app.shop.test (passkeys for shop.test)`,
      )
      expect((await run(['project', 'domain', 'list'], target.url)).out.split('\n')).toHaveLength(2)
      const removed = await run(
        ['project', 'domain', 'remove', id, 'https://connect.app.shop.test'],
        target.url,
      )
      expect(removed.out).toContain('Removed project')
      expect(
        (
          await run(
            ['project', 'domain', 'remove', id, 'https://connect.app.shop.test'],
            target.url,
          )
        ).out,
      ).toContain('was not a custom domain')
      expect((await run(['project', 'domain', 'list', id], target.url)).out).toBe(
        'No custom domains.',
      )
    } finally {
      await target.cleanup()
    }
  })

  test('project trust and untrust: an allowed exact origin of one project; trust without an origin lists them', async () => {
    const target = await createTestDatabase('sqlite')
    try {
      const id = (
        await run(
          [
            'project',
            'create',
            '--origin',
            'https://app.shop.test',
            '--origin',
            'https://*.shop.test',
          ],
          target.url,
        )
      ).out
        .split('\n')
        .at(-1) as string
      const other = (
        await run(['project', 'create', '--origin', 'https://app.shop.test'], target.url)
      ).out
        .split('\n')
        .at(-1) as string
      expect(await run(['project', 'trust', id], target.url)).toMatchObject({
        code: 0,
        out: `No origin of project ${id} is trusted: every approval opens the wallet window.`,
      })
      expect(
        await run(['project', 'trust', id, 'HTTPS://App.Shop.test'], target.url),
      ).toMatchObject({
        code: 0,
        out: `Trusted https://app.shop.test for approvals in the page (project ${id})`,
      })
      expect(
        (await run(['project', 'trust', id, 'https://app.shop.test'], target.url)).out,
      ).toContain('was already trusted')
      expect(await run(['project', 'trust', id], target.url)).toMatchObject({
        code: 0,
        out: 'https://app.shop.test',
      })
      // Per project: the other project allowing the same origin is untouched.
      expect((await run(['project', 'trust', other], target.url)).out).toContain('No origin')
      // Refused: a wildcard, and an origin the project does not allow (only a wildcard covers it).
      const wildcard = await run(['project', 'trust', id, 'https://*.shop.test'], target.url)
      expect(wildcard.code).toBe(1)
      expect(wildcard.err).toContain(
        'Only an exact origin can be trusted, not the pattern https://*.shop.test',
      )
      const notAllowed = await run(['project', 'trust', id, 'https://admin.shop.test'], target.url)
      expect(notAllowed.code).toBe(1)
      expect(notAllowed.err).toContain(
        `https://admin.shop.test is not an allowed origin of project ${id}: allow it first (project allow ${id} https://admin.shop.test)`,
      )
      expect(
        await run(['project', 'untrust', id, 'https://app.shop.test'], target.url),
      ).toMatchObject({
        code: 0,
        out: `Approvals on https://app.shop.test open the wallet window again (project ${id})`,
      })
      expect(
        (await run(['project', 'untrust', id, 'https://app.shop.test'], target.url)).out,
      ).toContain('was not trusted')
      const db = await openDatabase({ url: target.url })
      expect(await getProject(db, id)).toMatchObject({
        origins: ['https://*.shop.test', 'https://app.shop.test'],
        inlineApprovalOrigins: [],
      })
      await db.close()
    } finally {
      await target.cleanup()
    }
  })

  test.each([
    [['project', 'trust'], 'needs <projectId> [<origin>]'],
    [['project', 'trust', 'p', 'https://a.test', 'x'], 'needs <projectId> [<origin>]'],
    [['project', 'untrust', 'p'], 'needs <projectId> <origin>'],
    [['project', 'trust', 'nope', 'https://a.test'], 'Unknown project: nope'],
    [['project', 'trust', 'nope'], 'Unknown project: nope'],
    [['project', 'trust', 'porthole-demo', 'https://a.test', '--origin', 'x'], 'takes no --origin'],
    [
      ['project', 'untrust', 'porthole-demo', 'ftp://a.test'],
      'Invalid origin pattern: ftp://a.test',
    ],
  ])('%j fails with %s', async (argv, message) => {
    const { code, err } = await run(argv)
    expect(code).toBe(1)
    expect(err).toContain(message)
  })

  test.each([
    [['project', 'domain'], 'needs add, list or remove'],
    [['project', 'domain', 'add', 'p'], 'needs <projectId> <modalOrigin>'],
    [['project', 'domain', 'add', 'porthole-demo', 'https://*.shop.test'], 'no wildcards'],
    [['project', 'domain', 'add', 'porthole-demo', 'http://connect.shop.test'], 'use https://'],
    [['project', 'domain', 'add', 'nope', 'https://connect.shop.test'], 'Unknown project: nope'],
    [['project', 'domain', 'list', '--wallet', 'https://w.test'], 'takes no --wallet'],
    [
      ['project', 'allow', 'p', 'https://a.test', '--wallet', 'https://w.test'],
      'takes no --wallet',
    ],
    [['project', 'domain', 'move'], 'Unknown project domain command: move'],
  ])('%j fails with %s', async (argv, message) => {
    const { code, err } = await run(argv)
    expect(code).toBe(1)
    expect(err).toContain(message)
  })
})
