/**
 * The wallet frame's language: the modal's own (it names it in the frame's URL, `?locale=`, and
 * in the popup's task). English is in the first download; every other locale is a chunk of its
 * own, fetched only when it is the one asked for.
 */
import { LOCALES, type Locale } from '@porthole/protocol'
import { setTranslations, type Translation } from './en.js'

/** Each locale's chunk (a literal import each, so the bundler makes one chunk per locale). */
const CHUNKS: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Translation }>> = {
  de: () => import('./locales/de.js'),
  es: () => import('./locales/es.js'),
  fr: () => import('./locales/fr.js'),
  'pt-BR': () => import('./locales/pt-BR.js'),
  ja: () => import('./locales/ja.js'),
  ko: () => import('./locales/ko.js'),
  'zh-CN': () => import('./locales/zh-CN.js'),
  tr: () => import('./locales/tr.js'),
  ar: () => import('./locales/ar.js'),
}

/**
 * The supported locale a value (the frame URL's `locale`, the popup task's) names exactly, or
 * English (the modal has matched the user's languages already; anything else is not trusted).
 *
 * @example
 * localeOf('ja') // 'ja'
 * localeOf('<script>') // 'en'
 */
export function localeOf(value: unknown): Locale {
  return (LOCALES as readonly unknown[]).includes(value) ? (value as Locale) : 'en'
}

/**
 * Installs a locale (its chunk first; nothing to fetch for English) and lays the document out
 * for it: `lang`, and right to left for Arabic. Rejects when the chunk cannot be fetched: the
 * cards then stay English.
 *
 * @example
 * await loadLocale('ar')
 */
export async function loadLocale(locale: Locale, root: HTMLElement = document.documentElement) {
  if (locale !== 'en') setTranslations(locale, (await CHUNKS[locale]()).default)
  root.lang = locale
  root.dir = locale === 'ar' ? 'rtl' : 'ltr'
}
