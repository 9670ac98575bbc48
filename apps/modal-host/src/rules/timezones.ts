/**
 * Where buying crypto is not offered (spec §5 "Restricted timezones"), apart from the on-ramp
 * rules so that the Account view can ask without loading them.
 */

/**
 * Spec §5 "Restricted timezones": mainland China, Hong Kong and Macau — the IANA zones and their
 * old aliases (Asia/Shanghai, Chongqing, Chungking, Harbin, Urumqi, Kashgar, PRC, Asia/Hong_Kong,
 * Hongkong, Asia/Macau, Asia/Macao). Buying is not offered there.
 */
export const RESTRICTED_TIMEZONES =
  /^(Asia\/(Shanghai|Chongqing|Chungking|Harbin|Urumqi|Kashgar|Hong_Kong|Macau|Macao)|PRC|Hongkong)$/

/**
 * Whether a time zone (default: the browser's) is restricted.
 *
 * @example
 * isRestrictedTimezone('Asia/Hong_Kong') // true
 */
export function isRestrictedTimezone(
  timeZone: string | undefined = Intl.DateTimeFormat().resolvedOptions().timeZone,
): boolean {
  return !!timeZone && RESTRICTED_TIMEZONES.test(timeZone)
}
