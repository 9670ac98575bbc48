/**
 * Errors of the name endpoints: the API's `{ code, message }` plus `reasons` (the registry
 * service's shape, `[{ name, description }]`), whose first description clients show (spec §8:
 * "the server's first reason description is preferred").
 */
import type { NameProblem } from '@porthole/shared'
import { ApiError, type ApiErrorCode } from '../errors.js'

/** Every reason a name request is refused for, and what it says. */
export const NAME_REASONS = {
  tooShort: 'Name must be at least 4 characters long',
  tooLong: 'Name must be at most 63 characters long',
  invalidCharacters: 'Name can only contain letters, digits and hyphens',
  wrongSuffix: 'Name must end with {suffix}',
  taken: 'Name is already taken',
  notFound: 'No account has the name {name}',
  badMessage: 'The message must be the JSON of name, empty attributes and a timestamp in seconds',
  expired: 'The message is more than 10 minutes old',
  future: 'The message is dated in the future',
  badAddress: 'The address is not an EVM address',
  badSignature: 'The signature is not by the address',
  notAccount: "Only an account of this app's embedded wallet can register a name",
  tooManyNames: 'An account may have at most {max} names',
  coinType: 'Invalid chainId',
} as const satisfies Record<NameProblem, string> & Record<string, string>

/** A reason name. */
export type NameReason = keyof typeof NAME_REASONS

/**
 * A refused name request: `code` picks the HTTP status and message, `reason` the description;
 * the body is `{ code, message, reasons: [{ name, description }] }`.
 *
 * @example
 * throw new NameError('NAME_TAKEN', 'taken')
 * throw new NameError('INVALID_NAME', 'wrongSuffix', { values: { suffix: '.porthole.id' } })
 */
export class NameError extends ApiError {
  readonly reason: NameReason
  readonly description: string
  constructor(
    code: ApiErrorCode,
    reason: NameReason,
    options: { values?: Record<string, string>; details?: string } = {},
  ) {
    const description = NAME_REASONS[reason].replace(
      /\{(\w+)\}/g,
      (match, key: string) => options.values?.[key] ?? match,
    )
    super(code, {
      ...(options.details === undefined ? {} : { details: options.details }),
      fields: { reasons: [{ name: reason, description }] },
    })
    this.reason = reason
    this.description = description
  }
}
