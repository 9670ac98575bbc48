/**
 * Smart sessions (ERC-7715 `wallet_grantPermissions`) as the Porthole smart account enforces
 * them on chain: one session key may call one contract, a set of its functions, move at most a
 * total amount of that token through `transfer` / `approve` / `transferFrom` (to one recipient
 * when asked), until an expiry. This module reads a dapp's request into that shape, refusing what
 * the account could not enforce, and checks calls against a granted session the way the contract
 * does (so the wallet can say why before the chain refuses).
 *
 * Accepted requests (viem's `grantPermissions` format and AppKit's):
 * - `signer`: `{ type: 'account', data: { id: address } }`, `{ type: 'key', data: { id } }`,
 *   `{ type: 'keys', data: { ids: [id] } }` or `{ type: 'keys', data: { keys: [{ type:
 *   'secp256k1', publicKey }] } }`, where an id is an address or an uncompressed secp256k1 public
 *   key; the dapp keeps the key. `{ type: 'wallet' }` is refused.
 * - `permissions`: `erc20-token-transfer` (`data.address`: the token; function `transfer`) and
 *   `contract-call` (`data.address`; `data.calls`: function signatures, or AppKit's
 *   `data.functions: [{ functionName }]` with `data.abi`), all on one contract.
 * - `policies`: `token-allowance` (`data.allowance`, hex or decimal base units: the spend limit),
 *   `recipient` (`data.address`: the only recipient or spender), `gas-limit` (met: session calls
 *   are sponsored). Other policies are refused rather than dropped.
 */
import {
  type Abi,
  type Address,
  decodeFunctionData,
  getAddress,
  type Hex,
  isAddress,
  isHex,
  toFunctionSelector,
} from 'viem'
import { publicKeyToAddress } from 'viem/accounts'
import { simpleAccountAbi } from './simpleAccount.js'

/** The longest a session may last (seconds): one year. */
export const MAX_SESSION_SECONDS = 365 * 24 * 60 * 60

/** Selectors of the ERC-20 functions whose amounts count against the spend limit. */
export const SPENDING_SELECTORS = {
  transfer: '0xa9059cbb',
  approve: '0x095ea7b3',
  transferFrom: '0x23b872dd',
} as const satisfies Record<string, Hex>

/** A session as the account stores it (`grantSession`'s arguments). */
export type SessionTerms = {
  /** The session key's address: also the session's id (pci, lowercase). */
  key: Address
  /** The one contract the key may call. */
  target: Address
  /** The functions of `target` it may call (4-byte selectors, lowercase). */
  selectors: Hex[]
  /** The only recipient / spender of token moves; null: any. */
  recipient: Address | null
  /** The most the token moves add up to over the session (base units). */
  spendLimit: bigint
  /** Unix seconds. */
  validUntil: number
}

/** A parsed `wallet_grantPermissions` request. */
export type SessionGrantRequest = SessionTerms & {
  /** The chain asked for (`chainId`), when the request named one. */
  chainId: number | undefined
  /** The account asked for (`address`), when the request named one. */
  account: Address | undefined
  /** The signer and permissions as the dapp sent them (echoed back as granted). */
  signer: unknown
  permissions: unknown[]
}

/** A refusal with the message a dapp gets (code -32602 in the wallet). */
export class SessionRequestError extends Error {
  override name = 'SessionRequestError'
}

const fail = (message: string): never => {
  throw new SessionRequestError(message)
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(`${what} must be an object`)
  return value as Record<string, unknown>
}

/** An id of a signer: an address, or an uncompressed secp256k1 public key. */
function keyAddress(id: unknown): Address {
  if (typeof id === 'string' && isAddress(id, { strict: false })) return getAddress(id)
  if (typeof id === 'string' && isHex(id) && id.length === 132 && id.startsWith('0x04'))
    return publicKeyToAddress(id)
  return fail(
    'The session key must be an address or an uncompressed secp256k1 public key (0x04…, 65 bytes)',
  )
}

function signerKey(raw: unknown): Address {
  const signer = record(raw, 'signer')
  const data = signer.data === undefined ? {} : record(signer.data, 'signer.data')
  switch (signer.type) {
    case 'account':
    case 'key':
      return keyAddress(data.id ?? data.address ?? data.publicKey)
    case 'keys': {
      if (Array.isArray(data.ids) && data.ids.length) return keyAddress(data.ids[0])
      const keys = Array.isArray(data.keys) ? data.keys : []
      const first = keys.find((k) => (k as { type?: unknown })?.type === 'secp256k1') as
        | { publicKey?: unknown }
        | undefined
      if (first) return keyAddress(first.publicKey)
      return fail('signer.data needs a secp256k1 key')
    }
    case 'wallet':
      return fail(
        "This wallet does not hold session keys: send the dapp's own key (signer type 'account' or 'key')",
      )
    default:
      return fail(`Unsupported signer type ${JSON.stringify(signer.type)}`)
  }
}

