import { DEMO_PROJECT_ID } from '@porthole/shared'
import { parseEther, parseGwei } from 'viem'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { createTestDatabase, DRIVERS, openTestDatabase } from '../../test/databases.js'
import type { Db, DbExecutor } from '../db/Db.js'
import { migrate, migrations } from '../db/migrations.js'
import { openDatabase } from '../db/openDatabase.js'
import { createProject } from '../projects/createProject.js'
import { ProjectNotFoundError } from '../projects/Project.js'
import {
  createSponsorshipCleanup,
  deleteOldSponsorships,
  getSponsorshipRules,
  InvalidDailyBudgetError,
  InvalidDailyCapError,
  projectChargedToday,
  projectSponsoredToday,
  setSponsorshipRules,
  sponsoredToday,
  takeSponsorship,
  utcDay,
} from './sponsorship.js'

const DAY = 86_400_000
/** A sender address, lower case, from a number. */
const senderOf = (n: number) => `0x${n.toString(16).padStart(40, '0')}`

test('utcDay is the UTC calendar day', () => {
  expect(utcDay(Date.UTC(2026, 0, 31, 23, 59, 59))).toBe('2026-01-31')
  expect(utcDay(Date.UTC(2026, 1, 1, 0, 0, 0))).toBe('2026-02-01')
})

describe.each(DRIVERS)('sponsorship rules on %s', (driver) => {
  let db: Db
  beforeAll(async () => {
    db = await openTestDatabase(driver)
    await createProject(db, { id: 'shop', origins: ['https://shop.test'] })
    await createProject(db, { id: DEMO_PROJECT_ID, origins: ['http://localhost:4000'] })
  })
  afterAll(() => db?.close())

  test('defaults: the demo project on with 20 a day per account and 1000 per project, others off', async () => {
    expect(await getSponsorshipRules(db, DEMO_PROJECT_ID)).toEqual({
      enabled: true,
      dailyCap: 20,
      projectDailyCap: 1000,
      projectDailyBudget: parseEther('1'),
      isDefault: true,
    })
    expect(await getSponsorshipRules(db, 'shop')).toEqual({
      enabled: false,
      dailyCap: 20,
      projectDailyCap: 1000,
      projectDailyBudget: parseEther('1'),
      isDefault: true,
    })
  })

  test('set changes what is given and keeps the rest', async () => {
    const budget = parseEther('1')
    expect(await setSponsorshipRules(db, { projectId: 'shop', enabled: true })).toEqual({
      enabled: true,
      dailyCap: 20,
      projectDailyCap: 1000,
      projectDailyBudget: budget,
    })
    expect(await setSponsorshipRules(db, { projectId: 'shop', dailyCap: 3 })).toEqual({
      enabled: true,
      dailyCap: 3,
      projectDailyCap: 1000,
      projectDailyBudget: budget,
    })
    expect(await setSponsorshipRules(db, { projectId: 'shop', projectDailyCap: 50 })).toEqual({
      enabled: true,
      dailyCap: 3,
      projectDailyCap: 50,
      projectDailyBudget: budget,
    })
    expect(
      await setSponsorshipRules(db, { projectId: 'shop', projectDailyBudget: parseEther('0.25') }),
    ).toEqual({
      enabled: true,
      dailyCap: 3,
      projectDailyCap: 50,
      projectDailyBudget: parseEther('0.25'),
    })
    expect(await setSponsorshipRules(db, { projectId: DEMO_PROJECT_ID, enabled: false })).toEqual({
      enabled: false,
      dailyCap: 20,
      projectDailyCap: 1000,
      projectDailyBudget: budget,
    })
    expect(await getSponsorshipRules(db, 'shop')).toEqual({
      enabled: true,
      dailyCap: 3,
      projectDailyCap: 50,
      projectDailyBudget: parseEther('0.25'),
      isDefault: false,
    })
    expect(await getSponsorshipRules(db, DEMO_PROJECT_ID)).toMatchObject({ enabled: false })
  })

  test('refuses an unknown project and a bad cap, changing nothing', async () => {
    await expect(setSponsorshipRules(db, { projectId: 'nope', enabled: true })).rejects.toThrow(
      ProjectNotFoundError,
    )
    for (const cap of [0, -1, 1.5, 1e7, Number.NaN]) {
      await expect(setSponsorshipRules(db, { projectId: 'shop', dailyCap: cap })).rejects.toThrow(
        InvalidDailyCapError,
      )
      await expect(
        setSponsorshipRules(db, { projectId: 'shop', enabled: false, projectDailyCap: cap }),
      ).rejects.toThrow(/^The project daily cap must be a whole number from 1 to 1000000/)
    }
    for (const budget of [0n, -1n, 1n, parseEther('1000001')])
      await expect(
        setSponsorshipRules(db, { projectId: 'shop', projectDailyBudget: budget }),
      ).rejects.toThrow(InvalidDailyBudgetError)
    expect(await getSponsorshipRules(db, 'shop')).toMatchObject({
      enabled: true,
      dailyCap: 3,
      projectDailyCap: 50,
      projectDailyBudget: parseEther('0.25'),
    })
  })

  test('takeSponsorship counts per sender and UTC day, up to the cap, never past it', async () => {
    const now = Date.UTC(2026, 4, 1, 12)
    const sender = '0xAbC0000000000000000000000000000000000001'
    const take = async (at = now, who = sender) =>
      (
        await takeSponsorship(db, {
          projectId: 'shop',
          sender: who,
          dailyCap: 3,
          projectDailyCap: 1000,
          now: at,
        })
      ).taken
    // Concurrent takes cannot pass the cap together.
    const results = await Promise.all(Array.from({ length: 5 }, () => take()))
    expect(results.filter(Boolean)).toHaveLength(3)
    expect(await sponsoredToday(db, { projectId: 'shop', sender: sender.toLowerCase(), now })).toBe(
      3,
    )
    expect(await take()).toBe(false)
    // Another sender, and the next UTC day, start from zero.
    expect(await take(now, '0x0000000000000000000000000000000000000002')).toBe(true)
    const tomorrow = Date.UTC(2026, 4, 2, 0, 0, 1)
    expect(await sponsoredToday(db, { projectId: 'shop', sender, now: tomorrow })).toBe(0)
    expect(await take(tomorrow)).toBe(true)
  })
})

