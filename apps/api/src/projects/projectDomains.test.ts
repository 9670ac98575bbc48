import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { DRIVERS, openTestDatabase } from '../../test/databases.js'
import type { Db } from '../db/Db.js'
import { addProjectDomain } from './addProjectDomain.js'
import { createDomainCache } from './createDomainCache.js'
import { createProject } from './createProject.js'
import { listProjectDomains } from './listProjectDomains.js'
import { ProjectNotFoundError } from './Project.js'
import {
  CustomDomainTakenError,
  InvalidCustomDomainError,
  normaliseCustomOrigin,
  passkeyRpIdOf,
} from './ProjectDomain.js'
import { removeProjectDomain } from './removeProjectDomain.js'

describe('normaliseCustomOrigin', () => {
  test.each([
    ['HTTPS://Connect.App.Example:443/', 'https://connect.app.example'],
    ['https://connect.shop.co.uk:8443', 'https://connect.shop.co.uk:8443'],
    ['http://connect.app.localhost:4100', 'http://connect.app.localhost:4100'],
  ])('keeps %s as %s', (input, origin) => {
    expect(normaliseCustomOrigin(input)).toBe(origin)
  })

  test.each([
    ['https://*.app.example', 'no wildcards'],
    ['https://connect.app.example/modal', 'no path'],
    ['https://user@connect.app.example', 'no path, query or credentials'],
    ['ftp://connect.app.example', 'use https://'],
    ['http://connect.app.example', 'http only for *.localhost'],
    ['https://127.0.0.1:4100', 'not an IP address'],
    ['https://[::1]:4100', 'not an IP address'],
    ['https://co.uk', 'co.uk is a public suffix'],
    ['https://github.io', 'github.io is a public suffix'],
    ['http://localhost:4100', 'localhost is a public suffix'],
    ['connect.app.example', 'not a URL'],
  ])('refuses %s (%s)', (input, reason) => {
    expect(() => normaliseCustomOrigin(input)).toThrow(InvalidCustomDomainError)
    expect(() => normaliseCustomOrigin(input)).toThrow(reason)
  })

  test("refuses Porthole's own frame origins", () => {
    expect(() =>
      normaliseCustomOrigin('http://wallet.localhost:4200', ['http://wallet.localhost:4200/']),
    ).toThrow("Porthole's own frame origin")
  })
})

test("a custom wallet's passkeys belong to its site", () => {
  expect(passkeyRpIdOf('http://wallet.app.localhost:4200')).toBe('app.localhost')
  expect(passkeyRpIdOf('https://wallet.shop.co.uk')).toBe('shop.co.uk')
  expect(passkeyRpIdOf('https://wallet.alice.github.io')).toBe('alice.github.io')
})

