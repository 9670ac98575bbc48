import { describe, expect, test } from 'vitest'
import { addRecent, migrate, STORAGE_VERSION } from './persist.js'
import type { WalletEntry } from './types.js'

const w = (id: string): WalletEntry => ({ id, name: id, image: '' })

describe('persisted slice', () => {
  test('recent wallets keep at most two, newest first, without duplicates', () => {
    let list: WalletEntry[] = []
    for (const id of ['a', 'b', 'a', 'c']) list = addRecent(list, w(id))
    expect(list.map((x) => x.id)).toEqual(['c', 'a'])
  })

  test('the live injected provider is not stored', () => {
    const [stored] = addRecent([], {
      ...w('a'),
      injected: { uuid: 'u', name: 'A', icon: '', rdns: 'a' },
    })
    expect(stored).not.toHaveProperty('injected')
  })

  test('unknown versions and garbage start over', () => {
    expect(migrate({ version: 0, recentWallets: [w('a')] }).recentWallets).toEqual([])
    expect(migrate('garbage').version).toBe(STORAGE_VERSION)
    expect(
      migrate({ version: STORAGE_VERSION, recentWallets: [w('a'), w('b'), w('c')] }).recentWallets,
    ).toHaveLength(2)
  })
})