/** Base units from a policy: a hex quantity, a decimal string or a non-negative integer. */
function amount(value: unknown, what: string): bigint {
  try {
    if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(value)) return BigInt(value)
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
    if (typeof value === 'bigint' && value >= 0n) return value
  } catch {}
  return fail(`${what} must be an amount in base units (hex or decimal)`)
}

function selectorsOf(type: string, data: Record<string, unknown>): Hex[] {
  if (type === 'erc20-token-transfer') return [SPENDING_SELECTORS.transfer]
  const calls = data.calls
  if (Array.isArray(calls) && calls.length) {
    return calls.map((signature) => {
      if (typeof signature !== 'string') return fail('contract-call calls must be strings')
      if (isHex(signature) && signature.length === 10) return signature.toLowerCase() as Hex
      try {
        return toFunctionSelector(signature.replace(/^function\s+/, '')).toLowerCase() as Hex
      } catch {
        return fail(`Not a function signature: ${signature}`)
      }
    })
  }
  const functions = data.functions
  if (Array.isArray(functions) && functions.length && Array.isArray(data.abi)) {
    const abi = data.abi as Abi
    return functions.map((f) => {
      const name = (f as { functionName?: unknown })?.functionName
      const item = abi.find((i) => i.type === 'function' && i.name === name)
      if (item?.type !== 'function') return fail(`No function ${String(name)} in the abi`)
      return toFunctionSelector(item).toLowerCase() as Hex
    })
  }
  return fail('A contract-call permission needs data.calls (function signatures)')
}

/**
 * Reads a `wallet_grantPermissions` request (its first param) into the session the account would
 * store, or throws {@link SessionRequestError} with the reason.
 *
 * @example
 * const grant = parseGrantPermissions([{ expiry, signer: { type: 'account', data: { id: key } },
 *   permissions: [{ type: 'erc20-token-transfer', data: { address: pUSD, ticker: 'pUSD' },
 *     policies: [{ type: 'token-allowance', data: { allowance: '0x989680' } }] }] }],
 *   Math.floor(Date.now() / 1000))
 */
export function parseGrantPermissions(params: unknown, now: number): SessionGrantRequest {
  const request = record(Array.isArray(params) ? params[0] : params, 'The request')
  const expiry = request.expiry
  if (typeof expiry !== 'number' || !Number.isSafeInteger(expiry))
    fail('expiry must be a unix time in seconds')
  if ((expiry as number) <= now) fail('expiry is in the past')
  if ((expiry as number) > now + MAX_SESSION_SECONDS) fail('A session may last at most one year')
  let chainId: number | undefined
  if (request.chainId !== undefined) {
    const raw = request.chainId
    chainId =
      typeof raw === 'number'
        ? raw
        : typeof raw === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(raw)
          ? Number(BigInt(raw))
          : Number.NaN
    if (!Number.isSafeInteger(chainId) || (chainId as number) <= 0)
      fail('chainId is not a chain id')
  }
  let account: Address | undefined
  if (request.address !== undefined) {
    if (typeof request.address !== 'string' || !isAddress(request.address, { strict: false }))
      fail('address is not an address')
    account = getAddress(request.address as string)
  }
  const key = signerKey(request.signer ?? fail('A session needs a signer: the dapp’s session key'))
  const permissions = request.permissions
  if (!Array.isArray(permissions) || !permissions.length) fail('permissions must be a list')
  let target: Address | undefined
  const selectors = new Set<Hex>()
  let spendLimit = 0n
  let recipient: Address | null = null
  for (const [index, raw] of (permissions as unknown[]).entries()) {
    const permission = record(raw, `permissions[${index}]`)
    const type = permission.type
    if (type !== 'erc20-token-transfer' && type !== 'contract-call')
      fail(
        `Permission type ${JSON.stringify(type)} is not supported (erc20-token-transfer, contract-call)`,
      )
    const data = record(permission.data, `permissions[${index}].data`)
    if (typeof data.address !== 'string' || !isAddress(data.address, { strict: false }))
      fail(`permissions[${index}].data.address must be the contract's address`)
    const contract = getAddress(data.address as string)
    if (target && contract !== target)
      fail('A session covers one contract: ask for one session each')
    target = contract
    for (const selector of selectorsOf(type as string, data)) selectors.add(selector)
    const policies = permission.policies ?? []
    if (!Array.isArray(policies)) fail(`permissions[${index}].policies must be a list`)
    for (const rawPolicy of policies as unknown[]) {
      const policy = record(rawPolicy, 'A policy')
      const policyType =
        typeof policy.type === 'object' && policy.type
          ? (policy.type as { custom?: unknown }).custom
          : policy.type
      const policyData = record(policy.data ?? {}, `The ${String(policyType)} policy's data`)
      if (policyType === 'token-allowance')
        spendLimit += amount(policyData.allowance, 'token-allowance')
      else if (policyType === 'recipient') {
        if (
          typeof policyData.address !== 'string' ||
          !isAddress(policyData.address, { strict: false })
        )
          fail('The recipient policy needs data.address')
        const next = getAddress(policyData.address as string)
        if (recipient && recipient !== next) fail('A session allows one recipient')
        recipient = next
      } else if (policyType === 'gas-limit') {
        // Session calls are sponsored: the account pays no gas, so any limit holds.
      } else fail(`Policy ${JSON.stringify(policyType)} is not supported`)
    }
  }
  return {
    chainId,
    account,
    key,
    target: target as Address,
    selectors: [...selectors],
    recipient,
    spendLimit,
    validUntil: expiry as number,
    signer: request.signer,
    permissions: permissions as unknown[],
  }
}

