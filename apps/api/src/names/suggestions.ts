/**
 * Name suggestions (`GET /v1/profile/suggestions/{name}`): the name asked for, then free names
 * close to it, so a user whose first choice is taken picks another in one click.
 */
import { NAME_LENGTH } from '@porthole/shared'

/** How many names a suggestion list holds at most (the asked one included). */
export const SUGGESTION_COUNT = 5

/**
 * Labels close to `label`, in the order they are offered: digits and short words appended,
 * every one within the name rule's length.
 *
 * @example
 * alternativeLabels('alice') // ['alice1', 'alice2', 'alice-id', 'alice3', 'my-alice', …]
 */
export function alternativeLabels(label: string): string[] {
  const candidates = [
    `${label}1`,
    `${label}2`,
    `${label}-id`,
    `${label}3`,
    `my-${label}`,
    `${label}-web3`,
    `the-${label}`,
    `${label}${new Date().getUTCFullYear()}`,
    ...Array.from({ length: 6 }, (_, i) => `${label}${i + 4}`),
  ]
  return [...new Set(candidates)].filter(
    (candidate) => candidate !== label && candidate.length <= NAME_LENGTH.max,
  )
}
