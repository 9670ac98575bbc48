/**
 * EIP-1193 requests for the embedded wallet (spec §6): safe read-only methods go to the chain
 * through the API's RPC proxy; not-safe methods wait for the user's approval in this frame,
 * then the signer Worker signs; anything else is 'Requested RPC call is not allowed'.
 *
 * This module is in the frame's first download and answers without more code what needs none
 * (the chain id, safe methods, a signed-out `eth_accounts`, refusals); the requests that act as
 * the user's account load `accountRpc.ts` (smart accounts, cards' descriptions, permits,
 * EIP-5792, smart sessions), Solana requests `solanaRpc.ts`, on the first one.
 */
import {
  MethodNotFoundError,
  NOT_SAFE_METHODS,
  RPC_NOT_ALLOWED,
  SAFE_METHODS,
  UnsupportedMethodError,
  UserRejectedRequestError,
} from '@porthole/protocol'
import * as Api from './api.js'
import { type ApprovalContent, assertApprovalRoom, requestApproval } from './approval.js'
import { loadAccountRpc } from './deferred.js'
import type { NetworkInfo } from './describe.js'
import * as Session from './session.js'
import { signer } from './signer.js'

/** Not-safe requests waiting for the user, by id (for `rpcAbort` and network switches). */
const pending = new Map<string, AbortController>()
let origin = ''
const networks = new Map<number, NetworkInfo>()

/** Records the host page's origin (as the modal's handshake verified it), shown on cards. */
export function setDappOrigin(value: string | undefined): void {
  try {
    origin = value ? new URL(value).origin : ''
  } catch {
    origin = ''
  }
}

/**
 * The host page's origin (as the modal's handshake verified it), shown on cards.
 *
 * @example
 * dappOrigin() // 'https://app.example'
 */
export function dappOrigin(): string {
  return origin
}

/**
 * Records the configured networks' names and native currencies, shown on cards. An EVM chain's
 * native amounts are wei whatever the host's `networks` option says: a host that called ETH a
 * 36-decimal currency made 1 ETH read 0.000000000000000001 ETH on the card (issue 25).
 */
export function setNetworks(list: readonly ({ chainId: number } & NetworkInfo)[]): void {
  networks.clear()
  for (const { chainId, ...info } of list) networks.set(chainId, { ...info, decimals: 18 })
}

/**
 * A network's name and native currency as the host configured them (else `Chain <id>`, ETH).
 *
 * @example
 * networkOf(1).symbol // 'ETH'
 */
export const networkOf = (chainId: number): NetworkInfo =>
  networks.get(chainId) ?? { name: `Chain ${chainId}`, symbol: 'ETH', decimals: 18 }

/**
 * The chain ids the host configured.
 *
 * @example
 * configuredChainIds() // [1, 8453]
 */
export function configuredChainIds(): number[] {
  return [...networks.keys()]
}

const caipOf = (chainId: number) => `eip155:${chainId}`

/** How a request shows the frame, and says the card was answered (the frame may hide). */
export type CardUi = { show: () => void; answered?: (() => void) | undefined }

/**
 * Shows a card and resolves with the user's answer; aborts with 4001.
 *
 * @example
 * if (await answer(id, content, ui, signal)) send()
 */
export async function answer(
  id: string,
  content: ApprovalContent,
  ui: CardUi,
  signal?: AbortSignal,
): Promise<boolean> {
  // A full queue refuses before the wallet's UI is asked to show.
  assertApprovalRoom()
  const controller = new AbortController()
  signal?.addEventListener(
    'abort',
    () => controller.abort(new UserRejectedRequestError('Request was aborted')),
    { once: true },
  )
  pending.set(id, controller)
  ui.show()
  try {
    return await requestApproval(content, controller.signal)
  } finally {
    pending.delete(id)
    ui.answered?.()
  }
}

/**
 * Shows a card and resolves once the user approved it; rejects with 4001 otherwise.
 *
 * @example
 * await approve(id, content, ui, signal)
 */
export async function approve(
  id: string,
  content: ApprovalContent,
  ui: CardUi,
  signal?: AbortSignal,
): Promise<void> {
  if (!(await answer(id, content, ui, signal)))
    throw new UserRejectedRequestError('User rejected the request.')
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
      origin,
      approve: (content) =>
        approve(request.id, content, { show: () => onApproval(request.method) }, signal),
      signMessage: (message) => signer.signSolanaMessage(message),
      signTransaction: (messageBytes) => signer.signSolanaTransaction(messageBytes),
      rpc: Api.rpc,
    },
  )
}

/** Account methods the safe list names that `accountRpc.ts` answers (batches, capabilities). */
const ACCOUNT_SAFE_METHODS = [
  'wallet_getCapabilities',
  'wallet_getCallsStatus',
  'wallet_showCallsStatus',
]

/**
 * Runs one request. `onApproval` is called when the frame must be shown, `onAnswered` once the
 * user answered its card (the frame may hide while the request finishes, e.g. waits for a
 * user operation's receipt).
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
  onAnswered?: () => void,
): Promise<unknown> {
  const { method } = request
  if (request.namespace === 'solana') return solanaRequest(request, onApproval, signal)
  if (method.startsWith('solana_'))
    throw new UnsupportedMethodError(`${method} needs the request's namespace 'solana'`)
  const accounts = method === 'eth_accounts' || method === 'eth_requestAccounts'
  if (accounts && !Session.address()) return []
  if (method === 'eth_chainId') return `0x${Session.chainId().toString(16)}`
  const account =
    accounts ||
    ACCOUNT_SAFE_METHODS.includes(method) ||
    method === 'wallet_prepareCalls' ||
    method === 'wallet_sendPreparedCalls'
  if (!account && SAFE_METHODS.includes(method)) {
    const params = Array.isArray(request.params) ? request.params : [request.params]
    return Api.rpc(caipOf(Session.chainId()), method, params)
  }
  if (!account && !NOT_SAFE_METHODS.includes(method)) throw new MethodNotFoundError(RPC_NOT_ALLOWED)
  const { handleAccountRpc } = await loadAccountRpc()
  return handleAccountRpc(request, { show: () => onApproval(method), answered: onAnswered }, signal)
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
