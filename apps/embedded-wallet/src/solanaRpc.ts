/**
 * The embedded wallet's Solana requests: WalletConnect's Solana JSON-RPC methods, with its
 * parameter and result shapes. Loaded on the first Solana request only (none of it is in the
 * frame's first load). Signing methods are not safe (spec §6): each waits for the user's approval
 * on the frame's own card, which shows what the request's bytes say; exactly those bytes are then
 * signed by the signer Worker. Only the wallet's own Solana key signs, and only transactions it
 * pays for.
 */
import {
  InvalidParamsError,
  MethodNotFoundError,
  RPC_NOT_ALLOWED,
  UnauthorizedError,
} from '@porthole/protocol'
import { base58, base64 } from '@scure/base'
import { type ApprovalContent, foreignSignInDomain, foreignSignInMessage } from './describe.js'
import {
  ADDRESS_LOOKUP_TABLE_PROGRAM,
  describeSolanaMessage,
  describeSolanaTransactions,
  solanaMessageText,
  solanaNetworkOf,
  summarizeTransaction,
} from './solanaDescribe.js'
import { FEE_PAYER_NOT_WALLET } from './solanaSign.js'
import { decodeTransaction, encodeTransaction, type Transaction } from './solanaWire.js'

/** What a Solana request needs from the frame. */
export type SolanaRpcContext = {
  /** The wallet's Solana address, or null when signed out. */
  address: string | null
  /** The host page's origin as the modal's handshake verified it. */
  origin: string
  /** Shows the card; resolves on Approve, rejects with 4001 on Reject or abort. */
  approve(content: ApprovalContent): Promise<void>
  /** The signer Worker's ed25519 signatures. */
  signMessage(message: Uint8Array): Promise<Uint8Array>
  signTransaction(messageBytes: Uint8Array): Promise<Uint8Array>
  /** A JSON-RPC call to the network through the API's RPC proxy. */
  rpc<T>(caipNetworkId: string, method: string, params: unknown[]): Promise<T>
}

/** A Solana request as the modal sends it. */
export type SolanaRpcRequest = { method: string; params: unknown; chainId?: number | string }

/** Longest base58 message accepted (base58 decoding is quadratic; messages are short). */
const MAX_MESSAGE_CHARS = 8192
/** Most transactions in one `solana_signAllTransactions`. */
const MAX_TRANSACTIONS = 32
/** Size of an address lookup table's header before its addresses. */
const LOOKUP_TABLE_META_SIZE = 56

/** The request's params object (WalletConnect sends one; an array holding one is accepted). */
function paramsOf(params: unknown): Record<string, unknown> {
  const value = Array.isArray(params) ? params[0] : params
  if (value === undefined) return {}
  if (typeof value !== 'object' || value === null) throw new InvalidParamsError('Invalid params')
  return value as Record<string, unknown>
}

function requireAccount(context: SolanaRpcContext, claimed?: unknown): string {
  if (!context.address) throw new UnauthorizedError('Not connected to email or social')
  if (claimed != null && claimed !== context.address)
    throw new UnauthorizedError('The requested account is not this wallet')
  return context.address
}

/** The network's CAIP-2 reference, from a reference or a whole `solana:` id. */
function referenceOf(chainId: SolanaRpcRequest['chainId']): string {
  const reference = typeof chainId === 'string' ? chainId.replace(/^solana:/, '') : undefined
  if (!reference || !/^[1-9A-HJ-NP-Za-km-z]{1,32}$/.test(reference))
    throw new InvalidParamsError("A Solana request needs the network's CAIP-2 reference as chainId")
  return reference
}

function decodeBase58(text: unknown, what: string): Uint8Array {
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_MESSAGE_CHARS)
    throw new InvalidParamsError(`Invalid ${what}: base58 expected`)
  try {
    return base58.decode(text)
  } catch {
    throw new InvalidParamsError(`Invalid ${what}: base58 expected`)
  }
}

