/**
 * EIP-5792 (v2) in the wallet frame, as pure functions: the `wallet_sendCalls` request checked
 * per the spec's batch rules (every call's `to` starts with 0x, optional data starts with 0x),
 * the capabilities the embedded wallet reports, and the `wallet_getCallsStatus` answer built from
 * a user operation's receipt. The frame's smart account runs a batch as one user operation, so
 * a batch's id is its userOpHash (or the id the app chose).
 */
import { InvalidParamsError, ProviderRpcError } from '@porthole/protocol'
import { type Address, type Hex, isAddress, isHex } from 'viem'

/** EIP-5792 error codes. */
export const CALLS_ERROR_CODES = {
  unsupportedCapability: 5700,
  unsupportedChain: 5710,
  duplicateId: 5720,
  unknownBundle: 5730,
  bundleTooLarge: 5740,
  atomicityNotSupported: 5760,
} as const

/** The most calls one batch may hold (one user operation). */
export const MAX_CALLS = 20

/** One call of a batch, checked. */
export type WalletCall = { to: Address; value: bigint; data: Hex | undefined }

/** A checked `wallet_sendCalls` request. */
export type SendCallsRequest = {
  version: string
  /** The app's own id for the batch, if it chose one. */
  id: string | undefined
  chainId: number
  from: Address | undefined
  calls: WalletCall[]
  atomicRequired: boolean
  /** `paymasterService` asked for: its ERC-7677 context (undefined: none given). */
  paymasterContext: unknown
  /** Whether the app made sponsorship a must (a non-optional `paymasterService`). */
  sponsorRequired: boolean
}

/** What {@link parseSendCalls} needs besides the params. */
export type ParseSendCallsOptions = {
  /** The API's origin: the only paymaster service the frame can reach (its CSP). */
  apiOrigin: string
}

const invalid = (message: string) => new InvalidParamsError(message)

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

/**
 * The capabilities of a request (or of one call) the frame can honour; refuses a non-optional one
 * it cannot (5700). `paymasterService` is honoured through the project's paymaster (the API),
 * so its `url`, when given, must be the API's.
 */
function checkCapabilities(
  capabilities: unknown,
  options: ParseSendCallsOptions,
): { paymasterContext: unknown; sponsorRequired: boolean; asked: boolean } {
  const out = { paymasterContext: undefined as unknown, sponsorRequired: false, asked: false }
  if (capabilities === undefined) return out
  const all = record(capabilities)
  if (!all) throw invalid('capabilities must be an object')
  for (const [name, raw] of Object.entries(all)) {
    const value = record(raw) ?? {}
    const optional = value.optional === true
    if (name === 'paymasterService') {
      const url = value.url
      let reachable = url === undefined
      if (typeof url === 'string')
        try {
          reachable = new URL(url).origin === options.apiOrigin
        } catch {}
      if (!reachable) {
        if (optional) continue
        throw new ProviderRpcError(
          CALLS_ERROR_CODES.unsupportedCapability,
          'Unsupported non-optional capability: paymasterService (only the project’s paymaster is reachable from the embedded wallet)',
        )
      }
      out.asked = true
      out.paymasterContext = value.context
      out.sponsorRequired = !optional
      continue
    }
    if (!optional)
      throw new ProviderRpcError(
        CALLS_ERROR_CODES.unsupportedCapability,
        `Unsupported non-optional capability: ${name.slice(0, 64)}`,
      )
  }
  return out
}

/**
 * One call of a batch (or an `eth_sendTransaction` from the smart account), checked per the
 * spec's batch rules: `to` starts with 0x (and is an address), optional data starts with 0x,
 * optional value is a hex quantity.
 *
 * @example
 * parseWalletCall({ to: '0x…', data: '0xa9059cbb…' }, 0) // { to, value: 0n, data }
 */