describe.each(DRIVERS)('the daily cap per project on %s', (driver) => {
  let db: Db
  let n = 0
  /** A new project each test, so counts start from zero. */
  const newProject = async () => {
    const id = `p${++n}`
    await createProject(db, { id, origins: ['https://p.test'] })
    return id
  }
  const now = Date.UTC(2026, 5, 1, 9)
  beforeAll(async () => {
    db = await openTestDatabase(driver)
  })
  afterAll(() => db?.close())

  test('once reached, even a fresh sender is refused; the next UTC day starts from zero', async () => {
    const projectId = await newProject()
    const take = (sender: string, at = now) =>
      takeSponsorship(db, { projectId, sender, dailyCap: 20, projectDailyCap: 3, now: at })
    for (const i of [1, 2, 3]) expect(await take(senderOf(i))).toEqual({ taken: true })
    expect(await take(senderOf(99))).toEqual({ taken: false, cap: 'project' })
    expect(await take(senderOf(1))).toEqual({ taken: false, cap: 'project' })
    expect(await projectSponsoredToday(db, { projectId, now })).toBe(3)
    expect(await sponsoredToday(db, { projectId, sender: senderOf(99), now })).toBe(0)
    expect(await take(senderOf(99), now + DAY)).toEqual({ taken: true })
    // Another project has its own count.
    const other = await newProject()
    expect(
      await takeSponsorship(db, {
        projectId: other,
        sender: senderOf(99),
        dailyCap: 20,
        projectDailyCap: 3,
        now,
      }),
    ).toEqual({ taken: true })
  })

  test('50 concurrent takes from 50 senders with a cap of 10: exactly 10 counted', async () => {
    const projectId = await newProject()
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        takeSponsorship(db, {
          projectId,
          sender: senderOf(i + 1),
          dailyCap: 20,
          projectDailyCap: 10,
          now,
        }),
      ),
    )
    expect(results.filter((result) => result.taken)).toHaveLength(10)
    expect(results.filter((result) => !result.taken && result.cap === 'project')).toHaveLength(40)
    expect(await projectSponsoredToday(db, { projectId, now })).toBe(10)
  })

  test('a sender refused by its own cap gives the project slot back', async () => {
    const projectId = await newProject()
    const take = (sender: string) =>
      takeSponsorship(db, { projectId, sender, dailyCap: 1, projectDailyCap: 3, now })
    expect(await take(senderOf(1))).toEqual({ taken: true })
    for (let i = 0; i < 5; i++)
      expect(await take(senderOf(1))).toEqual({ taken: false, cap: 'sender' })
    expect(await projectSponsoredToday(db, { projectId, now })).toBe(1)
    // The refusals took nothing: two more senders still fit, the next does not.
    expect(await take(senderOf(2))).toEqual({ taken: true })
    expect(await take(senderOf(3))).toEqual({ taken: true })
    expect(await take(senderOf(4))).toEqual({ taken: false, cap: 'project' })
  })

  test('concurrent takes with both caps binding: the project count is what was sponsored', async () => {
    const projectId = await newProject()
    // 5 senders, 2 each at most, 8 for the project: 50 concurrent takes.
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        takeSponsorship(db, {
          projectId,
          sender: senderOf((i % 5) + 1),
          dailyCap: 2,
          projectDailyCap: 8,
          now,
        }),
      ),
    )
    const taken = results.filter((result) => result.taken).length
    expect(taken).toBeGreaterThan(0)
    expect(taken).toBeLessThanOrEqual(8)
    const perSender = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => sponsoredToday(db, { projectId, sender: senderOf(i), now })),
    )
    for (const count of perSender) expect(count).toBeLessThanOrEqual(2)
    expect(perSender.reduce((a, b) => a + b, 0)).toBe(taken)
    expect(await projectSponsoredToday(db, { projectId, now })).toBe(taken)
  })
})

