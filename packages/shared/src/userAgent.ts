/** Browser and system names for notices (mail, approval pages): informative, never a decision. */

/**
 * A short description of a browser from its User-Agent ("Chrome 156 on Linux"); good enough
 * for a notice, not for decisions.
 *
 * @example
 * describeUserAgent('Mozilla/5.0 (X11; Linux x86_64) … Chrome/156.0.0.0 Safari/537.36') // 'Chrome 156 on Linux'
 */
export function describeUserAgent(userAgent: string | undefined): string {
  const ua = userAgent ?? ''
  const browser =
    [
      [/Edg\/(\d+)/, 'Edge'],
      [/OPR\/(\d+)/, 'Opera'],
      [/Firefox\/(\d+)/, 'Firefox'],
      [/(?:HeadlessChrome|Chrome|CriOS)\/(\d+)/, 'Chrome'],
      [/Version\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
    ]
      .map(([pattern, name]) => {
        const match = (pattern as RegExp).exec(ua)
        return match ? `${name} ${match[1]}` : null
      })
      .find(Boolean) ?? 'An unknown browser'
  const system =
    [
      [/iPhone|iPad/, 'iOS'],
      [/Android/, 'Android'],
      [/Mac OS X/, 'macOS'],
      [/Windows/, 'Windows'],
      [/CrOS/, 'ChromeOS'],
      [/Linux/, 'Linux'],
    ].find(([pattern]) => (pattern as RegExp).test(ua))?.[1] ?? 'an unknown system'
  return `${browser} on ${system}`
}
