/**
 * The `{ context, value }` wrapper of the RPC methods that report the slot they answered at.
 */
import type { Chain } from '../chain.js'

/** The validator version the chain reports (`getVersion`, `context.apiVersion`). */
export const SOLANA_CORE_VERSION = '3.0.0'

/** A JSON-RPC method: its positional parameters in, its result out (or a thrown error). */
export type RpcMethod = (params: readonly unknown[], chain: Chain) => unknown

/**
 * `value` with the slot it was read at.
 *
 * @example
 * withContext(chain, 100n) // { context: { apiVersion: '3.0.0', slot: 12 }, value: 100n }
 */
export function withContext<T>(
  chain: Chain,
  value: T,
): { context: { apiVersion: string; slot: number }; value: T } {
  return { context: { apiVersion: SOLANA_CORE_VERSION, slot: chain.slot() }, value }
}
