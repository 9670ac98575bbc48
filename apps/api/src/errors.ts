/**
 * HTTP errors of the API. Every error response is JSON `{ code, message }` (plus `details` for
 * invalid input); `message` is the spec's alert string where the spec names one.
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
} as const

/** An API error code. */
export type ApiErrorCode = keyof typeof API_ERRORS

/** The JSON body of every error response. */
export type ApiErrorBody = { code: ApiErrorCode; message: string; details?: string }

/** Options of {@link ApiError}. */
export type ApiErrorOptions = {
  details?: string
  cause?: unknown
  headers?: Record<string, string>
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

  constructor(code: ApiErrorCode, options: ApiErrorOptions = {}) {
    const { status, message } = API_ERRORS[code]
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.status = status
    this.shortMessage = message
    this.details = options.details
    this.headers = options.headers ?? {}
  }

  /**
   * The response body.
   *
   * @example
   * new ApiError('RATE_LIMITED').toJSON() // { code: 'RATE_LIMITED', message: 'Rate Limited' }
   */
  toJSON(): ApiErrorBody {
    return this.details === undefined
      ? { code: this.code, message: this.shortMessage }
      : { code: this.code, message: this.shortMessage, details: this.details }
  }
}
