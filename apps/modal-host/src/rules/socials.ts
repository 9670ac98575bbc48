import type { EmbeddedUser, LoginProvider } from '@porthole/protocol'
import { cutDisplay } from '@porthole/shared'

/** The spec's default social list, in its order (§9): the social providers and farcaster. */
export const DEFAULT_SOCIALS: readonly LoginProvider[] = [
  'google',
  'x',
  'farcaster',
  'discord',
  'apple',
  'github',
  'facebook',
]

/** Where the modal runs, for the Telegram rules. */
export type Platform = { telegram: boolean; os: 'ios' | 'android' | 'mac' | 'other' }

/**
 * Spec §5 Telegram filtering: in Telegram, iOS removes google, Mac removes x, Android removes
 * facebook and x. Unknown names are dropped.
 *
 * @example
 * visibleSocials(['google', 'x'], { telegram: true, os: 'ios' }) // ['x']
 */
export function visibleSocials(list: readonly string[], platform: Platform): LoginProvider[] {
  const known = list.filter((s): s is LoginProvider =>
    (DEFAULT_SOCIALS as readonly string[]).includes(s),
  )
  if (!platform.telegram) return known
  const removed: Record<Platform['os'], LoginProvider[]> = {
    ios: ['google'],
    mac: ['x'],
    android: ['facebook', 'x'],
    other: [],
  }
  return known.filter((s) => !removed[platform.os].includes(s))
}

/** Detects Telegram's in-app browser and the OS. */
export function detectPlatform(userAgent: string, telegram: boolean): Platform {
  const os = /iPhone|iPad|iPod/.test(userAgent)
    ? 'ios'
    : /Android/.test(userAgent)
      ? 'android'
      : /Macintosh/.test(userAgent)
        ? 'mac'
        : 'other'
  return { telegram, os }
}

/**
 * The name the Account view shows for an embedded user (spec §5): a discord username ending in
 * 0 loses the last character; an e-mail longer than 30 characters is cut with an ellipsis.
 *
 * @example
 * authDisplayName({ socialProvider: 'discord', userName: 'ada0', email: null }) // 'ada'
 */
export function authDisplayName(
  user: Pick<EmbeddedUser, 'email' | 'userName' | 'socialProvider'>,
): string | null {
  if (user.socialProvider && user.userName) {
    const name =
      user.socialProvider === 'discord' && user.userName.endsWith('0')
        ? user.userName.slice(0, -1)
        : user.userName
    return name
  }
  return user.email ? cutDisplay(user.email, 30) : null
}

/** The provider's display name. */
export function socialName(provider: LoginProvider): string {
  return provider === 'x'
    ? 'X'
    : provider === 'github'
      ? 'GitHub'
      : provider[0]?.toUpperCase() + provider.slice(1)
}
