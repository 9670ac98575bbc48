import { createHash } from 'node:crypto'
import type { SocialProvider } from './providers.ts'

/**
 * The `sub` a dev issuer gives an e-mail address: the first 24 hex digits of
 * sha256(`<provider>:<lower-cased e-mail>`). Stable across logins and restarts, different
 * per provider, as real providers' subjects are.
 *
 * @example
 * subjectOf('google', 'Ada@Example.com') === subjectOf('google', 'ada@example.com') // true
 * subjectOf('google', 'ada@example.com') === subjectOf('github', 'ada@example.com') // false
 */
export function subjectOf(provider: SocialProvider, email: string): string {
  return createHash('sha256')
    .update(`${provider}:${email.trim().toLowerCase()}`)
    .digest('hex')
    .slice(0, 24)
}
