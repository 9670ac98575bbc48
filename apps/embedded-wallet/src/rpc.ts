/**
 * EIP-1193 requests for the embedded wallet (spec §6): safe read-only methods go to the chain
 * through the API's RPC proxy; not-safe methods wait for the user's approval in this frame,
 * then the signer Worker signs; anything else is 'Requested RPC call is not allowed'.
 */
import {
  BaseError,
  MethodNotFoundError,
  NOT_SAFE_METHODS,
  RPC_NOT_ALLOWED,
  SAFE_METHODS,
  UnauthorizedError,
  UnsupportedMethodError,
  UserRejectedRequestError,
} from '@porthole/protocol'
import {
  decodeFunctionData,
  erc20Abi,
  formatEther,
  type Hex,
  hexToString,
  isHex,
  type TypedDataDefinition,
} from 'viem'
import * as Api from './api.js'
import { type ApprovalContent, dismiss, requestApproval } from './approval.js'
import * as Session from './session.js'
import { signer } from './signer.js'

/** Not-safe requests waiting for the user, by id (for `rpcAbort`). */
const pending = new Map<string, AbortController>()
let dappOrigin = ''

/** Records the dapp's URL, shown on approval cards. */
export function setDappOrigin(url: string | undefined): void {
  try {
    dappOrigin = url ? new URL(url).origin : ''
  } catch {
    dappOrigin = ''
  }
}

const caip = () => `eip155:${Session.chainId()}`

function requireAccount(claimed?: unknown): string {
  const address = Session.address()
  if (!address) throw new UnauthorizedError('Not connected to email or social')
  if (typeof claimed === 'string' && claimed.toLowerCase() !== address.toLowerCase())
    throw new UnauthorizedError('The requested account is not this wallet')
  return address
}

function readable(message: string): string {
  if (!isHex(message)) return message
  try {
    const text = hexToString(message)
    return /^[\P{Cc}\n\r\t]*$/u.test(text) ? text : message
  } catch {
    return message
  }
}

type Tx = { from?: string; to?: Hex; value?: Hex; data?: Hex; gas?: Hex }

function describeTransaction(tx: Tx, from: string): ApprovalContent {
  const fields = [
    { label: 'From', value: from, mono: true },
    { label: 'To', value: tx.to ?? 'New contract', mono: true },
    { label: 'Amount', value: `${formatEther(BigInt(tx.value ?? '0x0'))} ETH` },
    { label: 'Network', value: caip() },
  ]
  if (tx.data && tx.data !== '0x') {
    try {
      const call = decodeFunctionData({ abi: erc20Abi, data: tx.data })
      fields.push({
        label: 'Call',
        value: `${call.functionName}(${call.args?.map(String).join(', ')})`,
        mono: true,
      })
    } catch {
      fields.push({
        label: 'Data',
        value: tx.data.length > 74 ? `${tx.data.slice(0, 74)}…` : tx.data,
        mono: true,
      })
    }
  }
  return { title: 'Send transaction', origin: dappOrigin, fields }
}

async function approve(
  id: string,
  content: ApprovalContent,
  onShow: () => void,
  signal?: AbortSignal,
): Promise<void> {
  const controller = new AbortController()
  signal?.addEventListener(
    'abort',
    () => controller.abort(new UserRejectedRequestError('Request was aborted')),
    { once: true },
  )
  pending.set(id, controller)
  onShow()
  try {
    const approved = await requestApproval(content, controller.signal)
    if (!approved) throw new UserRejectedRequestError('User rejected the request.')
  } finally {
    pending.delete(id)
  }
}

