/**
 * Errors that cross frames. On the wire an error is `{ code, message, data? }` (EIP-1193 /
 * EIP-1474 codes); the receiving side rebuilds a typed error with {@link fromErrorObject}.
 */

import type { ErrorObject } from './schemas.js'

/** Options shared by every Porthole error. */
export type BaseErrorOptions = {
  cause?: unknown
  details?: string
  metaMessages?: string[]
}

/**
 * Root of every Porthole error. `message` is exactly `shortMessage` (the spec's strings are
 * contracts); extra context lives in `details` and `metaMessages`.
 *
 * @example
 * throw new BaseError('Unsupported chain', { details: 'eip155:7' })
 */
export class BaseError extends Error {
  override name = 'BaseError'
  readonly shortMessage: string
  declare readonly details?: string
  declare readonly metaMessages?: string[]

  constructor(shortMessage: string, options: BaseErrorOptions = {}) {
    const { cause, ...rest } = options
    super(shortMessage, cause === undefined ? undefined : { cause })
    this.shortMessage = shortMessage
    Object.assign(this, rest)
  }
}

/**
 * Walks an error's `cause` chain and returns the first error matching `fn` (or, without `fn`,
 * the deepest one).
 *
 * @example
 * const root = walk(error, (e) => e instanceof UserRejectedRequestError)
 */
export function walk(error: unknown, fn?: (error: unknown) => boolean): unknown {
  let current = error
  while (current) {
    if (fn?.(current)) return current
    const next = (current as { cause?: unknown }).cause
    if (!next) return fn ? undefined : current
    current = next
  }
  return undefined
}

/**
 * An error with an EIP-1193 / EIP-1474 code, as providers throw them.
 *
 * @example
 * throw new ProviderRpcError(4001, 'User rejected the request.')
 */
export class ProviderRpcError extends BaseError {
  override name = 'ProviderRpcError'
  readonly code: number
  declare readonly data?: unknown

  constructor(code: number, message: string, options: BaseErrorOptions & { data?: unknown } = {}) {
    super(message, options)
    this.code = code
  }
}

type ProviderRpcErrorClass = new (
  message?: string,
  options?: BaseErrorOptions & { data?: unknown },
) => ProviderRpcError

const registry = new Map<number, ProviderRpcErrorClass>()

function define(name: string, code: number, fallback: string): ProviderRpcErrorClass {
  const Class = class extends ProviderRpcError {
    constructor(message = fallback, options: BaseErrorOptions & { data?: unknown } = {}) {
      super(code, message, options)
      this.name = name
    }
  }
  registry.set(code, Class)
  return Class
}

/** 4001: the user rejected the request. */
export const UserRejectedRequestError = /* @__PURE__ */ define(
  'UserRejectedRequestError',
  4001,
  'User rejected the request.',
)
/** 4100: the requested method or account is not authorized. */
export const UnauthorizedError = /* @__PURE__ */ define('UnauthorizedError', 4100, 'Unauthorized')
/** 4200: the provider does not support the method. */
export const UnsupportedMethodError = /* @__PURE__ */ define(
  'UnsupportedMethodError',
  4200,
  'Unsupported method',
)
/** 4900: the provider (or frame) is disconnected. */
export const DisconnectedError = /* @__PURE__ */ define('DisconnectedError', 4900, 'Disconnected')
/** 4901: the provider is not connected to the requested chain. */
export const ChainDisconnectedError = /* @__PURE__ */ define(
  'ChainDisconnectedError',
  4901,
  'Chain disconnected',
)
/** 4902: the chain is not known to the wallet (EIP-3326). */
export const UnrecognizedChainError = /* @__PURE__ */ define(
  'UnrecognizedChainError',
  4902,
  'Unrecognized chain',
)
/** -32700: invalid JSON. */
export const ParseRpcError = /* @__PURE__ */ define('ParseRpcError', -32700, 'Parse error')
/** -32600: the message is not a valid request. */
export const InvalidRequestError = /* @__PURE__ */ define(
  'InvalidRequestError',
  -32600,
  'Invalid request',
)
/** -32601: the method does not exist. */
export const MethodNotFoundError = /* @__PURE__ */ define(
  'MethodNotFoundError',
  -32601,
  'Method not found',
)
/** -32602: invalid method parameters. */
export const InvalidParamsError = /* @__PURE__ */ define(
  'InvalidParamsError',
  -32602,
  'Invalid params',
)
/** -32603: internal error. */
export const InternalRpcError = /* @__PURE__ */ define('InternalRpcError', -32603, 'Internal error')
/** -32002: a resource (frame, upstream, timer) is unavailable; used for timeouts. */
export const ResourceUnavailableError = /* @__PURE__ */ define(
  'ResourceUnavailableError',
  -32002,
  'Resource unavailable',
)
/** -32005: a limit (size, rate) was exceeded. */
export const LimitExceededError = /* @__PURE__ */ define(
  'LimitExceededError',
  -32005,
  'Limit exceeded',
)

/**
 * Rebuilds a typed error from its wire form; unknown codes give a plain {@link ProviderRpcError}.
 * (A bundle registers only the classes it imports: the SDK's rebuilds fewer classes.)
 *
 * @example
 * const error = fromErrorObject({ code: 4001, message: 'Modal closed' })
 * error instanceof UserRejectedRequestError // true
 */
export function fromErrorObject(object: ErrorObject): ProviderRpcError {
  const Class = registry.get(object.code)
  const options = object.data === undefined ? {} : { data: object.data }
  return Class
    ? new Class(object.message, options)
    : new ProviderRpcError(object.code, object.message, options)
}

/**
 * Turns anything thrown into the wire form. Errors with a numeric `code` keep it; anything
 * else becomes -32603 with its message.
 *
 * @example
 * port.postMessage({ error: toErrorObject(error) })
 */
export function toErrorObject(error: unknown): ErrorObject {
  const { code, message, data } = (error ?? {}) as {
    code?: unknown
    message?: unknown
    data?: unknown
  }
  const out: ErrorObject = {
    code: Number.isSafeInteger(code) ? (code as number) : -32603,
    message: typeof message === 'string' && message ? message.slice(0, 2000) : 'An error occurred',
  }
  try {
    if (data !== undefined && JSON.stringify(data)) out.data = data
  } catch {}
  return out
}