/** A transaction of the request (base64 wire bytes), which this wallet must pay for. */
function transactionOf(text: unknown, address: string): Transaction {
  let bytes: Uint8Array
  try {
    if (typeof text !== 'string' || text.length > 4096) throw new Error('not a string')
    bytes = base64.decode(text)
  } catch {
    throw new InvalidParamsError('Invalid transaction: base64 wire format expected')
  }
  const tx = decodeTransaction(bytes)
  const feePayer = tx.message.staticAccountKeys[0] as Uint8Array
  if (base58.encode(feePayer) !== address) throw new InvalidParamsError(FEE_PAYER_NOT_WALLET)
  return tx
}

/**
 * The addresses of the lookup tables the transactions use, read from the network; a table that
 * cannot be read is left out (the card then says so).
 */
async function readLookupTables(
  context: SolanaRpcContext,
  caipNetworkId: string,
  txs: readonly Transaction[],
): Promise<Map<string, string[]>> {
  const keys = new Set(
    txs.flatMap((tx) => tx.message.addressTableLookups.map((l) => base58.encode(l.accountKey))),
  )
  const tables = new Map<string, string[]>()
  await Promise.all(
    [...keys].map(async (key) => {
      try {
        const { value } = await context.rpc<{
          value: { owner: string; data: [string, string] } | null
        }>(caipNetworkId, 'getAccountInfo', [key, { encoding: 'base64' }])
        if (value?.owner !== ADDRESS_LOOKUP_TABLE_PROGRAM) return
        const data = base64.decode(value.data[0])
        const addresses: string[] = []
        for (let at = LOOKUP_TABLE_META_SIZE; at + 32 <= data.length; at += 32)
          addresses.push(base58.encode(data.subarray(at, at + 32)))
        tables.set(key, addresses)
      } catch {}
    }),
  )
  return tables
}

/** Shows one card for the transactions, then has the Worker sign each; returns them signed. */
async function approveAndSign(
  context: SolanaRpcContext,
  chainId: SolanaRpcRequest['chainId'],
  txs: Transaction[],
  send: boolean,
): Promise<{ caipNetworkId: string; signed: { signature: Uint8Array; bytes: Uint8Array }[] }> {
  const network = solanaNetworkOf(referenceOf(chainId))
  const tables = await readLookupTables(context, network.caipNetworkId, txs)
  await context.approve(
    describeSolanaTransactions({
      send,
      origin: context.origin,
      network,
      summaries: txs.map((tx) => summarizeTransaction(tx.message, tables)),
    }),
  )
  const signed = []
  for (const tx of txs) {
    const signature = await context.signTransaction(tx.messageBytes)
    // The fee payer signs first: its slot is the first.
    const signatures = [signature, ...tx.signatures.slice(1)]
    signed.push({ signature, bytes: encodeTransaction({ ...tx, signatures }) })
  }
  return { caipNetworkId: network.caipNetworkId, signed }
}

/**
 * The preflight commitments a caller may name (spec: processed, confirmed, finalized, recent,
 * single, singleGossip, root, max), each as the level sent to the network: current Solana RPC
 * nodes know only the first three, so the old names go as the level they always meant.
 */
export const PREFLIGHT_COMMITMENTS: Readonly<
  Record<string, 'processed' | 'confirmed' | 'finalized'>
> = {
  processed: 'processed',
  confirmed: 'confirmed',
  finalized: 'finalized',
  recent: 'processed',
  single: 'confirmed',
  singleGossip: 'confirmed',
  root: 'finalized',
  max: 'finalized',
}