describe.each(DRIVERS)('cleanup of old counts on %s', (driver) => {
  let db: Db
  beforeAll(async () => {
    db = await openTestDatabase(driver)
    await createProject(db, { id: 'old', origins: ['https://old.test'] })
  })
  afterAll(() => db?.close())
  const now = Date.UTC(2026, 6, 10, 0, 30)
  /** The days (YYYY-MM-DD) that still have counts. */
  const days = async () =>
    (
      await db.query<{ utc_day: string }>(
        'SELECT DISTINCT utc_day FROM sponsored_user_operations ORDER BY utc_day',
      )
    ).map((row) => row.utc_day)
  const takeOn = (at: number) =>
    takeSponsorship(db, {
      projectId: 'old',
      sender: senderOf(1),
      dailyCap: 5,
      projectDailyCap: 5,
      now: at,
    })

  test('deletes the days before yesterday, sender and project counts; keeps today and yesterday', async () => {
    for (const back of [0, 1, 2, 3, 40]) await takeOn(now - back * DAY)
    expect(await days()).toEqual([
      '2026-05-31',
      '2026-07-07',
      '2026-07-08',
      '2026-07-09',
      '2026-07-10',
    ])
    // 3 old days, each with a sender row and the project's.
    expect(await deleteOldSponsorships(db, { now })).toBe(6)
    expect(await days()).toEqual(['2026-07-09', '2026-07-10'])
    expect(await sponsoredToday(db, { projectId: 'old', sender: senderOf(1), now })).toBe(1)
    expect(await projectSponsoredToday(db, { projectId: 'old', now: now - DAY })).toBe(1)
    expect(await deleteOldSponsorships(db, { now })).toBe(0)
  })

  test('runs at most once per UTC day, in the background, errors to onError', async () => {
    const onError = vi.fn()
    const cleanup = createSponsorshipCleanup(db, { onError })
    const later = now + 10 * DAY
    await takeOn(later - 5 * DAY)
    const first = cleanup.maybeRun(later)
    expect(first).toBeInstanceOf(Promise)
    await first
    expect(await days()).toEqual([])
    // The same UTC day again: nothing runs, even with old rows back.
    await takeOn(later - 5 * DAY)
    expect(cleanup.maybeRun(later + 1000)).toBeUndefined()
    expect(cleanup.maybeRun(Date.UTC(2026, 6, 20, 23, 59))).toBeUndefined()
    expect(await days()).toEqual([utcDay(later - 5 * DAY)])
    // The next UTC day runs again.
    await cleanup.maybeRun(Date.UTC(2026, 6, 21))
    expect(await days()).toEqual([])
    expect(onError).not.toHaveBeenCalled()

    const failing: DbExecutor = {
      dialect: db.dialect,
      query: () => Promise.reject(new Error('database gone')),
      execute: () => Promise.reject(new Error('database gone')),
    }
    const failed = createSponsorshipCleanup(failing, { onError })
    await expect(failed.maybeRun(later)).resolves.toBeUndefined()
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'database gone' }))
  })
})