async function sendTransaction(tx: Tx, from: string): Promise<Hex> {
  const chain = caip()
  const [nonce, gas, block, tip] = await Promise.all([
    Api.rpc<Hex>(chain, 'eth_getTransactionCount', [from, 'pending']),
    tx.gas ? Promise.resolve(tx.gas) : Api.rpc<Hex>(chain, 'eth_estimateGas', [{ ...tx, from }]),
    Api.rpc<{ baseFeePerGas: Hex }>(chain, 'eth_getBlockByNumber', ['latest', false]),
    Api.rpc<Hex>(chain, 'eth_maxPriorityFeePerGas', []).catch(() => '0x3b9aca00' as Hex),
  ])
  const maxPriorityFeePerGas = BigInt(tip)
  const signed = await signer.signTransaction({
    type: 'eip1559',
    chainId: Session.chainId(),
    nonce: Number(nonce),
    gas: BigInt(gas),
    maxPriorityFeePerGas,
    maxFeePerGas: BigInt(block.baseFeePerGas) * 2n + maxPriorityFeePerGas,
    ...(tx.to ? { to: tx.to } : {}),
    value: BigInt(tx.value ?? '0x0'),
    ...(tx.data ? { data: tx.data } : {}),
  })
  return Api.rpc<Hex>(chain, 'eth_sendRawTransaction', [signed])
}

/**
 * Runs one EIP-1193 request. `onApproval` is called when the frame must be shown.
 *
 * @example
 * await handleRpc({ id: '7', method: 'personal_sign', params: [msg, address] }, show)
 */
export async function handleRpc(
  request: { id: string; method: string; params: unknown },
  onApproval: (method: string) => void,
  signal?: AbortSignal,
): Promise<unknown> {
  const { id, method } = request
  const params = (Array.isArray(request.params) ? request.params : [request.params]) as unknown[]
  if (method === 'eth_accounts' || method === 'eth_requestAccounts') {
    const address = Session.address()
    return address ? [address] : []
  }
  if (method === 'eth_chainId') return `0x${Session.chainId().toString(16)}`
  if (SAFE_METHODS.includes(method)) return Api.rpc(caip(), method, params)
  if (!NOT_SAFE_METHODS.includes(method)) throw new MethodNotFoundError(RPC_NOT_ALLOWED)

  const show = () => onApproval(method)
  if (method === 'personal_sign') {
    const [message, claimed] = params as [string, string]
    const from = requireAccount(claimed)
    if (typeof message !== 'string') throw new BaseError('Error signing message')
    await approve(
      id,
      {
        title: 'Sign message',
        origin: dappOrigin,
        fields: [{ label: 'Account', value: from, mono: true }],
        body: readable(message),
      },
      show,
      signal,
    )
    return signer.signMessage(isHex(message) ? { raw: message } : message)
  }
  if (method === 'eth_signTypedData_v4') {
    const [claimed, raw] = params as [string, unknown]
    const from = requireAccount(claimed)
    const typed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as TypedDataDefinition & {
      types: Record<string, unknown>
    }
    const { EIP712Domain: _domain, ...types } = typed.types
    await approve(
      id,
      {
        title: 'Sign typed data',
        origin: dappOrigin,
        fields: [
          { label: 'Account', value: from, mono: true },
          { label: 'Type', value: String(typed.primaryType) },
        ],
        body: JSON.stringify({ domain: typed.domain, message: typed.message }, null, 2),
      },
      show,
      signal,
    )
    return signer.signTypedData({ ...typed, types } as TypedDataDefinition)
  }
  if (method === 'eth_sendTransaction') {
    const tx = (params[0] ?? {}) as Tx
    const from = requireAccount(tx.from)
    await approve(id, describeTransaction(tx, from), show, signal)
    return sendTransaction(tx, from)
  }
  throw new UnsupportedMethodError(`${method} is not supported by the embedded wallet yet`)
}

/**
 * Aborts every not-safe request waiting for the user (spec §4: only those abort); returns
 * their ids.
 */
export function abortPending(): string[] {
  const ids = [...pending.keys()]
  for (const controller of pending.values())
    controller.abort(new UserRejectedRequestError('Request was aborted'))
  pending.clear()
  dismiss(new UserRejectedRequestError('Request was aborted'))
  return ids
}
