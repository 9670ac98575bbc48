import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DRIVERS, openTestDatabase } from '../../test/databases.js'
import type { Db } from '../db/Db.js'
import { loadCatalogue } from './catalogue.js'
import { type QueryWalletsParameters, queryWallets } from './queryWallets.js'
import { seedWallets } from './seedWallets.js'

const catalogue = loadCatalogue()
const byOrder = [...catalogue].sort((a, b) => a.order - b.order)
const imageUrl = (id: string) => `http://api.test/getWalletImage/${id}`
const base: QueryWalletsParameters = { page: 1, entries: 40, imageUrl }
const METAMASK = 'c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96'
const RAINBOW = '1ae92b26df02f0abca6304df07debccd18262fdf5fe82daa81593582dac9a369'

describe.each(DRIVERS)('wallet catalogue on %s', (driver) => {
  let db: Db
  beforeAll(async () => {
    db = await openTestDatabase(driver)
    await seedWallets(db)
  })
  afterAll(async () => {
    await db.close()
  })

  test('pages of 40 by popularity, with the total count', async () => {
    const first = await queryWallets(db, base)
    expect(first.count).toBe(catalogue.length)
    expect(first.data).toHaveLength(40)
    expect(first.data.map((w) => w.id)).toEqual(byOrder.slice(0, 40).map((w) => w.id))
    const second = await queryWallets(db, { ...base, page: 2 })
    expect(second.data.map((w) => w.id)).toEqual(byOrder.slice(40).map((w) => w.id))
    expect(second.count).toBe(catalogue.length)
    expect((await queryWallets(db, { ...base, page: 99 })).data).toEqual([])
  })

  test('search pages of 100 match a trimmed, case-insensitive name substring', async () => {
    const { data, count } = await queryWallets(db, { ...base, entries: 100, search: '  WALLET ' })
    const expected = byOrder.filter((w) => w.name.toLowerCase().includes('wallet'))
    expect(data.map((w) => w.name)).toEqual(expected.map((w) => w.name))
    expect(count).toBe(expected.length)
    expect((await queryWallets(db, { ...base, search: '   ' })).count).toBe(catalogue.length)
    expect((await queryWallets(db, { ...base, search: '%' })).count).toBe(0)
    expect((await queryWallets(db, { ...base, search: '_' })).count).toBe(0)
  })

  test('include, exclude, chains and badge_type filter before counting', async () => {
    const included = await queryWallets(db, { ...base, include: [RAINBOW, METAMASK] })
    expect(included.data.map((w) => w.name)).toEqual(['MetaMask', 'Rainbow'])
    expect(included.count).toBe(2)

    const excluded = await queryWallets(db, { ...base, exclude: [METAMASK] })
    expect(excluded.count).toBe(catalogue.length - 1)
    expect(excluded.data.map((w) => w.id)).not.toContain(METAMASK)

    const chains = ['bip122:000000000019d6689c085ae165831e93', 'cosmos:cosmoshub-4']
    const onChains = await queryWallets(db, { ...base, entries: 100, chains })
    const expected = byOrder.filter((w) => w.chains.some((c) => chains.includes(c)))
    expect(onChains.data.map((w) => w.name)).toEqual(expected.map((w) => w.name))
    expect(onChains.count).toBe(expected.length)

    const certified = await queryWallets(db, { ...base, entries: 100, badgeType: 'certified' })
    expect(certified.count).toBe(catalogue.filter((w) => w.badge_type === 'certified').length)
  })

  test('returns the wallet JSON shape with nulls and an absolute image_url', async () => {
    const { data } = await queryWallets(db, { ...base, include: [METAMASK] })
    expect(data[0]).toEqual({
      id: METAMASK,
      name: 'MetaMask',
      homepage: 'https://metamask.io/',
      image_id: 'metamask',
      image_url: 'http://api.test/getWalletImage/metamask',
      order: 10,
      rdns: 'io.metamask',
      chains: expect.arrayContaining(['eip155:1', 'eip155:8453']),
      mobile_link: 'metamask://',
      universal_link: 'https://metamask.app.link',
      desktop_link: null,
      webapp_link: null,
      app_store: 'https://apps.apple.com/us/app/metamask/id1438144202',
      play_store: 'https://play.google.com/store/apps/details?id=io.metamask',
      injected: [{ namespace: 'eip155', injected_id: 'isMetaMask' }],
      badge_type: 'certified',
    })
  })

  test('seeding again is idempotent and removes wallets no longer listed', async () => {
    expect(await seedWallets(db)).toEqual({ count: catalogue.length, removed: 0 })
    expect((await queryWallets(db, base)).count).toBe(catalogue.length)
    const fewer = catalogue.filter((w) => w.id !== RAINBOW)
    expect(await seedWallets(db, { wallets: fewer })).toEqual({ count: fewer.length, removed: 1 })
    expect((await queryWallets(db, { ...base, include: [RAINBOW] })).count).toBe(0)
    await seedWallets(db)
  })
})