test.each(DRIVERS)(
  'migrations 11 and 14 give rules set before them the default project cap and budget (%s)',
  async (driver) => {
    const target = await createTestDatabase(driver)
    const db = await openDatabase({ url: target.url, migrate: false })
    try {
      await migrate(
        db,
        migrations.filter((migration) => migration.version < 11),
      )
      await createProject(db, { id: 'before', origins: ['https://before.test'] })
      await db.execute(
        'INSERT INTO project_sponsorship (project_id, enabled, daily_cap, updated_at) VALUES (?, ?, ?, ?)',
        ['before', 1, 7, Date.now()],
      )
      expect(
        await migrate(
          db,
          migrations.filter((m) => m.version <= 14),
        ),
      ).toEqual({ applied: [11, 12, 13, 14] })
      expect(await getSponsorshipRules(db, 'before')).toEqual({
        enabled: true,
        dailyCap: 7,
        projectDailyCap: 1000,
        projectDailyBudget: parseEther('1'),
        isDefault: false,
      })
    } finally {
      await db.close()
      await target.cleanup()
    }
  },
)

describe.each(DRIVERS)('the daily budget per project on %s', (driver) => {
  let db: Db
  beforeAll(async () => {
    db = await openTestDatabase(driver)
    await createProject(db, { id: 'budget', origins: ['https://budget.test'] })
  })
  afterAll(() => db?.close())
  const now = Date.UTC(2026, 8, 1, 12)
  const take = (sender: string, charge: bigint) =>
    takeSponsorship(db, {
      projectId: 'budget',
      sender,
      dailyCap: 100,
      projectDailyCap: 100,
      charge,
      projectDailyBudget: parseGwei('1000'),
      now,
    })

  test('maximum charges add up to the budget, never past it; a give-back makes room again', async () => {
    expect(await take(senderOf(1), parseGwei('600'))).toEqual({ taken: true })
    // 600 + 500 > 1000 gwei: refused by the budget, nothing counted.
    expect(await take(senderOf(2), parseGwei('500'))).toEqual({ taken: false, cap: 'budget' })
    expect(await projectSponsoredToday(db, { projectId: 'budget', now })).toBe(1)
    // A charge of 1 wei counts as a whole gwei.
    expect(await take(senderOf(2), parseGwei('399') + 1n)).toEqual({ taken: true })
    expect(await projectChargedToday(db, { projectId: 'budget', now })).toBe(parseGwei('1000'))
    expect(await take(senderOf(3), 1n)).toEqual({ taken: false, cap: 'budget' })
    // A charge over the whole budget is refused before anything is written.
    expect(await take(senderOf(3), parseGwei('1001'))).toEqual({ taken: false, cap: 'budget' })
  })

  test('50 concurrent takes of 100 gwei each with a budget of 1000 gwei: exactly 10 counted', async () => {
    const at = Date.UTC(2026, 8, 2, 12)
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        takeSponsorship(db, {
          projectId: 'budget',
          sender: senderOf(100 + i),
          dailyCap: 100,
          projectDailyCap: 1000,
          charge: parseGwei('100'),
          projectDailyBudget: parseGwei('1000'),
          now: at,
        }),
      ),
    )
    expect(results.filter((result) => result.taken)).toHaveLength(10)
    expect(await projectChargedToday(db, { projectId: 'budget', now: at })).toBe(parseGwei('1000'))
  })
})
