import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { DEMO_PROJECT_ID } from '@porthole/shared'
import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../test/databases.js'
import { openDatabase } from '../db/openDatabase.js'
import { getSponsorshipRules } from '../paymaster/sponsorship.js'
import { seedDemoProject } from '../projects/seedDemoProject.js'
import { runAdmin } from './runAdmin.js'

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url))
const REPO = fileURLToPath(new URL('../../../../', import.meta.url))

describe('project sponsorship (admin CLI)', () => {
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
  const rules = async (id: string) => {
    const db = await openDatabase({ url: target.url })
    try {
      return await getSponsorshipRules(db, id)
    } finally {
      await db.close()
    }
  }

  beforeAll(async () => {
    target = await createTestDatabase('sqlite')
    const created = await run(['project', 'create', '--origin', 'https://s.test', '--name', 'S'])
    projectId = created.out.split('\n').at(-1) as string
    const db = await openDatabase({ url: target.url })
    await seedDemoProject(db)
    await db.close()
  })
  afterAll(async () => {
    await target.cleanup()
  })

  test('shows the defaults: off for a new project, on with 20 and 1000 a day for the demo', async () => {
    expect(await run(['project', 'sponsorship', projectId])).toEqual({
      code: 0,
      out: `Project ${projectId}: gas sponsorship is off (default)`,
      err: '',
    })
    expect((await run(['project', 'sponsorship', DEMO_PROJECT_ID])).out).toBe(
      `Project ${DEMO_PROJECT_ID}: gas sponsorship is on, 20 user operations per account and 1000 per project a day, at most 1 ETH of gas (default)`,
    )
  })

  test('turns it on with a daily cap, changes the cap, turns it off keeping the cap', async () => {
    expect(await run(['project', 'sponsorship', projectId, 'on', '--daily-cap', '5'])).toEqual({
      code: 0,
      out: `Project ${projectId}: gas sponsorship is now on, 5 user operations per account and 1000 per project a day, at most 1 ETH of gas`,
      err: '',
    })
    expect(await rules(projectId)).toEqual({
      enabled: true,
      dailyCap: 5,
      projectDailyCap: 1000,
      projectDailyBudget: parseEther('1'),
      isDefault: false,
    })
    await run(['project', 'sponsorship', projectId, 'on', '--daily-cap', '1'])
    expect((await run(['project', 'sponsorship', projectId])).out).toBe(
      `Project ${projectId}: gas sponsorship is on, 1 user operation per account and 1000 per project a day, at most 1 ETH of gas`,
    )
    expect((await run(['project', 'sponsorship', projectId, 'off'])).out).toBe(
      `Project ${projectId}: gas sponsorship is now off`,
    )
    expect(await rules(projectId)).toEqual({
      enabled: false,
      dailyCap: 1,
      projectDailyCap: 1000,
      projectDailyBudget: parseEther('1'),
      isDefault: false,
    })
    expect((await run(['project', 'sponsorship', projectId, 'on'])).out).toContain(
      'now on, 1 user operation per account and 1000 per project a day, at most 1 ETH of gas',
    )
  })

  test('sets the daily cap per project, alone or with the one per account, and shows it', async () => {
    expect(
      await run(['project', 'sponsorship', projectId, 'on', '--project-daily-cap', '250']),
    ).toEqual({
      code: 0,
      out: `Project ${projectId}: gas sponsorship is now on, 1 user operation per account and 250 per project a day, at most 1 ETH of gas`,
      err: '',
    })
    expect(
      (
        await run([
          'project',
          'sponsorship',
          projectId,
          'on',
          '--daily-cap',
          '4',
          '--project-daily-cap',
          '1000000',
        ])
      ).out,
    ).toBe(
      `Project ${projectId}: gas sponsorship is now on, 4 user operations per account and 1000000 per project a day, at most 1 ETH of gas`,
    )
    expect(await rules(projectId)).toEqual({
      enabled: true,
      dailyCap: 4,
      projectDailyCap: 1_000_000,
      projectDailyBudget: parseEther('1'),
      isDefault: false,
    })
    // Off keeps it; the demo project's default can be changed too.
    await run(['project', 'sponsorship', projectId, 'off'])
    expect(await rules(projectId)).toMatchObject({ enabled: false, projectDailyCap: 1_000_000 })
    expect(
      (await run(['project', 'sponsorship', DEMO_PROJECT_ID, 'on', '--project-daily-cap', '300']))
        .out,
    ).toBe(
      `Project ${DEMO_PROJECT_ID}: gas sponsorship is now on, 20 user operations per account and 300 per project a day, at most 1 ETH of gas`,
    )
    expect((await run(['project', 'sponsorship', DEMO_PROJECT_ID])).out).toBe(
      `Project ${DEMO_PROJECT_ID}: gas sponsorship is on, 20 user operations per account and 300 per project a day, at most 1 ETH of gas`,
    )
    await run(['project', 'sponsorship', DEMO_PROJECT_ID, 'on', '--project-daily-cap', '1000'])
  })

  test('sets the daily budget per project in ETH, and shows it', async () => {
    expect(
      await run(['project', 'sponsorship', projectId, 'on', '--project-daily-budget', '0.25']),
    ).toMatchObject({
      code: 0,
      out: expect.stringMatching(/per project a day, at most 0\.25 ETH of gas$/),
    })
    expect(await rules(projectId)).toMatchObject({ projectDailyBudget: parseEther('0.25') })
    await run(['project', 'sponsorship', projectId, 'on', '--project-daily-budget', '1'])
    expect(await rules(projectId)).toMatchObject({ projectDailyBudget: parseEther('1') })
  })

  test('project list shows the sponsorship of each project', async () => {
    await run([
      'project',
      'sponsorship',
      projectId,
      'on',
      '--daily-cap',
      '7',
      '--project-daily-cap',
      '70',
    ])
    const list = await run(['project', 'list'])
    expect(list.code).toBe(0)
    const lines = list.out.split('\n')
    expect(lines[0]).toMatch(/^ID\s+NAME\s+ORIGINS\s+GAS SPONSORSHIP$/)
    expect(list.out).toMatch(
      new RegExp(
        `${projectId}\\s+S\\s+https://s\\.test\\s+on, 7 user operations per account and 70 per project a day, at most 1 ETH of gas`,
      ),
    )
    expect(list.out).toMatch(
      new RegExp(
        `${DEMO_PROJECT_ID}\\s+Porthole demo\\s+http://localhost:4000\\s+on, 20 user operations per account and 1000 per project a day, at most 1 ETH of gas`,
      ),
    )
  })

  test('bad input is refused with a clear message and changes nothing', async () => {
    await run([
      'project',
      'sponsorship',
      projectId,
      'on',
      '--daily-cap',
      '3',
      '--project-daily-cap',
      '30',
    ])
    const cases: [string[], string][] = [
      [
        ['project', 'sponsorship', projectId, 'maybe'],
        'Unknown sponsorship setting "maybe": use on or off',
      ],
      [
        ['project', 'sponsorship', projectId, 'on', '--daily-cap', '0'],
        '--daily-cap must be a whole number from 1 to 1000000, not "0"',
      ],
      [['project', 'sponsorship', projectId, 'on', '--daily-cap', 'lots'], 'not "lots"'],
      [
        ['project', 'sponsorship', projectId, '--daily-cap', '4'],
        '--daily-cap goes with on or off',
      ],
      [
        ['project', 'sponsorship', projectId, 'on', '--daily-cap', '1000001'],
        '--daily-cap must be a whole number from 1 to 1000000, not "1000001"',
      ],
      [
        ['project', 'sponsorship', projectId, 'on', '--project-daily-cap', '0'],
        '--project-daily-cap must be a whole number from 1 to 1000000, not "0"',
      ],
      [
        ['project', 'sponsorship', projectId, 'on', '--project-daily-cap', '2.5'],
        '--project-daily-cap must be a whole number from 1 to 1000000, not "2.5"',
      ],
      [
        ['project', 'sponsorship', projectId, 'off', '--project-daily-cap', '1000001'],
        '--project-daily-cap must be a whole number from 1 to 1000000, not "1000001"',
      ],
      [
        ['project', 'sponsorship', projectId, 'on', '--project-daily-cap', '-5'],
        '--project-daily-cap',
      ],
      [
        ['project', 'sponsorship', projectId, '--project-daily-cap', '4'],
        '--project-daily-cap goes with on or off',
      ],
      [
        ['project', 'sponsorship'],
        'project sponsorship needs <projectId> [on|off] [--daily-cap <n>] [--project-daily-cap <n>] [--project-daily-budget <ETH>]',
      ],
      [
        ['project', 'sponsorship', projectId, 'on', '--project-daily-budget', '0.0000000001'],
        '--project-daily-budget must be an amount of ETH from 0.000000001 to 1000000 (at most 9 decimals), not "0.0000000001"',
      ],
      [['project', 'sponsorship', projectId, 'on', '--project-daily-budget', '1e18'], 'not "1e18"'],
      [
        ['project', 'sponsorship', projectId, 'on', '--project-daily-budget', '2000000'],
        'not "2000000"',
      ],
      [
        ['project', 'sponsorship', projectId, '--project-daily-budget', '1'],
        '--project-daily-budget goes with on or off',
      ],
      [
        ['project', 'list', '--project-daily-budget', '1'],
        'project list takes no --project-daily-budget',
      ],
      [['project', 'sponsorship', 'nope', 'on'], 'Unknown project: nope'],
      [
        ['project', 'sponsorship', 'nope', 'on', '--project-daily-cap', '5'],
        'Unknown project: nope',
      ],
      [['project', 'list', '--daily-cap', '4'], 'project list takes no --daily-cap'],
      [
        ['project', 'list', '--project-daily-cap', '4'],
        'project list takes no --project-daily-cap',
      ],
      [
        ['project', 'create', '--origin', 'https://x.test', '--project-daily-cap', '4'],
        'project create takes no --project-daily-cap: use project sponsorship',
      ],
    ]
    for (const [argv, message] of cases) {
      const result = await run(argv)
      expect(result.code, argv.join(' ')).toBe(1)
      expect(result.err).toContain(message)
    }
    expect(await rules(projectId)).toEqual({
      enabled: true,
      dailyCap: 3,
      projectDailyCap: 30,
      projectDailyBudget: parseEther('1'),
      isDefault: false,
    })
  })

  test('npm run admin (spawned) sets it', { timeout: 90_000 }, () => {
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', CLI, 'project', 'sponsorship', projectId, 'off'],
      {
        cwd: REPO,
        env: { ...process.env, PORTHOLE_DATABASE_URL: target.url },
        encoding: 'utf8',
        timeout: 60_000,
      },
    )
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.stdout).toBe(`Project ${projectId}: gas sponsorship is now off\n`)
  })
})