export function parseWalletCall(raw: unknown, index: number): WalletCall {
  const call = record(raw)
  const n = index + 1
  if (!call) throw invalid(`Call ${n} must be an object`)
  const { to, data, value } = call
  if (typeof to !== 'string' || !to.startsWith('0x'))
    throw invalid(`Call ${n}: 'to' must start with 0x`)
  if (!isAddress(to, { strict: false })) throw invalid(`Call ${n}: 'to' is not an address`)
  if (data !== undefined && (typeof data !== 'string' || !data.startsWith('0x')))
    throw invalid(`Call ${n}: 'data' must start with 0x`)
  if (data !== undefined && !isHex(data)) throw invalid(`Call ${n}: 'data' is not hex`)
  if (value !== undefined && (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)))
    throw invalid(`Call ${n}: 'value' must be a hex quantity`)
  return {
    to: to as Address,
    value: value === undefined ? 0n : BigInt(value),
    data: data === undefined || data === '0x' ? undefined : (data as Hex),
  }
}

/**
 * Checks `wallet_sendCalls` params (`[{ version, id?, chainId, from?, calls, capabilities?,
 * atomicRequired }]`): invalid params are -32602 with what is wrong, more than
 * {@link MAX_CALLS} calls 5740, a non-optional capability the frame cannot honour 5700.
 *
 * @example
 * parseSendCalls([{ version: '2.0.0', chainId: '0x7a69', atomicRequired: true,
 *   calls: [{ to: token, data: transferData }] }], { apiOrigin })
 */
export function parseSendCalls(params: unknown, options: ParseSendCallsOptions): SendCallsRequest {
  const request = record(Array.isArray(params) ? params[0] : params)
  if (!request) throw invalid('wallet_sendCalls takes one object: { version, chainId, calls }')
  const { version, id, chainId, from, calls, atomicRequired } = request
  if (typeof version !== 'string' || version.length === 0 || version.length > 16)
    throw invalid('version is required (e.g. "2.0.0")')
  if (id !== undefined && (typeof id !== 'string' || id.length === 0 || id.length > 256))
    throw invalid('id must be a string of at most 256 characters')
  if (typeof chainId !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(chainId))
    throw invalid('chainId must be a hex chain id')
  if (from !== undefined && (typeof from !== 'string' || !isAddress(from, { strict: false })))
    throw invalid('from must be an address')
  if (atomicRequired !== undefined && typeof atomicRequired !== 'boolean')
    throw invalid('atomicRequired must be a boolean')
  if (!Array.isArray(calls) || calls.length === 0)
    throw invalid('calls must hold at least one call')
  if (calls.length > MAX_CALLS)
    throw new ProviderRpcError(
      CALLS_ERROR_CODES.bundleTooLarge,
      `Bundle too large: at most ${MAX_CALLS} calls`,
    )
  const capabilities = checkCapabilities(request.capabilities, options)
  return {
    version,
    id: id as string | undefined,
    chainId: Number(BigInt(chainId)),
    from: from as Address | undefined,
    calls: calls.map((call, index) => {
      // A call may carry its own capabilities (v2): the same rules.
      checkCapabilities(record(call)?.capabilities, options)
      return parseWalletCall(call, index)
    }),
    atomicRequired: atomicRequired !== false,
    paymasterContext: capabilities.paymasterContext,
    sponsorRequired: capabilities.sponsorRequired,
  }
}

/**
 * What a smart account's sessions accept (ERC-7715 capability discovery): the dapp keeps a
 * secp256k1 key; ERC-20 transfers and contract calls on one contract, with a spend limit.
 */
export const SESSION_CAPABILITY = {
  supported: true,
  signerTypes: ['account', 'key', 'keys'],
  keyTypes: ['secp256k1'],
  permissionTypes: ['erc20-token-transfer', 'contract-call'],
  policyTypes: ['token-allowance', 'recipient', 'gas-limit'],
} as const

/**
 * The capabilities of one chain (EIP-5792 v2 `atomic`, ERC-7677 `paymasterService`, ERC-7715
 * `permissions`).
 */
export type ChainCapabilities =
  | {
      atomic: { status: 'supported' }
      paymasterService: { supported: true }
      permissions: typeof SESSION_CAPABILITY
    }
  | { atomic: { status: 'unsupported' } }

