import { DEMO_PROJECT_ID } from '@porthole/shared'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DRIVERS, openTestDatabase } from '../../test/databases.js'
import type { Db } from '../db/Db.js'
import { createProject } from '../projects/createProject.js'
import { ProjectNotFoundError } from '../projects/Project.js'
import {
  getSponsorshipRules,
  InvalidDailyCapError,
  setSponsorshipRules,
  sponsoredToday,
  takeSponsorship,
  utcDay,
} from './sponsorship.js'

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

  test('defaults: the demo project on with 20 a day, others off', async () => {
    expect(await getSponsorshipRules(db, DEMO_PROJECT_ID)).toEqual({
      enabled: true,
      dailyCap: 20,
      isDefault: true,
    })
    expect(await getSponsorshipRules(db, 'shop')).toEqual({
      enabled: false,
      dailyCap: 20,
      isDefault: true,
    })
  })

  test('set changes what is given and keeps the rest', async () => {
    expect(await setSponsorshipRules(db, { projectId: 'shop', enabled: true })).toEqual({
      enabled: true,
      dailyCap: 20,
    })
    expect(await setSponsorshipRules(db, { projectId: 'shop', dailyCap: 3 })).toEqual({
      enabled: true,
      dailyCap: 3,
    })
    expect(await setSponsorshipRules(db, { projectId: DEMO_PROJECT_ID, enabled: false })).toEqual({
      enabled: false,
      dailyCap: 20,
    })
    expect(await getSponsorshipRules(db, 'shop')).toEqual({
      enabled: true,
      dailyCap: 3,
      isDefault: false,
    })
    expect(await getSponsorshipRules(db, DEMO_PROJECT_ID)).toMatchObject({ enabled: false })
  })

  test('refuses an unknown project and a bad cap, changing nothing', async () => {
    await expect(setSponsorshipRules(db, { projectId: 'nope', enabled: true })).rejects.toThrow(
      ProjectNotFoundError,
    )
    for (const dailyCap of [0, -1, 1.5, 1e7])
      await expect(setSponsorshipRules(db, { projectId: 'shop', dailyCap })).rejects.toThrow(
        InvalidDailyCapError,
      )
    expect(await getSponsorshipRules(db, 'shop')).toMatchObject({ dailyCap: 3 })
  })

  test('takeSponsorship counts per sender and UTC day, up to the cap, never past it', async () => {
    const now = Date.UTC(2026, 4, 1, 12)
    const sender = '0xAbC0000000000000000000000000000000000001'
    const take = (at = now, who = sender) =>
      takeSponsorship(db, { projectId: 'shop', sender: who, dailyCap: 3, now: at })
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
