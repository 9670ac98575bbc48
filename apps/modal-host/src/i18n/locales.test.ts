import { describe, expect, test } from 'vitest'
import { matchLocale } from './locales.js'

describe('matchLocale', () => {
  test.each<[string[], string | undefined]>([
    [['de'], 'de'],
    [['de-AT'], 'de'],
    [['DE_de'], 'de'],
    [['pt-BR'], 'pt-BR'],
    [['pt-PT'], 'pt-BR'],
    [['pt'], 'pt-BR'],
    [['zh-CN'], 'zh-CN'],
    [['zh'], 'zh-CN'],
    [['zh-Hans-SG'], 'zh-CN'],
    // Traditional Chinese is not offered: the next preference wins.
    [['zh-TW', 'ja-JP'], 'ja'],
    [['zh-Hant', 'ko'], 'ko'],
    [['zh-HK'], undefined],
    [['nl-NL', 'en-GB', 'fr'], 'en'],
    [['ar-EG'], 'ar'],
    [['tr-TR'], 'tr'],
    [['es-419'], 'es'],
    [['xx'], undefined],
    [['english'], undefined],
    [[], undefined],
  ])('%j → %s', (tags, expected) => {
    expect(matchLocale(tags)).toBe(expected)
  })
})
