/**
 * A JSON-RPC error answered by a method the proxy serves itself (the paymaster's `pm_*`): its
 * `code`, `message` and `data` become the response's `error`.
 *
 * @example
 * throw new RpcMethodError(-32602, 'Invalid params: userOperation.sender must be an address')
 */
export class RpcMethodError extends Error {
  override name = 'RpcMethodError' as const
  readonly code: number
  readonly data: unknown
  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.code = code
    this.data = data
  }
}