/** web3.js `SendOptions`, as `sendTransaction` takes them. */
function sendOptionsOf(value: unknown): Record<string, unknown> {
  if (value === undefined) return {}
  if (typeof value !== 'object' || value === null)
    throw new InvalidParamsError('Invalid sendOptions')
  const options = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  if (typeof options.skipPreflight === 'boolean') out.skipPreflight = options.skipPreflight
  const commitment = options.preflightCommitment
  if (commitment !== undefined) {
    const level = typeof commitment === 'string' ? PREFLIGHT_COMMITMENTS[commitment] : undefined
    if (!level || !Object.hasOwn(PREFLIGHT_COMMITMENTS, commitment as string))
      throw new InvalidParamsError(
        `Invalid preflightCommitment: one of ${Object.keys(PREFLIGHT_COMMITMENTS).join(', ')}`,
      )
    out.preflightCommitment = level
  }
  for (const name of ['maxRetries', 'minContextSlot'] as const)
    if (Number.isSafeInteger(options[name]) && (options[name] as number) >= 0)
      out[name] = options[name]
  return out
}

/**
 * Runs one Solana request: `solana_getAccounts` / `solana_requestAccounts` → `[{ pubkey }]`;
 * `solana_signMessage { message, pubkey }` → `{ signature }`; `solana_signTransaction
 * { transaction }` → `{ signature, transaction }`; `solana_signAllTransactions { transactions }`
 * → `{ transactions }`; `solana_signAndSendTransaction { transaction, sendOptions? }` →
 * `{ signature }` (sent through the API's RPC proxy). Messages and signatures are base58,
 * transactions base64 wire format (legacy or version 0).
 *
 * @example
 * await handleSolanaRpc({ method: 'solana_signMessage', params: { message, pubkey } }, context)
 */
export async function handleSolanaRpc(
  request: SolanaRpcRequest,
  context: SolanaRpcContext,
): Promise<unknown> {
  const { method } = request
  if (method === 'solana_getAccounts') return context.address ? [{ pubkey: context.address }] : []
  if (method === 'solana_requestAccounts') return [{ pubkey: requireAccount(context) }]

  const params = paramsOf(request.params)
  if (method === 'solana_signMessage') {
    const account = requireAccount(context, params.pubkey)
    const message = decodeBase58(params.message, 'message')
    // A sign-in message for another site signs the user in there for whoever asked (issue 25).
    const domain = foreignSignInDomain(solanaMessageText(message), context.origin)
    if (domain !== null) throw new UnauthorizedError(foreignSignInMessage(domain, context.origin))
    await context.approve(describeSolanaMessage({ message, account, origin: context.origin }))
    return { signature: base58.encode(await context.signMessage(message)) }
  }
  if (method === 'solana_signTransaction' || method === 'solana_signAndSendTransaction') {
    const account = requireAccount(context, params.pubkey)
    const send = method === 'solana_signAndSendTransaction'
    const sendOptions = send ? sendOptionsOf(params.sendOptions) : {}
    const tx = transactionOf(params.transaction, account)
    const { caipNetworkId, signed } = await approveAndSign(context, request.chainId, [tx], send)
    const [{ signature, bytes }] = signed as [(typeof signed)[number]]
    if (!send) return { signature: base58.encode(signature), transaction: base64.encode(bytes) }
    await context.rpc<string>(caipNetworkId, 'sendTransaction', [
      base64.encode(bytes),
      { ...sendOptions, encoding: 'base64' },
    ])
    // A transaction's id is its first signature: the wallet's.
    return { signature: base58.encode(signature) }
  }
  if (method === 'solana_signAllTransactions') {
    const account = requireAccount(context, params.pubkey)
    const list = params.transactions
    if (!Array.isArray(list) || list.length === 0 || list.length > MAX_TRANSACTIONS)
      throw new InvalidParamsError(`Invalid transactions: 1 to ${MAX_TRANSACTIONS} expected`)
    const txs = list.map((text) => transactionOf(text, account))
    const { signed } = await approveAndSign(context, request.chainId, txs, false)
    return { transactions: signed.map(({ bytes }) => base64.encode(bytes)) }
  }
  throw new MethodNotFoundError(RPC_NOT_ALLOWED)
}
