/**
 * JSON-RPC errors and the checks every method applies to its parameters, with the codes and
 * texts of a Solana validator (`Invalid param: …` is -32602).
 */
import { base58 } from '@scure/base'

/**
 * A JSON-RPC error answered to the caller.
 *
 * @example
 * throw new JsonRpcError(-32602, 'Invalid param: Invalid')
 */
export class JsonRpcError extends Error {
  override name = 'JsonRpcError' as const
  readonly code: number
  readonly data: unknown
  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.code = code
    this.data = data
  }
}

/**
 * An invalid-params error (-32602).
 *
 * @example
 * throw invalidParams('Invalid param: Invalid')
 */
export function invalidParams(message: string): JsonRpcError {
  return new JsonRpcError(-32602, message)
}

/** A method's config object (the last positional parameter). */
export type Config = Record<string, unknown>

/**
 * The config object at `index`, or `{}`.
 *
 * @example
 * const { encoding } = configAt(params, 1)
 */
export function configAt(params: readonly unknown[], index: number): Config {
  const value = params[index]
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidParams(`Invalid params: invalid type: expected a map at position ${index}.`)
  return value as Config
}

/**
 * A base58 public key parameter.
 *
 * @example
 * const owner = addressAt(params, 0)
 */
export function addressAt(params: readonly unknown[], index: number): string {
  const value = params[index]
  if (typeof value !== 'string')
    throw invalidParams(`Invalid params: invalid type: expected a string at position ${index}.`)
  if (!isAddress(value)) throw invalidParams('Invalid param: Invalid')
  return value
}

/**
 * Whether `value` is a base58 public key (32 bytes).
 *
 * @example
 * isAddress('11111111111111111111111111111111') // true
 */
export function isAddress(value: string): boolean {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) return false
  try {
    return base58.decode(value).length === 32
  } catch {
    return false
  }
}

/**
 * Whether `value` is a base58 transaction signature (64 bytes).
 *
 * @example
 * isSignature(signature) // true
 */
export function isSignature(value: unknown): value is string {
  if (typeof value !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(value)) return false
  try {
    return base58.decode(value).length === 64
  } catch {
    return false
  }
}

/**
 * Refuses a request whose `minContextSlot` the chain has not reached (-32016).
 *
 * @example
 * checkMinContextSlot(config, chain.slot())
 */
export function checkMinContextSlot(config: Config, slot: number): void {
  const min = config.minContextSlot
  if (typeof min === 'number' && min > slot)
    throw new JsonRpcError(-32016, 'Minimum context slot has not been reached', {
      contextSlot: slot,
    })
}
