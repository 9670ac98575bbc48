/**
 * EIP-1193 requests for the embedded wallet (spec §6): safe read-only methods go to the chain
 * through the API's RPC proxy; not-safe methods wait for the user's approval in this frame,
 * then the signer Worker signs; anything else is 'Requested RPC call is not allowed'. Solana
 * requests (`namespace: 'solana'`) go to `solanaRpc.ts`, loaded on the first one.
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
import { decodeFunctionResult, erc20Abi, type Hex, isHex, type TypedDataDefinition } from 'viem'
import * as Api from './api.js'
import { requestApproval } from './approval.js'
import {
  type ApprovalContent,
  type BalanceChange,
  describeTransaction,
  HIDDEN_WARNING,
  type NetworkInfo,
  type PreparedTransaction,
  readableMessage,
  visibleText,
} from './describe.js'
import * as Session from './session.js'
import { signer } from './signer.js'

/** Not-safe requests waiting for the user, by id (for `rpcAbort` and network switches). */
const pending = new Map<string, AbortController>()
let dappOrigin = ''
const networks = new Map<number, NetworkInfo>()

/** Records the host page's origin (as the modal's handshake verified it), shown on cards. */
export function setDappOrigin(origin: string | undefined): void {
  try {
    dappOrigin = origin ? new URL(origin).origin : ''
  } catch {
    dappOrigin = ''
  }
}

/** Records the configured networks' names and native currencies, shown on cards. */
export function setNetworks(list: readonly ({ chainId: number } & NetworkInfo)[]): void {
  networks.clear()
  for (const { chainId, ...info } of list) networks.set(chainId, info)
}

const networkOf = (chainId: number): NetworkInfo =>
  networks.get(chainId) ?? { name: `Chain ${chainId}`, symbol: 'ETH', decimals: 18 }
const caipOf = (chainId: number) => `eip155:${chainId}`

function requireAccount(claimed?: unknown): string {
  const address = Session.address()
  if (!address) throw new UnauthorizedError('Not connected to email or social')
  if (typeof claimed === 'string' && claimed.toLowerCase() !== address.toLowerCase())
    throw new UnauthorizedError('The requested account is not this wallet')
  return address
}

type Tx = { from?: string; to?: Hex | null; value?: Hex; data?: Hex; input?: Hex; gas?: Hex }

/**
 * Fixes everything that will be signed before the card is drawn: the chain (the frame's chain
 * when the request arrived), nonce, gas, fees, recipient, value and data.
 */
async function prepareTransaction(tx: Tx, from: string): Promise<PreparedTransaction> {
  const chainId = Session.chainId()
  const chain = caipOf(chainId)
  const data = tx.data ?? tx.input
  const call = {
    from,
    ...(tx.to ? { to: tx.to } : {}),
    ...(tx.value ? { value: tx.value } : {}),
    ...(data ? { data } : {}),
  }
  const [nonce, gas, block, tip] = await Promise.all([
    Api.rpc<Hex>(chain, 'eth_getTransactionCount', [from, 'pending']),
    tx.gas ? Promise.resolve(tx.gas) : Api.rpc<Hex>(chain, 'eth_estimateGas', [call]),
    Api.rpc<{ baseFeePerGas: Hex }>(chain, 'eth_getBlockByNumber', ['latest', false]),
    Api.rpc<Hex>(chain, 'eth_maxPriorityFeePerGas', []).catch(() => '0x3b9aca00' as Hex),
  ])
  const maxPriorityFeePerGas = BigInt(tip)
  return {
    chainId,
    from: from as Hex,
    to: tx.to ? tx.to : null,
    value: BigInt(tx.value ?? '0x0'),
    data: data && data !== '0x' ? data : undefined,
    nonce: Number(nonce),
    gas: BigInt(gas),
    maxPriorityFeePerGas,
    maxFeePerGas: BigInt(block.baseFeePerGas) * 2n + maxPriorityFeePerGas,
  }
}

/** keccak256("Transfer(address,address,uint256)"), the topic of ERC-20 and native transfer logs. */
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
/** The pseudo-address `eth_simulateV1` gives native transfers (with `traceTransfers`). */
const NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

