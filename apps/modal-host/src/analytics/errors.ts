/**
 * Errors reported to analytics (spec §7 "Errors are wrapped as a typed error with a category").
 *
 * Categories:
 * - `API_ERROR`: the Porthole API answered with an error status or a shape it should not have;
 * - `RPC_ERROR`: a chain RPC call failed (JSON-RPC -32xxx codes, transports down);
 * - `WALLET_ERROR`: the connected wallet refused or failed (EIP-1193 4xxx, CAIP 5000);
 * - `EMBEDDED_WALLET_ERROR`: the embedded-wallet frame failed to load or answer (spec §8:
 *   reported as the events `iframe_load_failed` and `iframe_request_timeout`);
 * - `CONFIGURATION_ERROR`: the dapp's options or project are invalid;
 * - `INTERNAL_SDK_ERROR`: anything else: a bug of ours.
 */
import { BaseError } from '@porthole/protocol'
import { HttpError } from '@porthole/shared'

/** What an error report is about. */
export type ErrorCategory =
  | 'API_ERROR'
  | 'RPC_ERROR'
  | 'WALLET_ERROR'
  | 'EMBEDDED_WALLET_ERROR'
  | 'CONFIGURATION_ERROR'
  | 'INTERNAL_SDK_ERROR'

/**
 * An error with its report category; `message` and `shortMessage` are the original error's,
 * `cause` is the original error.
 *
 * @example
 * throw new ReportableError('API_ERROR', 'HTTP status code: 500', { cause: error })
 */
export class ReportableError extends BaseError {
  override name = 'ReportableError' as const
  readonly category: ErrorCategory
  constructor(
    category: ErrorCategory,
    shortMessage: string,
    options: ConstructorParameters<typeof BaseError>[1] = {},
  ) {
    super(shortMessage, options)
    this.category = category
  }
}

/**
 * The category of an error by what it is: an `HttpError` is an API error; EIP-1193 codes
 * (4001–4902) and CAIP 5000 are wallet errors; JSON-RPC codes (-32768 to -32000) are RPC errors;
 * the rest is internal.
 *
 * @example
 * errorCategory(new HttpError(500, null)) // 'API_ERROR'
 */
export function errorCategory(error: unknown): ErrorCategory {
  if (error instanceof ReportableError) return error.category
  if (error instanceof HttpError) return 'API_ERROR'
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'number') {
    if ((code >= 4000 && code < 5000) || code === 5000) return 'WALLET_ERROR'
    if (code >= -32768 && code <= -32000) return 'RPC_ERROR'
  }
  return 'INTERNAL_SDK_ERROR'
}

/**
 * Wraps anything thrown as a {@link ReportableError} (an existing one is returned as it is),
 * with the given category or the one {@link errorCategory} infers.
 *
 * @example
 * const reportable = toReportableError(error, 'RPC_ERROR')
 */
export function toReportableError(error: unknown, category?: ErrorCategory): ReportableError {
  if (error instanceof ReportableError && (!category || category === error.category)) return error
  const message =
    error instanceof BaseError
      ? error.shortMessage
      : error instanceof Error
        ? error.message
        : typeof error === 'string'
          ? error
          : 'An error occurred'
  return new ReportableError(category ?? errorCategory(error), message || 'An error occurred', {
    cause: error,
  })
}