describe.each(DRIVERS)('custom domains on %s', (driver) => {
  let db: Db
  beforeEach(async () => {
    db = await openTestDatabase(driver)
    await createProject(db, { id: 'shop', origins: ['https://shop.example'] })
    await createProject(db, { id: 'other', origins: ['https://other.example'] })
  })
  afterEach(async () => {
    await db.close()
  })

  test('adds, lists, updates and removes a project’s domain', async () => {
    const added = await addProjectDomain(db, {
      projectId: 'shop',
      modalOrigin: 'HTTPS://Connect.Shop.Example',
      walletOrigin: 'https://wallet.shop.example:443',
    })
    expect(added).toMatchObject({
      added: true,
      domain: {
        projectId: 'shop',
        modalOrigin: 'https://connect.shop.example',
        walletOrigin: 'https://wallet.shop.example',
      },
    })
    expect(await listProjectDomains(db, { projectId: 'shop' })).toEqual([added.domain])
    expect(await listProjectDomains(db, { projectId: 'other' })).toEqual([])

    // The same modal origin again: its wallet origin is replaced.
    const updated = await addProjectDomain(db, {
      projectId: 'shop',
      modalOrigin: 'https://connect.shop.example',
      walletOrigin: 'https://keys.shop.example',
    })
    expect(updated).toMatchObject({
      added: false,
      domain: { walletOrigin: 'https://keys.shop.example' },
    })
    expect(await listProjectDomains(db)).toHaveLength(1)

    expect(
      await removeProjectDomain(db, {
        projectId: 'other',
        modalOrigin: 'https://connect.shop.example',
      }),
    ).toEqual({ removed: undefined })
    expect(
      (
        await removeProjectDomain(db, {
          projectId: 'shop',
          modalOrigin: 'https://connect.shop.example/',
        })
      ).removed?.modalOrigin,
    ).toBe('https://connect.shop.example')
    expect(await listProjectDomains(db)).toEqual([])
  })

  test('an origin serves one project and one frame', async () => {
    await addProjectDomain(db, {
      projectId: 'shop',
      modalOrigin: 'https://connect.shop.example',
      walletOrigin: 'https://wallet.shop.example',
    })
    // Another project cannot take either origin, as modal or as wallet.
    for (const [modalOrigin, walletOrigin] of [
      ['https://connect.shop.example', undefined],
      ['https://wallet.shop.example', undefined],
      ['https://connect.other.example', 'https://wallet.shop.example'],
      ['https://connect.other.example', 'https://connect.shop.example'],
    ] as const)
      await expect(
        addProjectDomain(db, { projectId: 'other', modalOrigin, walletOrigin }),
      ).rejects.toThrow(CustomDomainTakenError)
    // Nor can the project itself swap the roles of its origins.
    await expect(
      addProjectDomain(db, { projectId: 'shop', modalOrigin: 'https://wallet.shop.example' }),
    ).rejects.toThrow('already a custom domain of project shop')
    await expect(
      addProjectDomain(db, {
        projectId: 'shop',
        modalOrigin: 'https://a.shop.example',
        walletOrigin: 'https://a.shop.example',
      }),
    ).rejects.toThrow('an origin of its own')
    await expect(
      addProjectDomain(db, { projectId: 'nope', modalOrigin: 'https://connect.nope.example' }),
    ).rejects.toThrow(ProjectNotFoundError)
    expect(await listProjectDomains(db)).toHaveLength(1)
  })

  test("Porthole's wallet origin answers one custom modal per project", async () => {
    await addProjectDomain(db, { projectId: 'shop', modalOrigin: 'https://connect.shop.example' })
    await expect(
      addProjectDomain(db, { projectId: 'shop', modalOrigin: 'https://pay.shop.example' }),
    ).rejects.toThrow('give --wallet')
    // With a wallet of its own, a second modal is fine.
    await addProjectDomain(db, {
      projectId: 'shop',
      modalOrigin: 'https://pay.shop.example',
      walletOrigin: 'https://wallet.shop.example',
    })
    expect(
      (await listProjectDomains(db, { projectId: 'shop' })).map((d) => d.walletOrigin),
    ).toEqual([null, 'https://wallet.shop.example'])
  })

  test('the cache answers by origin and by project, and sees changes after its lifetime', async () => {
    let clock = 0
    const domains = createDomainCache(db, { ttlMs: 1000, now: () => clock })
    expect(await domains.byOrigin('https://connect.shop.example')).toBeUndefined()
    await addProjectDomain(db, {
      projectId: 'shop',
      modalOrigin: 'https://connect.shop.example',
      walletOrigin: 'https://wallet.shop.example',
    })
    expect(await domains.byOrigin('https://connect.shop.example')).toBeUndefined()
    clock = 1000
    expect(await domains.byOrigin('https://connect.shop.example')).toMatchObject({
      kind: 'modal',
      domain: { projectId: 'shop' },
    })
    expect(await domains.byOrigin('https://wallet.shop.example')).toMatchObject({
      kind: 'wallet',
      domain: { modalOrigin: 'https://connect.shop.example' },
    })
    // Exact origins only: no other spelling, port or scheme.
    for (const origin of [
      'https://CONNECT.shop.example',
      'http://connect.shop.example',
      'https://connect.shop.example:8443',
      'https://evil.connect.shop.example',
    ])
      expect(await domains.byOrigin(origin), origin).toBeUndefined()
    expect(await domains.byProject('shop')).toHaveLength(1)
    expect(await domains.byProject('other')).toEqual([])
  })
})
