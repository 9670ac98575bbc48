/**
 * The wallet frame's English catalogue is the typed source of truth: every key is used by the
 * code, every key the code looks up exists, and every locale translates every key with the same
 * placeholders. Installing a locale changes what the cards say (and how they write decimals)
 * but never the errors the frame answers with.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { LOCALES } from '@porthole/protocol'
import { afterEach, describe, expect, test } from 'vitest'
import { describeCalls, describeTransaction, formatValue } from '../describe.js'
import { describeSolanaTransactions } from '../solanaDescribe.js'
import { decimal, en, locale, plural, setTranslations, t } from './en.js'
import { loadLocale, localeOf } from './locales.js'

const SRC = join(import.meta.dirname, '..')
const I18N = import.meta.dirname

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return path === I18N ? [] : sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

const sources = sourceFiles(SRC).map((path) => ({
  path: relative(SRC, path),
  text: readFileSync(path, 'utf8'),
}))

/** The keys `t(…)` and `plural(…)` are called with in a text (quoted words in their arguments). */
function lookedUp(text: string): string[] {
  const keys: string[] = []
  for (const match of text.matchAll(/(?<![\w.])(t|plural)\(/g)) {
    let depth = 1
    let end = match.index + match[0].length
    let argument = ''
    for (; end < text.length && depth > 0; end++) {
      const char = text[end]
      if (char === '(' || char === '{' || char === '[') depth++
      if (char === ')' || char === '}' || char === ']') depth--
      // t's first argument is the key; plural's keys are its second and third.
      if (match[1] === 't' && depth === 1 && char === ',') break
      if (depth > 0) argument += char
    }
    for (const literal of argument.matchAll(/'(\w+)'/g)) if (literal[1]) keys.push(literal[1])
  }
  return keys
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

/** Each locale's chunk, as the frame loads it. */
const chunks = Object.fromEntries(
  await Promise.all(
    LOCALES.filter((l) => l !== 'en').map(
      async (l) => [l, (await import(`./locales/${l}.ts`)).default] as const,
    ),
  ),
) as Record<string, Record<string, string>>

afterEach(() => setTranslations('en', {}))

describe('the English catalogue', () => {
  test('every key is used by the frame’s code', () => {
    const code = sources.map(({ text }) => text).join('\n')
    const unused = Object.keys(en).filter((key) => !code.includes(`'${key}'`))
    expect(unused).toEqual([])
  })

  test('every key the code looks up is in it', () => {
    const found = sources.flatMap(({ path, text }) => lookedUp(text).map((key) => ({ path, key })))
    // The scan finds the calls (a check that cannot pass by finding nothing).
    expect(found.length).toBeGreaterThan(100)
    expect(
      found.filter(({ key }) => !(key in en)).map(({ path, key }) => `${path}: ${key}`),
    ).toEqual([])
  })

  test('the scan catches a key the catalogue lacks', () => {
    expect(lookedUp(`t('approve', { x: 'y' }); plural(n, 'queueOne', 'noSuchKey')`)).toEqual([
      'approve',
      'queueOne',
      'noSuchKey',
    ])
    expect('noSuchKey' in en).toBe(false)
  })
})

describe('the locales', () => {
  test('a chunk for every locale of the modal but English', () => {
    expect(Object.keys(chunks).sort()).toEqual(LOCALES.filter((l) => l !== 'en').sort())
  })

  for (const [name, strings] of Object.entries(chunks))
    test(`${name}: every key, translated, with the same placeholders`, () => {
      expect(Object.keys(strings).sort()).toEqual(Object.keys(en).sort())
      for (const [key, english] of Object.entries(en)) {
        const text = strings[key] as string
        expect(text.trim(), `${name}.${key}`).not.toBe('')
        // A singular form may say "one" in words instead of the number.
        const expected = placeholders(english).filter(
          (p) => !(key.endsWith('One') && p === 'count' && !text.includes('{count}')),
        )
        expect(placeholders(text), `${name}.${key}`).toEqual(expected)
      }
      // Some real translation, not English copied over.
      const same = Object.entries(en).filter(([key, english]) => strings[key] === english)
      expect(same.length).toBeLessThan(Object.keys(en).length / 10)
    })
})

describe('loadLocale', () => {
  test('installs German: the cards’ words, decimals with a comma, German relative plurals', async () => {
    const root = { lang: '', dir: '' } as HTMLElement
    await loadLocale('de', root)
    expect(locale()).toBe('de')
    expect(root).toMatchObject({ lang: 'de', dir: 'ltr' })
    expect(t('approve')).toBe('Bestätigen')
    expect(t('gasPaidBy', { sponsor: 'Porthole' })).toBe('Gas bezahlt von Porthole')
    expect(plural(1, 'queueOne', 'queueOther')).toBe('1 weitere Anfrage wartet')
    expect(plural(3, 'queueOne', 'queueOther')).toBe('3 weitere Anfragen warten')
    expect(decimal('0.01')).toBe('0,01')
    expect(formatValue(10n ** 16n, { symbol: 'ETH', decimals: 18 })).toBe('0,01 ETH')
  })

  test('Arabic lays the document out right to left, with Latin digits in amounts', async () => {
    const root = { lang: '', dir: '' } as HTMLElement
    await loadLocale('ar', root)
    expect(root).toMatchObject({ lang: 'ar', dir: 'rtl' })
    expect(t('reject')).toBe('رفض')
    expect(formatValue(1_500_000n, { symbol: 'pUSD', decimals: 6 })).toBe('1.5 pUSD')
  })

  test('English needs no chunk; an unknown locale is English', async () => {
    const root = { lang: '', dir: '' } as HTMLElement
    await loadLocale(localeOf('xx-YY'), root)
    expect(root).toMatchObject({ lang: 'en', dir: 'ltr' })
    expect(localeOf('ja')).toBe('ja')
    expect(localeOf(undefined)).toBe('en')
    expect(localeOf('__proto__')).toBe('en')
    expect(t('approve')).toBe('Approve')
  })
})

describe('cards in a locale', () => {
  const network = { name: 'Porthole Devnet', symbol: 'ETH', decimals: 18 }
  const from = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const

  test('a transaction card in French: labels, amounts, and the reason it is blocked', async () => {
    await loadLocale('fr', { lang: '', dir: '' } as HTMLElement)
    const content = describeTransaction({
      tx: {
        chainId: 31337,
        from,
        to: from,
        value: 15n * 10n ** 17n,
        data: undefined,
        nonce: 0,
        gas: 21_000n,
        maxFeePerGas: 10n ** 9n,
        maxPriorityFeePerGas: 1n,
      },
      origin: 'http://localhost:4000',
      network,
      balance: 10n ** 18n,
      changes: null,
    })
    expect(content.title).toBe('Envoyer la transaction')
    expect(content.fields).toContainEqual({
      label: 'Réseau',
      value: 'Porthole Devnet (chaîne 31337)',
    })
    expect(content.fields).toContainEqual({ label: 'Montant', value: '1,5 ETH' })
    expect(content.blocked).toBe('ETH insuffisant : solde 1, il faut 1,500021')
  })

  test('a batch card in Japanese names who pays the gas and warns of an unlimited approval', async () => {
    await loadLocale('ja', { lang: '', dir: '' } as HTMLElement)
    const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const
    const content = describeCalls({
      title: t('sendCalls'),
      chainId: 31337,
      from,
      calls: [
        // approve(from, max)
        {
          to: token,
          value: 0n,
          data: `0x095ea7b3${from.slice(2).toLowerCase().padStart(64, '0')}${'f'.repeat(64)}`,
        },
        { to: from, value: 0n, data: undefined },
      ],
      origin: 'http://localhost:4000',
      network,
      tokens: new Map([[token.toLowerCase(), { symbol: 'pUSD', decimals: 6 }]]),
      gas: { sponsored: true, sponsor: 'Porthole', paymaster: token },
      deployed: true,
      balance: 0n,
      changes: null,
    })
    expect(content.title).toBe('呼び出しを送信')
    expect(content.fields).toContainEqual({
      label: 'ガス',
      value: 'ガス代は Porthole が支払います',
    })
    expect(content.fields).toContainEqual({
      label: '呼び出し 1 · 操作',
      value: `${from} に すべての pUSD の使用を許可`,
      mono: false,
    })
    expect(content.warnings).toEqual(['呼び出し 1：この承認には上限がありません。'])
  })

  test('a Solana card in Korean counts the transactions it signs', async () => {
    await loadLocale('ko', { lang: '', dir: '' } as HTMLElement)
    const summary = {
      feePayer: 'Fee1111111111111111111111111111111111111111',
      otherSigners: 0,
      actions: [],
      fee: 5000n,
      unresolved: true,
    }
    const content = describeSolanaTransactions({
      send: false,
      origin: 'http://localhost:4000',
      network: { caipNetworkId: 'solana:x', name: 'Solana Localnet' },
      summaries: [summary, summary],
    })
    expect(content.title).toBe('트랜잭션 2개 서명')
    expect(content.fields).toContainEqual({
      label: '트랜잭션 1: 네트워크 수수료',
      value: '0.000005 SOL',
    })
    expect(content.warnings).toEqual([
      '일부 계정은 지갑이 읽지 못한 주소 조회 테이블에서 왔습니다.',
    ])
  })
})