/** The calls a user operation's callData makes (`execute` or `executeBatch`), or null. */
export function accountCalls(callData: Hex): { to: Address; value: bigint; data: Hex }[] | null {
  try {
    const { functionName, args } = decodeFunctionData({ abi: simpleAccountAbi, data: callData })
    if (functionName === 'execute') {
      const [to, value, data] = args as [Address, bigint, Hex]
      return [{ to, value, data }]
    }
    if (functionName === 'executeBatch') {
      const [to, value, data] = args as [Address[], bigint[], Hex[]]
      if (to.length !== data.length || (value.length && value.length !== to.length)) return null
      return to.map((t, i) => ({ to: t, value: value[i] ?? 0n, data: data[i] as Hex }))
    }
  } catch {}
  return null
}

/** What a session has left: its terms and what it spent so far (base units). */
export type SessionState = SessionTerms & { spent: bigint; active: boolean }

/**
 * Why `calls` fall outside `session` at unix time `now` (the contract's rules), or null when
 * they are within it. `amount` formats base units for the message.
 *
 * @example
 * sessionRefusal(session, [{ to: pUSD, value: 0n, data }], now) // null or 'Over the spend limit …'
 */
export function sessionRefusal(
  session: SessionState,
  calls: readonly { to: Address; value: bigint; data: Hex | undefined }[],
  now: number,
  format: (amount: bigint) => string = String,
): string | null {
  if (!session.active) return 'The session was revoked'
  if (session.validUntil <= now) return 'The session has expired'
  if (!calls.length) return 'No calls'
  let total = 0n
  for (const call of calls) {
    if (call.to.toLowerCase() !== session.target.toLowerCase())
      return `The session may only call ${session.target}`
    if (call.value !== 0n) return 'A session cannot send ETH'
    const data = call.data ?? '0x'
    const selector = data.slice(0, 10).toLowerCase() as Hex
    if (data.length < 10 || !session.selectors.includes(selector))
      return `The session does not allow function ${data.length < 10 ? '(none)' : selector}`
    const spending = Object.values(SPENDING_SELECTORS) as string[]
    if (spending.includes(selector)) {
      const words = data.slice(10)
      const word = (i: number) => BigInt(`0x${words.slice(i * 64, i * 64 + 64) || '0'}`)
      const from3 = selector === SPENDING_SELECTORS.transferFrom
      const to = `0x${(from3 ? word(1) : word(0)).toString(16).padStart(40, '0')}`
      const value = from3 ? word(2) : word(1)
      if (session.recipient && to.toLowerCase() !== session.recipient.toLowerCase())
        return `The session only pays ${session.recipient}`
      total += value
    }
  }
  const left = session.spendLimit - session.spent
  if (total > left)
    return `Over the session's spend limit: ${format(total)} asked, ${format(left > 0n ? left : 0n)} of ${format(session.spendLimit)} left`
  return null
}

/**
 * The message an account signs (EIP-191) to revoke a session.
 *
 * @example
 * revokeSessionMessage('0x7099…79c8') // 'Revoke session 0x7099…79c8'
 */
export function revokeSessionMessage(pci: string): string {
  return `Revoke session ${pci}`
}

/**
 * The message an account signs (EIP-191) to register a session's listing: the key, its expiry
 * and the app it was granted to.
 *
 * @example
 * registerSessionMessage({ pci, expiry: 1800000000, origin: 'https://app.example' })
 * // 'Register session 0x…79c8 until 1800000000 for https://app.example'
 */
export function registerSessionMessage(parameters: {
  pci: string
  expiry: number
  origin?: string | undefined
}): string {
  return `Register session ${parameters.pci} until ${parameters.expiry} for ${parameters.origin ?? '(no origin)'}`
}
