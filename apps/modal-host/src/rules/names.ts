/**
 * Name rules on the modal's side (spec §5 "Name validation"): what the RegisterAccountName field
 * says about a label, and whether a Send receiver is a name to look up. Who may register is in
 * `nameRegistration.ts` (kept apart: the Account view's first download needs only that).
 */
import { type NameProblem, nameProblem } from '@porthole/shared'
import type { NamesKey } from '../i18n/names.js'

const PROBLEM_MESSAGES = {
  tooShort: 'nameTooShort',
  tooLong: 'nameTooLong',
  invalidCharacters: 'nameInvalidCharacters',
} as const satisfies Record<NameProblem, NamesKey>

/**
 * The catalogue key of what is wrong with a typed label, or null when it follows the rule
 * (letters, digits and hyphens, at least 4 characters). An empty field says nothing yet.
 *
 * @example
 * nameInputMessage('bob') // 'nameTooShort'
 * nameInputMessage('alice') // null
 */
export function nameInputMessage(label: string): NamesKey | null {
  if (!label) return null
  const problem = nameProblem(label)
  return problem ? PROBLEM_MESSAGES[problem] : null
}

/**
 * Whether a Send receiver should be looked up as a name: dot-separated labels of letters,
 * digits and hyphens, the first one long enough to be a name (`alice`, `alice.porthole.id`,
 * `vitalik.eth`). Addresses never are (they are checked first); anything else is not a valid
 * receiver.
 *
 * @example
 * isNameLike('alice.porthole.id') // true
 * isNameLike('hello world') // false
 */
export function isNameLike(receiver: string): boolean {
  return /^[a-zA-Z0-9-]{4,63}(\.[a-zA-Z0-9-]{1,63})*$/.test(receiver.trim())
}