async function tokenUnit(chain: string, token: Hex): Promise<{ symbol: string; decimals: number }> {
  const read = async (functionName: 'symbol' | 'decimals') =>
    decodeFunctionResult({
      abi: erc20Abi,
      functionName,
      data: await Api.rpc<Hex>(chain, 'eth_call', [
        { to: token, data: functionName === 'symbol' ? '0x95d89b41' : '0x313ce567' },
        'latest',
      ]),
    })
  const [symbol, decimals] = await Promise.all([read('symbol'), read('decimals')])
  return { symbol: String(symbol), decimals: Number(decimals) }
}

/**
 * The balance changes of the account the transaction would cause (`eth_simulateV1` with
 * transfer tracing: native and ERC-20 transfers), or null where the chain cannot simulate.
 */
async function simulate(tx: PreparedTransaction): Promise<BalanceChange[] | null> {
  const chain = caipOf(tx.chainId)
  try {
    const [block] = await Api.rpc<
      { calls: { status: Hex; logs: { address: Hex; topics: Hex[]; data: Hex }[] }[] }[]
    >(chain, 'eth_simulateV1', [
      {
        blockStateCalls: [
          {
            calls: [
              {
                from: tx.from,
                ...(tx.to ? { to: tx.to } : {}),
                value: `0x${tx.value.toString(16)}`,
                ...(tx.data ? { data: tx.data } : {}),
                gas: `0x${tx.gas.toString(16)}`,
              },
            ],
          },
        ],
        traceTransfers: true,
        validation: false,
      },
      'latest',
    ])
    const result = block?.calls[0]
    if (result?.status !== '0x1') return null
    const me = tx.from.toLowerCase()
    const totals = new Map<string, bigint>()
    for (const log of result.logs) {
      if (log.topics[0] !== TRANSFER || log.topics.length !== 3) continue
      const from = `0x${log.topics[1]?.slice(26)}`
      const to = `0x${log.topics[2]?.slice(26)}`
      const amount = BigInt(log.data)
      const key = log.address.toLowerCase()
      if (from === me) totals.set(key, (totals.get(key) ?? 0n) - amount)
      if (to === me) totals.set(key, (totals.get(key) ?? 0n) + amount)
    }
    const changes: BalanceChange[] = []
    for (const [address, amount] of totals) {
      const unit =
        address === NATIVE ? networkOf(tx.chainId) : await tokenUnit(chain, address as Hex)
      changes.push({ ...unit, amount })
    }
    return changes
  } catch {
    return null
  }
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

/** A text to sign with hidden characters made visible, and the warning when there were any. */
function shownText(text: string): { body: string; warnings: string[] } {
  const { text: body, hidden } = visibleText(text)
  return { body, warnings: hidden ? [HIDDEN_WARNING] : [] }
}

/** One request of the modal: an EIP-1193 call, or a Solana one with `namespace: 'solana'`. */
export type RpcRequest = {
  id: string
  method: string
  params: unknown
  /** Absent: eip155. */
  namespace?: 'eip155' | 'solana'
  /** For Solana: the network's CAIP-2 reference (or whole CAIP-2 id). */
  chainId?: number | string
}

/**
 * A Solana request, by the module only Solana requests load: the same approval queue, abort and
 * 4001 as EVM requests; the signer Worker signs; sending goes through the API's RPC proxy.
 */
async function solanaRequest(
  request: RpcRequest,
  onApproval: (method: string) => void,
  signal?: AbortSignal,
): Promise<unknown> {
  const { handleSolanaRpc } = await import('./solanaRpc.js')
  return handleSolanaRpc(
    {
      method: request.method,
      params: request.params,
      ...(request.chainId === undefined ? {} : { chainId: request.chainId }),
    },
    {
      address: Session.solanaAddress(),
      origin: dappOrigin,
      approve: (content) => approve(request.id, content, () => onApproval(request.method), signal),
      signMessage: (message) => signer.signSolanaMessage(message),
      signTransaction: (messageBytes) => signer.signSolanaTransaction(messageBytes),
      rpc: Api.rpc,
    },
  )
}

/**
 * Runs one request. `onApproval` is called when the frame must be shown.
 *
 * @example
 * await handleRpc({ id: '7', method: 'personal_sign', params: [msg, address] }, show)
 * await handleRpc({ id: '8', method: 'solana_signMessage', params: { message, pubkey },
 *   namespace: 'solana', chainId: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' }, show)
 */
export async function handleRpc(
  request: RpcRequest,
  onApproval: (method: string) => void,
  signal?: AbortSignal,
): Promise<unknown> {
  const { id, method } = request
  if (request.namespace === 'solana') return solanaRequest(request, onApproval, signal)
  if (method.startsWith('solana_'))
    throw new UnsupportedMethodError(`${method} needs the request's namespace 'solana'`)
  const params = (Array.isArray(request.params) ? request.params : [request.params]) as unknown[]
  if (method === 'eth_accounts' || method === 'eth_requestAccounts') {
    const address = Session.address()
    return address ? [address] : []
  }
  if (method === 'eth_chainId') return `0x${Session.chainId().toString(16)}`
  if (SAFE_METHODS.includes(method)) return Api.rpc(caipOf(Session.chainId()), method, params)
  if (!NOT_SAFE_METHODS.includes(method)) throw new MethodNotFoundError(RPC_NOT_ALLOWED)

  const show = () => onApproval(method)
  if (method === 'personal_sign') {
    const [message, claimed] = params as [string, string]
    const from = requireAccount(claimed)
    if (typeof message !== 'string') throw new BaseError('Error signing message')
    const shown = shownText(readableMessage(message))
    await approve(
      id,
      {
        title: 'Sign message',
        origin: dappOrigin,
        fields: [{ label: 'Account', value: from, mono: true }],
        body: { label: 'Message', text: shown.body },
        warnings: shown.warnings,
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
    const shown = shownText(
      JSON.stringify({ domain: typed.domain, message: typed.message }, null, 2),
    )
    await approve(
      id,
      {
        title: 'Sign typed data',
        origin: dappOrigin,
        fields: [
          { label: 'Account', value: from, mono: true },
          { label: 'Type', value: visibleText(String(typed.primaryType)).text },
        ],
        body: { label: 'Typed data', text: shown.body },
        warnings: shown.warnings,
      },
      show,
      signal,
    )
    return signer.signTypedData({ ...typed, types } as TypedDataDefinition)
  }
  if (method === 'eth_sendTransaction') {
    const tx = (params[0] ?? {}) as Tx
    const from = requireAccount(tx.from)
    // Everything signed is fixed now, before the card: what is shown is what is signed.
    const prepared = await prepareTransaction(tx, from)
    const [balance, changes] = await Promise.all([
      Api.rpc<Hex>(caipOf(prepared.chainId), 'eth_getBalance', [from, 'latest']).then(BigInt),
      simulate(prepared),
    ])
    const content = describeTransaction({
      tx: prepared,
      origin: dappOrigin,
      network: networkOf(prepared.chainId),
      balance,
      changes,
    })
    await approve(id, content, show, signal)
    if (content.blocked) throw new BaseError(content.blocked)
    const signed = await signer.signTransaction({
      type: 'eip1559',
      chainId: prepared.chainId,
      nonce: prepared.nonce,
      gas: prepared.gas,
      maxPriorityFeePerGas: prepared.maxPriorityFeePerGas,
      maxFeePerGas: prepared.maxFeePerGas,
      ...(prepared.to ? { to: prepared.to } : {}),
      value: prepared.value,
      ...(prepared.data ? { data: prepared.data } : {}),
    })
    return Api.rpc<Hex>(caipOf(prepared.chainId), 'eth_sendRawTransaction', [signed])
  }
  throw new UnsupportedMethodError(`${method} is not supported by the embedded wallet yet`)
}

/**
 * Aborts every not-safe request waiting for the user (spec §4: only those abort) with 4001;
 * returns their ids. A network switch calls it too: a waiting request is never re-targeted.
 */
export function abortPending(reason = 'Request was aborted'): string[] {
  const ids = [...pending.keys()]
  for (const controller of pending.values()) controller.abort(new UserRejectedRequestError(reason))
  pending.clear()
  return ids
}

/** Whether a not-safe request waits for the user. */
export function hasPending(): boolean {
  return pending.size > 0
}
