/**
 * EIP-5792 calls (spec §5 "Each call in a batch of wallet calls needs a 'to' starting with 0x.
 * Optional data must start with 0x."): the batch check, and the error a wallet that does not know
 * the methods gives (EIP-1193 4200, naming the wallet). The SDK applies them to browser wallets
 * in the host page, the modal to the connections it holds.
 */

/**
 * The EIP-5792 methods.
 *
 * @example
 * CALLS_METHOD.test('wallet_sendCalls') // true
 */
export const CALLS_METHOD = /^wallet_(?:(?:send|get|show)Calls(?:Status)?|getCapabilities)$/

/**
 * An EIP-1193 error (`code`, `message`), as the channel sends it. Not the protocol's error class:
 * this module stands alone, so the modal's lazy chunk that uses it shares nothing with the first
 * download (the bundler would split a shared module out of both).
 */
function rpcError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code })
}

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
    throw rpcError(-32602, 'wallet_sendCalls needs a non-empty list of calls')
  calls.forEach((call: { to?: unknown; data?: unknown }, i) => {
    if (typeof call?.to !== 'string' || !call.to.startsWith('0x'))
      throw rpcError(-32602, `Call ${i + 1}: 'to' must start with 0x`)
    if (call.data !== undefined && (typeof call.data !== 'string' || !call.data.startsWith('0x')))
      throw rpcError(-32602, `Call ${i + 1}: 'data' must start with 0x`)
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
  return unsupported ? rpcError(4200, `${wallet} does not support ${method} (EIP-5792)`) : error
}
