/**
 * EIP-5792 calls through the modal (spec §5 "Each call in a batch of wallet calls needs a 'to'
 * starting with 0x. Optional data must start with 0x."): the batch is checked before any wallet
 * sees it, and a wallet that does not know the methods answers EIP-1193's 4200 by name.
 */
import { ProviderRpcError } from '@porthole/protocol'

/** The EIP-5792 methods. */
export const CALLS_METHODS: readonly string[] = [
  'wallet_sendCalls',
  'wallet_getCallsStatus',
  'wallet_showCallsStatus',
  'wallet_getCapabilities',
]

/**
 * Checks a `wallet_sendCalls` request's calls (spec §5); throws -32602 naming the call at fault.
 *
 * @example
 * checkCalls([{ version: '2.0.0', calls: [{ to: 'abc' }] }]) // throws "Call 1: 'to' must start with 0x"
 */
export function checkCalls(params: unknown): void {
  const [request] = (Array.isArray(params) ? params : []) as { calls?: unknown }[]
  const calls = request?.calls
  if (!Array.isArray(calls) || !calls.length)
    throw new ProviderRpcError(-32602, 'wallet_sendCalls needs a non-empty list of calls')
  calls.forEach((call: { to?: unknown; data?: unknown }, i) => {
    if (typeof call?.to !== 'string' || !call.to.startsWith('0x'))
      throw new ProviderRpcError(-32602, `Call ${i + 1}: 'to' must start with 0x`)
    if (call.data !== undefined && (typeof call.data !== 'string' || !call.data.startsWith('0x')))
      throw new ProviderRpcError(-32602, `Call ${i + 1}: 'data' must start with 0x`)
  })
}

/**
 * A wallet's answer to an EIP-5792 method it does not know (JSON-RPC -32601, EIP-1193 4200, or a
 * "not supported" message) as 4200 naming the wallet and the method; other errors unchanged.
 *
 * @example
 * throw callsError(error, 'wallet_sendCalls', 'MetaMask')
 */
export function callsError(error: unknown, method: string, wallet: string): unknown {
  const e = error as { code?: unknown; message?: unknown }
  const unsupported =
    e?.code === -32601 ||
    e?.code === 4200 ||
    (typeof e?.message === 'string' &&
      /method not found|not supported|unsupported/i.test(e.message))
  return unsupported
    ? new ProviderRpcError(4200, `${wallet} does not support ${method} (EIP-5792)`)
    : error
}