/**
 * `wallet_getCapabilities` for an account on `chainIds`: a smart account batches atomically
 * with sponsored gas and grants sessions where smart accounts are enabled; an EOA (or another
 * network) does not.
 *
 * @example
 * capabilitiesOf({ chainIds: [31337, 1], smartAccount: (id) => id === 31337 })
 * // { '0x7a69': { atomic: { status: 'supported' }, paymasterService: { supported: true },
 * //     permissions: SESSION_CAPABILITY },
 * //   '0x1': { atomic: { status: 'unsupported' } } }
 */
export function capabilitiesOf(parameters: {
  chainIds: readonly number[]
  smartAccount: (chainId: number) => boolean
}): Record<Hex, ChainCapabilities> {
  const out: Record<Hex, ChainCapabilities> = {}
  for (const chainId of parameters.chainIds)
    out[`0x${chainId.toString(16)}`] = parameters.smartAccount(chainId)
      ? {
          atomic: { status: 'supported' },
          paymasterService: { supported: true },
          permissions: SESSION_CAPABILITY,
        }
      : { atomic: { status: 'unsupported' } }
  return out
}

/**
 * The chain ids a `wallet_getCapabilities` asks about (`[address, chainIds?]`), or undefined for
 * all of them.
 *
 * @example
 * requestedChainIds([address, ['0x7a69']]) // [31337]
 */
export function requestedChainIds(params: unknown): number[] | undefined {
  const list = Array.isArray(params) ? params[1] : undefined
  if (list === undefined) return undefined
  if (!Array.isArray(list) || list.length > 100) throw invalid('chainIds must be a list')
  return list.map((id) => {
    if (typeof id !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(id))
      throw invalid('chainIds must be hex chain ids')
    return Number(BigInt(id))
  })
}

/** A user operation's receipt as the bundler answers `eth_getUserOperationReceipt`. */
export type RpcUserOperationReceipt = {
  success: boolean
  actualGasUsed: Hex
  logs: { address: Hex; data: Hex; topics: Hex[] }[]
  receipt: { transactionHash: Hex; blockHash: Hex; blockNumber: Hex; gasUsed: Hex }
}

/** EIP-5792 batch states: pending, confirmed, failed off chain, reverted on chain. */
export type CallsStatusCode = 100 | 200 | 400 | 500

/** The `wallet_getCallsStatus` answer. */
export type CallsStatus = {
  version: '2.0.0'
  id: string
  chainId: Hex
  atomic: true
  status: CallsStatusCode
  receipts?: {
    logs: { address: Hex; data: Hex; topics: Hex[] }[]
    status: Hex
    blockHash: Hex
    blockNumber: Hex
    gasUsed: Hex
    transactionHash: Hex
  }[]
}

/**
 * The status of a batch: with the receipt, confirmed (200) or reverted (500) with the one receipt
 * of its user operation; without, pending (100) or failed off chain (400, the bundler dropped it).
 *
 * @example
 * callsStatusOf({ id, chainId: 31337, receipt }) // { status: 200, receipts: [{ … }], … }
 */
export function callsStatusOf(parameters: {
  id: string
  chainId: number
  receipt: RpcUserOperationReceipt | null
  failed?: boolean
}): CallsStatus {
  const { id, chainId, receipt } = parameters
  const base = { version: '2.0.0', id, chainId: `0x${chainId.toString(16)}`, atomic: true } as const
  if (!receipt) return { ...base, status: parameters.failed ? 400 : 100 }
  return {
    ...base,
    status: receipt.success ? 200 : 500,
    receipts: [
      {
        logs: receipt.logs.map(({ address, data, topics }) => ({ address, data, topics })),
        status: receipt.success ? '0x1' : '0x0',
        blockHash: receipt.receipt.blockHash,
        blockNumber: receipt.receipt.blockNumber,
        gasUsed: receipt.actualGasUsed,
        transactionHash: receipt.receipt.transactionHash,
      },
    ],
  }
}
