/**
 * The English catalogues are the typed source of truth: every key code looks up exists, every
 * key exists because code looks it up, and every locale translates each key (but the spec's
 * error strings) with the same placeholders.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { accountTabs, ta } from './accountTabs.js'
import { accountTypes } from './accountTypes.js'
import { devices } from './devices.js'
import { en, setTranslations, t } from './en.js'
import { farcaster } from './farcaster.js'
import { names } from './names.js'
import { smartSessions } from './smartSessions.js'
import { trade, tt } from './trade.js'
import { type Translation, UNTRANSLATED } from './translation.js'
import { walletConnect } from './walletConnect.js'

const SRC = join(import.meta.dirname, '..')

/** Each catalogue: its module, its look-up function's name and its English strings. */
const CATALOGUES = {
  main: { module: 'en', lookup: 't', strings: en },
  trade: { module: 'trade', lookup: 'tt', strings: trade },
  accountTabs: { module: 'accountTabs', lookup: 'ta', strings: accountTabs },
  names: { module: 'names', lookup: 'tn', strings: names },
  walletConnect: { module: 'walletConnect', lookup: 'tw', strings: walletConnect },
  farcaster: { module: 'farcaster', lookup: 'tf', strings: farcaster },
  devices: { module: 'devices', lookup: 'td', strings: devices },
  accountTypes: { module: 'accountTypes', lookup: 'tk', strings: accountTypes },
  smartSessions: { module: 'smartSessions', lookup: 'ts', strings: smartSessions },
} as const satisfies Record<keyof Translation, unknown>

type CatalogueName = keyof typeof CATALOGUES

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'locales' ? [] : sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

const sources = sourceFiles(SRC).map((path) => ({
  path: relative(SRC, path),
  text: readFileSync(path, 'utf8'),
}))

/** The code outside the catalogue that imports it (by relative path, as the app does). */
function importers(module: string) {
  const from = new RegExp(`from '(?:\\.\\.?/)+(?:i18n/)?${module}\\.js'`)
  return sources.filter(
    ({ path, text }) => path !== join('i18n', `${module}.ts`) && from.test(text),
  )
}

/**
 * The keys a look-up function is called with in a module: the quoted words of its first
 * argument (`t('back')`, `t(ok ? 'a' : 'b')`), less the ones compared against (`x === 'email'`).
 */
function lookedUp(text: string, lookup: string): string[] {
  const keys: string[] = []
  const call = new RegExp(`(?<![\\w.])${lookup}\\(`, 'g')
  for (const match of text.matchAll(call)) {
    let depth = 1
    let end = match.index + match[0].length
    let argument = ''
    for (; end < text.length && depth > 0; end++) {
      const char = text[end]
      if (char === '(' || char === '{' || char === '[') depth++
      if (char === ')' || char === '}' || char === ']') depth--
      if (depth === 1 && char === ',') break
      if (depth > 0) argument += char
    }
    for (const literal of argument.matchAll(/(===?|!==?)?\s*'(\w+)'/g))
      if (!literal[1] && literal[2]) keys.push(literal[2])
  }
  return keys
}

describe('catalogues', () => {
  for (const [name, { module, lookup, strings }] of Object.entries(CATALOGUES)) {
    test(`every key of ${name} is used by the code that imports it`, () => {
      const users = importers(module)
      expect(users.length).toBeGreaterThan(0)
      const unused = Object.keys(strings).filter(
        (key) => !users.some(({ text }) => text.includes(`'${key}'`)),
      )
      expect(unused, `keys of ${name} no code uses`).toEqual([])
    })

    test(`every key the code looks up with ${lookup}() is in ${name}`, () => {
      const missing = importers(module).flatMap(({ path, text }) =>
        lookedUp(text, lookup)
          .filter((key) => !(key in strings))
          .map((key) => `${path}: ${key}`),
      )
      expect(missing).toEqual([])
      // The scan finds the calls (a check that cannot pass by finding nothing).
      expect(
        importers(module).flatMap(({ text }) => lookedUp(text, lookup)).length,
      ).toBeGreaterThan(0)
    })
  }

  test('the scan catches a key the code uses but the catalogue lacks', () => {
    expect(
      lookedUp(`t('back'); t(ok ? 'noSuchKey' : 'close'); t(m === 'email' ? 'x' : 'y')`, 't'),
    ).toEqual(['back', 'noSuchKey', 'close', 'x', 'y'])
    expect('noSuchKey' in en).toBe(false)
  })

  test('the untranslated keys are the spec’s error strings, each in one catalogue', () => {
    const english = Object.values(CATALOGUES).flatMap(({ strings }) =>
      Object.entries(strings).filter(([key]) => (UNTRANSLATED as readonly string[]).includes(key)),
    )
    expect(english.map(([key]) => key).sort()).toEqual([...UNTRANSLATED].sort())
    const spec = [
      'Connection rejected',
      'Failed to connect',
      'Project ID Not Configured',
      'Popup closed',
    ]
    for (const text of spec) expect(english.map(([, value]) => value)).toContain(text)
  })
})

const LOCALES_DIR = join(import.meta.dirname, 'locales')
const localeFiles = readdirSync(LOCALES_DIR).filter((file) => file.endsWith('.ts'))

/** The `{placeholders}` of a template, sorted. */
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe.each(localeFiles)('locale %s', (file) => {
  const base = file.slice(0, -'.ts'.length)
  const load = async (): Promise<Translation> => (await import(`./locales/${base}.ts`)).default

  test('translates every key of every catalogue but the spec’s error strings, and nothing else', async () => {
    const translation = await load()
    expect(Object.keys(translation).sort()).toEqual(Object.keys(CATALOGUES).sort())
    for (const [name, { strings }] of Object.entries(CATALOGUES)) {
      const expected = Object.keys(strings).filter(
        (key) => !(UNTRANSLATED as readonly string[]).includes(key),
      )
      expect(Object.keys(translation[name as CatalogueName]).sort(), name).toEqual(expected.sort())
    }
  })

  test('keeps each string’s placeholders, and is not English left in place', async () => {
    const translation = await load()
    for (const [name, { strings }] of Object.entries(CATALOGUES)) {
      const section = translation[name as CatalogueName] as Record<string, string>
      let same = 0
      for (const [key, value] of Object.entries(section)) {
        const english = (strings as Record<string, string>)[key] ?? ''
        expect(value.trim(), `${name}.${key}`).not.toBe('')
        expect(placeholders(value), `${name}.${key}`).toEqual(placeholders(english))
        if (value === english) same++
      }
      expect(same, `${name}: strings still in English`).toBeLessThan(
        Math.max(2, Object.keys(section).length / 4),
      )
    }
    // The Connect view splits this sentence at {terms}, then at {privacy}.
    expect(translation.main.legal.indexOf('{terms}')).toBeLessThan(
      translation.main.legal.indexOf('{privacy}'),
    )
  })
})

describe('installed translations', () => {
  afterEach(() => setTranslations('en', {}))

  test('replace the English strings of every catalogue; the spec’s error strings stay English', async () => {
    expect(t('connectWallet')).toBe('Connect Wallet')
    setTranslations('de', (await import('./locales/de.js')).default)
    expect(t('connectWallet')).toBe('Wallet verbinden')
    expect(t('continueIn', { name: 'MetaMask' })).toBe('Weiter in MetaMask')
    expect(tt('approveToken', { symbol: 'pUSD' })).toBe('pUSD freigeben')
    expect(ta('tabActivity')).toBe('Aktivität')
    expect(t('failedToConnect')).toBe('Failed to connect')
    expect(tt('popupClosed')).toBe('Popup closed')
  })
})
