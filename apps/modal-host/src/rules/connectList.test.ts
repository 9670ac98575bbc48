import { describe, expect, test } from 'vitest'
import type { WalletEntry } from '../store/types.js'
import { CATALOGUE_ROWS, isShortList, shownSections } from './connectList.js'
import type { WalletSection } from './walletLists.js'

const wallet = (id: string) => ({ id, name: id, image: '' }) as WalletEntry
const section = (type: WalletSection['type'], ...ids: string[]): WalletSection => ({
  type,
  wallets: ids.map(wallet),
})
const ids = (sections: readonly WalletSection[]) =>
  sections.flatMap((s) => s.wallets.map((w) => `${s.type}:${w.id}`))

describe('the wallets Connect shows (and headless wallets() lists)', () => {
  const sections = [
    section('injected', 'dev'),
    section('featured', 'f1', 'f2'),
    section('recommended', 'r1', 'r2', 'r3'),
  ]

  test('alone, the whole list', () => {
    expect(ids(shownSections(sections, false))).toEqual(ids(sections))
  })

  test(`below e-mail or social login, catalogue wallets only while the rows stay within ${CATALOGUE_ROWS}`, () => {
    expect(ids(shownSections(sections, true))).toEqual(['injected:dev', 'featured:f1'])
    expect(ids(shownSections(sections.slice(2), true))).toEqual([
      'recommended:r1',
      'recommended:r2',
    ])
  })

  test('recent, installed and custom wallets always show, even past the rows', () => {
    const many = [
      section('recent', 'old'),
      section('injected', 'dev', 'other'),
      section('featured', 'f1'),
      section('custom', 'mine'),
      section('recommended', 'r1'),
    ]
    expect(ids(shownSections(many, true))).toEqual([
      'recent:old',
      'injected:dev',
      'injected:other',
      'custom:mine',
    ])
  })

  test('the list is short when e-mail or a social login is offered and All Wallets holds the rest', () => {
    const features = (email: boolean, allWallets: boolean) =>
      ({ features: { email, allWallets } }) as Parameters<typeof isShortList>[0]
    expect(isShortList(features(true, true), [])).toBe(true)
    expect(isShortList(features(false, true), ['google'])).toBe(true)
    expect(isShortList(features(false, true), [])).toBe(false)
    expect(isShortList(features(true, false), ['google'])).toBe(false)
  })
})
