/**
 * Choosing and loading the modal's language. English is in the first download; each other locale
 * is one chunk of its own, fetched only when it is the one chosen.
 */
import { LOCALES, type Locale } from '@porthole/protocol'
import { setTranslations } from './en.js'
import type { Translation } from './translation.js'

/**
 * The supported locale that best matches language tags in order of preference (the `locale`
 * option, or `navigator.languages`): the first tag whose language Porthole speaks wins, whatever
 * its region ('de-AT' → 'de', 'pt-PT' → 'pt-BR'). Traditional Chinese (zh-TW, zh-HK, zh-MO,
 * zh-Hant) does not take Simplified Chinese. `undefined` when none matches.
 *
 * @example
 * matchLocale(['fr-CA', 'en']) // 'fr'
 * matchLocale(['zh-TW', 'ja']) // 'ja'
 * matchLocale(['xx']) // undefined
 */
export function matchLocale(tags: readonly string[]): Locale | undefined {
  for (const tag of tags) {
    const language = tag.toLowerCase().split(/[-_]/)[0]
    if (language === 'zh' && /[-_](hant|tw|hk|mo)\b/i.test(tag)) continue
    const found = LOCALES.find((locale) => locale.split('-')[0] === language)
    if (found) return found
  }
}

/**
 * Loads a locale's chunk (nothing for English) and installs its strings; the document's `lang`
 * follows. The chunk's name is built from the locale (`vite.config.ts` emits one per locale),
 * so no map of chunk names travels in the first download. Rejects when the chunk cannot be
 * fetched (and under `vite dev`, which serves no such chunks): the modal then stays in English.
 *
 * @example
 * await loadLocale('ja')
 */
export async function loadLocale(locale: Locale): Promise<void> {
  if (locale !== 'en') {
    const url = `./locale-${locale}-${import.meta.env.PORTHOLE_LOCALE_TAG}.js`
    const chunk: { default: Translation } = await import(/* @vite-ignore */ url)
    setTranslations(locale, chunk.default)
  }
  document.documentElement.lang = locale
}
