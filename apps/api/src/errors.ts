/**
 * HTTP errors of the API. Every error response is JSON `{ code, message }` (plus `details` for
 * invalid input, and code-specific fields such as `retryAfter` or `attemptsLeft`); `message` is
 * the spec's alert string where the spec names one.
 */

/** Every error code the API answers with, its HTTP status and its message. */
export const API_ERRORS = {
  PROJECT_ID_NOT_CONFIGURED: { status: 400, message: 'Project ID Not Configured' },
  INVALID_PROJECT_ID: { status: 403, message: 'Invalid Project ID' },
  ORIGIN_NOT_ALLOWED: { status: 403, message: 'Origin Not Allowed' },
  INVALID_REQUEST: { status: 400, message: 'Invalid Request' },
  NOT_FOUND: { status: 404, message: 'Not Found' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Payload Too Large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported Media Type' },
  RATE_LIMITED: { status: 429, message: 'Rate Limited' },
  SERVER_ERROR: { status: 500, message: 'Server Error' },
  /** The database is away (restart, failover); retried by itself. The modal shows 'Server Error'. */
  SERVICE_UNAVAILABLE: { status: 503, message: 'Service Unavailable' },
  // Blockchain data (/v1/account/…, /v1/fungible/price, …).
  UNSUPPORTED_CHAIN: { status: 400, message: 'Unsupported chain' },
  CHAIN_UNAVAILABLE: { status: 503, message: 'Chain data unavailable' },
  // Embedded-wallet auth (/auth/v1).
  UNAUTHENTICATED: { status: 401, message: 'Unauthenticated' },
  FEATURE_DISABLED: { status: 403, message: 'This login method is not enabled for the project' },
  COOLDOWN: { status: 429, message: 'Please try again after {n} seconds' },
  LOCKED: { status: 429, message: 'Too many attempts. Please try again after {n} minutes' },
  INVALID_CODE: { status: 400, message: 'Invalid code' },
  CODE_EXPIRED: { status: 400, message: 'Code expired' },
  INVALID_RESULT: { status: 400, message: 'Failed to connect' },
  EMAIL_IN_USE: { status: 409, message: 'This e-mail is already in use' },
  ADDRESS_MISMATCH: { status: 409, message: 'The address does not match the wallet' },
  NO_WALLET: { status: 404, message: 'No wallet' },
  INVALID_SHARES_SIGNATURE: {
    status: 400,
    message: "The key shares must be signed by the wallet's own key",
  },
  SHARES_CHANGED: { status: 409, message: 'The key shares changed meanwhile' },
  DEVICE_REVOKED: { status: 403, message: 'This device was removed from the wallet' },
  DEVICE_NOT_REMOVABLE: {
    status: 403,
    message: 'A device can remove only devices that joined the wallet after it',
  },
  MAIL_UNAVAILABLE: { status: 503, message: 'Could not send the e-mail' },
  SOCIAL_PROVIDER_UNAVAILABLE: { status: 502, message: 'Failed to initiate social connection' },
  // Farcaster login (/auth/v1/farcaster; `reason` says which check refused the message).
  FARCASTER_UNAVAILABLE: { status: 502, message: 'Failed to connect to farcaster' },
  INVALID_FARCASTER_SIGN_IN: { status: 400, message: 'Failed to connect to farcaster' },
  // Wallet sign-in (/auth/v1/siwx).
  INVALID_SIGN_IN: { status: 400, message: 'Invalid sign-in' },
  // Names (/v1/profile; the body's `reasons[0].description` says why, see names/NameError.ts).
  INVALID_NAME: { status: 400, message: 'Invalid name' },
  NAME_TAKEN: { status: 409, message: 'Name is already taken' },
  INVALID_NAME_REGISTRATION: { status: 400, message: 'Invalid name registration' },
  NAME_NOT_FOUND: { status: 404, message: 'Name not found' },
  // On-ramp (/v1/onramp, /v1/generators/onrampurl; `details` says which value, the range error
  // carries `min`, `max`, `currency` and `paymentMethod`).
  ONRAMP_DISABLED: { status: 403, message: 'On-ramp is not enabled for the project' },
  SWAPS_DISABLED: { status: 403, message: 'Swaps are not enabled for the project' },
  ONRAMP_UNSUPPORTED_CURRENCY: { status: 400, message: 'Currency not supported for on-ramp' },
  ONRAMP_UNSUPPORTED_NETWORK: { status: 400, message: 'Network not supported for on-ramp' },
  ONRAMP_AMOUNT_OUT_OF_RANGE: {
    status: 400,
    message: 'Amount must be between {min} and {max} {currency}',
  },
  ONRAMP_REFUSED: { status: 400, message: 'The on-ramp provider refused the request' },
  ONRAMP_UNAVAILABLE: { status: 503, message: 'On-ramp provider unavailable' },
  ONRAMP_ORDER_NOT_FOUND: { status: 404, message: 'Order not found' },
  // Swaps (/v1/convert; `details` says which input or pool).
  SWAP_NETWORK_NOT_SUPPORTED: { status: 400, message: 'Network not supported for Swaps' },
  GAS_PRICE_NETWORK_NOT_SUPPORTED: { status: 400, message: 'Network not supported for Gas Price' },
  NETWORK_MISMATCH: { status: 400, message: 'The tokens and the account must be on one network' },
  UNKNOWN_TOKEN: { status: 400, message: 'Unknown token' },
  INVALID_AMOUNT: { status: 400, message: 'Invalid amount' },
  INSUFFICIENT_LIQUIDITY: { status: 400, message: 'Insufficient liquidity for this trade' },
  SWAP_WOULD_FAIL: { status: 400, message: 'The swap would fail' },
  SWAP_NOT_CONFIGURED: { status: 503, message: 'Swaps are not configured for this network' },
  SWAP_UNAVAILABLE: { status: 503, message: 'Swap provider unavailable' },
  // Smart sessions (/v1/sessions; `details` says which input or what the chain holds).
  INVALID_ACCOUNT_ID: {
    status: 400,
    message:
      'The address must be an eip155 CAIP-10 account id (eip155:<chain id>:0x<40 hex digits>)',
  },
  SESSION_REVOKED: { status: 409, message: 'This session was revoked' },
  SESSION_NOT_FOUND: { status: 404, message: 'Session not found' },
  INVALID_SESSION_SIGNATURE: { status: 401, message: 'The signature is not by the account' },
} as const

/** An API error code. */
export type ApiErrorCode = keyof typeof API_ERRORS

/** Extra fields of an error body (`retryAfter`, `attemptsLeft`, the name endpoints' `reasons`). */
export type ApiErrorFields = {
  [field: string]: string | number | boolean | null | readonly ApiErrorFields[]
}

/** The JSON body of every error response. */
export type ApiErrorBody = {
  code: ApiErrorCode
  message: string
  details?: string
} & ApiErrorFields

/** Options of {@link ApiError}. */
export type ApiErrorOptions = {
  details?: string
  cause?: unknown
  headers?: Record<string, string>
  /** Replaces the code's message (e.g. with `{n}` filled in). */
  message?: string
  /** Extra body fields. */
  fields?: ApiErrorFields
}

/**
 * An error the HTTP layer turns into `{ code, message }` with the code's status.
 *
 * @example
 * throw new ApiError('INVALID_PROJECT_ID')
 */
export class ApiError extends Error {
  override name = 'ApiError' as const
  readonly code: ApiErrorCode
  readonly status: (typeof API_ERRORS)[ApiErrorCode]['status']
  readonly shortMessage: string
  readonly details: string | undefined
  readonly headers: Record<string, string>
  readonly fields: ApiErrorFields

  constructor(code: ApiErrorCode, options: ApiErrorOptions = {}) {
    const { status } = API_ERRORS[code]
    const message = options.message ?? API_ERRORS[code].message
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.status = status
    this.shortMessage = message
    this.details = options.details
    this.headers = options.headers ?? {}
    this.fields = options.fields ?? {}
  }

  /**
   * The response body.
   *
   * @example
   * new ApiError('RATE_LIMITED').toJSON() // { code: 'RATE_LIMITED', message: 'Rate Limited' }
   */
  toJSON(): ApiErrorBody {
    return this.details === undefined
      ? { code: this.code, message: this.shortMessage, ...this.fields }
      : { code: this.code, message: this.shortMessage, details: this.details, ...this.fields }
  }
}
