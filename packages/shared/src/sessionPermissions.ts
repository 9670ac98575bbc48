/**
 * Smart sessions (ERC-7715 `wallet_grantPermissions`) as the Porthole smart account enforces
 * them on chain: one session key may call one contract, a set of its functions, move at most a
 * total of that contract's assets through the functions its kind meters (ERC-20 `transfer` /
 * `transferFrom` by amount, ERC-721 transfers by count of NFTs, ERC-1155 `safeTransferFrom` by
 * amount; to one recipient when asked), until an expiry, with gas from one paymaster. This module
 * reads a dapp's request into that shape, refusing what the account could not enforce or the
 * card could not say ({@link checkSessionFunctions}: no function whose power outlives the
 * session, no known asset-moving function the target's kind does not meter), and checks calls
 * against a granted session the way the contract does (so the wallet can say why before the
 * chain refuses).
 *
 * A request is at most {@link MAX_GRANT_REQUEST_BYTES} of JSON and holds only the fields below
 * (anything else is refused, not dropped): what the card shows is all the grant says.
 *
 * Accepted requests (viem's `grantPermissions` format and AppKit's):
 * - `signer`: `{ type: 'account', data: { id: address } }`, `{ type: 'key', data: { id } }`,
 *   `{ type: 'keys', data: { ids: [id] } }` or `{ type: 'keys', data: { keys: [{ type:
 *   'secp256k1', publicKey }] } }`, where an id is an address or an uncompressed secp256k1 public
 *   key; the dapp keeps the key. `{ type: 'wallet' }` is refused.
 * - `permissions`: `erc20-token-transfer` (`data.address`: the token; function `transfer`) and
 *   `contract-call` (`data.address`; `data.calls`: function signatures or selectors, or AppKit's
 *   `data.functions: [{ functionName }]` with `data.abi`), all on one contract, at most
 *   {@link MAX_SESSION_FUNCTIONS} functions; `data.ticker` and `data.justification` are
 *   accepted (and not trusted); `required` and `isAdjustmentAllowed` too.
 * - `policies` (each permission's; a top-level list must be empty): `token-allowance`
 *   (`data.allowance`, hex or decimal base units of the target: the limit; a count for an
 *   ERC-721 collection), `recipient` (`data.address`: the only recipient), `gas-limit` (met:
 *   session calls are sponsored). Other policies are refused rather than dropped.
 */
import {
  type Abi,
  type Address,
  decodeFunctionData,
  getAddress,
  type Hex,
  isAddress,
  isHex,
  parseAbiItem,
  toFunctionSelector,
  toFunctionSignature,
} from 'viem'
import { publicKeyToAddress } from 'viem/accounts'
import { type SESSION_KIND, simpleAccountAbi } from './simpleAccount.js'

/** The longest a session may last (seconds): one year. */
export const MAX_SESSION_SECONDS = 365 * 24 * 60 * 60

/**
 * The largest `wallet_grantPermissions` request (its JSON, in bytes): room for an AppKit request
 * carrying a contract's whole ABI, none for padding.
 */
export const MAX_GRANT_REQUEST_BYTES = 32 * 1024

/** The most functions one session may name. */
export const MAX_SESSION_FUNCTIONS = 16

/** The longest function signature a request may name (characters). */
const MAX_SIGNATURE_LENGTH = 256

/** What a session's target is, by name (the contract's `kind` is {@link SESSION_KIND}'s number). */
export type SessionKindName = keyof typeof SESSION_KIND

/** What a known function does to the account's assets on the target. */
export type KnownFunctionEffect =
  /** Hands someone else a power (allowance, operator, permit, ownership, role) that stays after the session. */
  | 'outlives'
  /** Moves (or destroys) the account's assets. */
  | 'moves'

/** A function of a token standard the wallet and the account know by selector. */
export type KnownFunction = {
  /** The name a card shows, e.g. 'setApprovalForAll'. */
  name: string
  /** Its full signature, e.g. 'setApprovalForAll(address,bool)'. */
  signature: string
  /** The standards that define it, e.g. 'ERC-721, ERC-1155'. */
  standard: string
  effect: KnownFunctionEffect
}

// Selectors written out (a unit test checks each against its signature): no hashing when the
// wallet frame loads.
const known = (selector: Hex, signature: string, standard: string, effect: KnownFunctionEffect) =>
  [
    selector,
    { name: signature.slice(0, signature.indexOf('(')), signature, standard, effect },
  ] as const

/**
 * The functions the account refuses to grant a session unless metered: those whose power
 * outlives the session (`outlives`, never grantable) and those that move assets (`moves`,
 * grantable only where the target's kind meters them). The same lists as the contract's
 * `_outlivesSession` and `_movesAssets`.
 *
 * @example
 * KNOWN_FUNCTIONS['0xa22cb465']?.name // 'setApprovalForAll'
 */
export const KNOWN_FUNCTIONS: Readonly<Record<string, KnownFunction>> = Object.fromEntries([
  known('0x095ea7b3', 'approve(address,uint256)', 'ERC-20, ERC-721', 'outlives'),
  known('0x39509351', 'increaseAllowance(address,uint256)', 'ERC-20', 'outlives'),
  known('0xa22cb465', 'setApprovalForAll(address,bool)', 'ERC-721, ERC-1155', 'outlives'),
  known(
    '0xd505accf',
    'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)',
    'ERC-2612',
    'outlives',
  ),
  known(
    '0x8fcbaf0c',
    'permit(address,address,uint256,uint256,bool,uint8,bytes32,bytes32)',
    'DAI',
    'outlives',
  ),
  known('0x745a41bc', 'permit(address,uint256,uint256,bytes)', 'ERC-4494', 'outlives'),
  known('0x959b8c3f', 'authorizeOperator(address)', 'ERC-777', 'outlives'),
  known('0x558a7297', 'setOperator(address,bool)', 'ERC-6909', 'outlives'),
  known('0x426a8493', 'approve(address,uint256,uint256)', 'ERC-6909', 'outlives'),
  known('0x3177029f', 'approveAndCall(address,uint256)', 'ERC-1363', 'outlives'),
  known('0xcae9ca51', 'approveAndCall(address,uint256,bytes)', 'ERC-1363', 'outlives'),
  known('0x87517c45', 'approve(address,address,uint160,uint48)', 'Permit2', 'outlives'),
  known('0xf2fde38b', 'transferOwnership(address)', 'Ownable', 'outlives'),
  known('0x2f2ff15d', 'grantRole(bytes32,address)', 'AccessControl', 'outlives'),
  known('0xa9059cbb', 'transfer(address,uint256)', 'ERC-20', 'moves'),
  known('0x23b872dd', 'transferFrom(address,address,uint256)', 'ERC-20, ERC-721', 'moves'),
  known('0x42842e0e', 'safeTransferFrom(address,address,uint256)', 'ERC-721', 'moves'),
  known('0xb88d4fde', 'safeTransferFrom(address,address,uint256,bytes)', 'ERC-721', 'moves'),
  known(
    '0xf242432a',
    'safeTransferFrom(address,address,uint256,uint256,bytes)',
    'ERC-1155',
    'moves',
  ),
  known(
    '0x2eb2c2d6',
    'safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)',
    'ERC-1155',
    'moves',
  ),
  known('0x9bd9bbc6', 'send(address,uint256,bytes)', 'ERC-777', 'moves'),
  known('0x62ad1b83', 'operatorSend(address,address,uint256,bytes,bytes)', 'ERC-777', 'moves'),
  known('0x1296ee62', 'transferAndCall(address,uint256)', 'ERC-1363', 'moves'),
  known('0x4000aea0', 'transferAndCall(address,uint256,bytes)', 'ERC-1363', 'moves'),
  known('0xd8fbe994', 'transferFromAndCall(address,address,uint256)', 'ERC-1363', 'moves'),
  known('0xc1d34b89', 'transferFromAndCall(address,address,uint256,bytes)', 'ERC-1363', 'moves'),
  known('0x095bcdb6', 'transfer(address,uint256,uint256)', 'ERC-6909', 'moves'),
  known('0xfe99049a', 'transferFrom(address,address,uint256,uint256)', 'ERC-6909', 'moves'),
  known('0x42966c68', 'burn(uint256)', 'ERC-20, ERC-721', 'moves'),
  known('0x79cc6790', 'burnFrom(address,uint256)', 'ERC-20', 'moves'),
  known('0xfe9d9303', 'burn(uint256,bytes)', 'ERC-777', 'moves'),
  known('0xf5298aca', 'burn(address,uint256,uint256)', 'ERC-1155', 'moves'),
  known('0x6b20c454', 'burnBatch(address,uint256[],uint256[])', 'ERC-1155', 'moves'),
])

/** Selectors of the functions each kind of target meters, and where their words are. */
const METERED: Record<SessionKindName, readonly Hex[]> = {
  other: [],
  erc20: ['0xa9059cbb', '0x23b872dd'],
  erc721: ['0x23b872dd', '0x42842e0e', '0xb88d4fde'],
  erc1155: ['0xf242432a'],
}

/**
 * Whether the account meters `selector` on a target of `kind` (what counts against the limit).
 *
 * @example
 * isMetered('erc721', '0x23b872dd') // true: transferFrom moves one NFT
 */
export function isMetered(kind: SessionKindName, selector: Hex): boolean {
  return METERED[kind].includes(selector.toLowerCase() as Hex)
}

/** A session as the account stores it (`grantSession`'s arguments, its kind aside). */
export type SessionTerms = {
  /** The session key's address: also the session's id (pci, lowercase). */
  key: Address
  /** The one contract the key may call. */
  target: Address
  /** The functions of `target` it may call (4-byte selectors, lowercase). */
  selectors: Hex[]
  /** The only recipient of metered moves; null: any. */
  recipient: Address | null
  /** The most the metered moves add up to over the session (base units; NFTs for ERC-721). */
  spendLimit: bigint
  /** Unix seconds. */
  validUntil: number
}

/** A function a request names: its selector, and the signature the dapp gave for it (if any). */
export type RequestedFunction = { selector: Hex; signature: string | null }

/** A parsed `wallet_grantPermissions` request. */
export type SessionGrantRequest = SessionTerms & {
  /** The chain asked for (`chainId`), when the request named one. */
  chainId: number | undefined
  /** The account asked for (`address`), when the request named one. */
  account: Address | undefined
  /** Each granted function, in the request's order, with the signature the dapp gave. */
  functions: RequestedFunction[]
  /** Whether a permission was `erc20-token-transfer` (the target must then be an ERC-20). */
  erc20Only: boolean
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

/** `value` as an object holding only `allowed` keys (else the request is refused, naming the key). */
function record(
  value: unknown,
  what: string,
  allowed?: readonly string[],
): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(`${what} must be an object`)
  if (allowed)
    for (const key of Object.keys(value as object))
      if (!allowed.includes(key))
        fail(
          `Unknown field ${what}.${key}: a grant may hold only ${allowed.join(', ')} (what is not shown cannot be granted)`,
        )
  return value as Record<string, unknown>
}

/** A short free-text field a dapp may send (not trusted, not shown as a fact). */
function shortText(value: unknown, what: string, max = 256): void {
  if (value !== undefined && (typeof value !== 'string' || value.length > max))
    fail(`${what} must be text of at most ${max} characters`)
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
  const signer = record(raw, 'signer', ['type', 'data'])
  const data =
    signer.data === undefined
      ? {}
      : record(signer.data, 'signer.data', ['id', 'address', 'publicKey', 'ids', 'keys'])
  switch (signer.type) {
    case 'account':
    case 'key':
      return keyAddress(data.id ?? data.address ?? data.publicKey)
    case 'keys': {
      if (Array.isArray(data.ids) && data.ids.length) return keyAddress(data.ids[0])
      const keys = Array.isArray(data.keys) ? data.keys : []
      keys.forEach((k, i) => {
        record(k, `signer.data.keys[${i}]`, ['type', 'publicKey'])
      })
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

function functionsOf(type: string, data: Record<string, unknown>, at: string): RequestedFunction[] {
  if (type === 'erc20-token-transfer')
    return [{ selector: '0xa9059cbb', signature: 'transfer(address,uint256)' }]
  const calls = data.calls
  if (Array.isArray(calls) && calls.length) {
    return calls.map((raw, index) => {
      if (typeof raw !== 'string' || raw.length > MAX_SIGNATURE_LENGTH)
        return fail(
          `${at}.calls[${index}] must be a function signature or selector (at most ${MAX_SIGNATURE_LENGTH} characters)`,
        )
      if (isHex(raw) && raw.length === 10)
        return { selector: raw.toLowerCase() as Hex, signature: null }
      try {
        const item = parseAbiItem(`function ${raw.replace(/^function\s+/, '')}`)
        if (item.type !== 'function') throw new Error('not a function')
        const selector = toFunctionSelector(item).toLowerCase() as Hex
        return { selector, signature: toFunctionSignature(item) }
      } catch {
        return fail(`Not a function signature: ${raw}`)
      }
    })
  }
  const functions = data.functions
  if (Array.isArray(functions) && functions.length && Array.isArray(data.abi)) {
    const abi = data.abi as Abi
    return functions.map((f, index) => {
      const { functionName: name } = record(f, `${at}.functions[${index}]`, ['functionName'])
      const item = abi.find((i) => i.type === 'function' && i.name === name)
      if (item?.type !== 'function') return fail(`No function ${String(name)} in the abi`)
      return {
        selector: toFunctionSelector(item).toLowerCase() as Hex,
        signature: toFunctionSignature(item),
      }
    })
  }
  return fail('A contract-call permission needs data.calls (function signatures)')
}

/** The request as JSON, within {@link MAX_GRANT_REQUEST_BYTES}. */
function checkSize(params: unknown): void {
  let bytes: number
  try {
    bytes = new TextEncoder().encode(JSON.stringify(params) ?? '').length
  } catch {
    throw new SessionRequestError('The request must be JSON')
  }
  if (bytes > MAX_GRANT_REQUEST_BYTES)
    fail(`The request is ${bytes} bytes: a grant may be at most ${MAX_GRANT_REQUEST_BYTES} bytes`)
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
  checkSize(params)
  if (Array.isArray(params) && params.length !== 1)
    fail('wallet_grantPermissions takes one request')
  const request = record(Array.isArray(params) ? params[0] : params, 'request', [
    'expiry',
    'chainId',
    'address',
    'signer',
    'permissions',
    'policies',
    'isAdjustmentAllowed',
  ])
  if (
    request.policies !== undefined &&
    !(Array.isArray(request.policies) && !request.policies.length)
  )
    fail("Top-level policies are not supported: put them in each permission's policies")
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
  const functions = new Map<Hex, RequestedFunction>()
  let spendLimit = 0n
  let recipient: Address | null = null
  let erc20Only = false
  for (const [index, raw] of (permissions as unknown[]).entries()) {
    const at = `permissions[${index}]`
    const permission = record(raw, at, [
      'type',
      'data',
      'policies',
      'required',
      'isAdjustmentAllowed',
    ])
    const type = permission.type
    if (type !== 'erc20-token-transfer' && type !== 'contract-call')
      fail(
        `Permission type ${JSON.stringify(type)} is not supported (erc20-token-transfer, contract-call)`,
      )
    erc20Only ||= type === 'erc20-token-transfer'
    const data = record(
      permission.data,
      `${at}.data`,
      type === 'erc20-token-transfer'
        ? ['address', 'ticker', 'justification']
        : ['address', 'calls', 'functions', 'abi', 'justification'],
    )
    shortText(data.ticker, `${at}.data.ticker`, 32)
    shortText(data.justification, `${at}.data.justification`)
    if (typeof data.address !== 'string' || !isAddress(data.address, { strict: false }))
      fail(`permissions[${index}].data.address must be the contract's address`)
    const contract = getAddress(data.address as string)
    if (target && contract !== target)
      fail('A session covers one contract: ask for one session each')
    target = contract
    for (const requested of functionsOf(type as string, data, at))
      if (!functions.has(requested.selector)) functions.set(requested.selector, requested)
    if (functions.size > MAX_SESSION_FUNCTIONS)
      fail(`A session may name at most ${MAX_SESSION_FUNCTIONS} functions`)
    const policies = permission.policies ?? []
    if (!Array.isArray(policies)) fail(`${at}.policies must be a list`)
    for (const [p, rawPolicy] of (policies as unknown[]).entries()) {
      const policy = record(rawPolicy, `${at}.policies[${p}]`, ['type', 'data'])
      const policyType =
        typeof policy.type === 'object' && policy.type
          ? (policy.type as { custom?: unknown }).custom
          : policy.type
      const policyData = record(
        policy.data ?? {},
        `${at}.policies[${p}].data`,
        policyType === 'token-allowance'
          ? ['allowance']
          : policyType === 'recipient'
            ? ['address']
            : policyType === 'gas-limit'
              ? ['limit']
              : undefined,
      )
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
    selectors: [...functions.keys()],
    functions: [...functions.values()],
    erc20Only,
    recipient,
    spendLimit,
    validUntil: expiry as number,
    signer: request.signer,
    permissions: permissions as unknown[],
  }
}

/** A granted function as the card names it. */
export type SessionFunction = RequestedFunction & {
  /** The known function of that selector, or null when Porthole cannot tell what it does. */
  known: KnownFunction | null
  /** Whether the account meters it (counts it against the limit). */
  metered: boolean
}

/** The kind as the refusals name it. */
const KIND_NAMES: Record<SessionKindName, string> = {
  other: 'a contract that is not an ERC-20 token, ERC-721 or ERC-1155 collection',
  erc20: 'an ERC-20 token',
  erc721: 'an ERC-721 collection',
  erc1155: 'an ERC-1155 collection',
}

/**
 * Checks a parsed grant against what its target is (`kind`, read from the chain) and answers
 * each function as the card names it; throws {@link SessionRequestError} for what a session may
 * not hold: a function whose power outlives the session (approvals, operators, permits,
 * ownership, roles), a known asset-moving function `kind` does not meter, a limit on a target
 * with nothing metered, or `erc20-token-transfer` on something else than an ERC-20.
 *
 * @example
 * checkSessionFunctions(grant, 'erc721') // [{ selector: '0x23b872dd', known: { name: 'transferFrom', … }, metered: true, … }]
 */
export function checkSessionFunctions(
  grant: SessionGrantRequest,
  kind: SessionKindName,
): SessionFunction[] {
  if (grant.erc20Only && kind !== 'erc20')
    fail(`erc20-token-transfer needs an ERC-20 token: ${grant.target} is ${KIND_NAMES[kind]}`)
  const nameOf = (requested: RequestedFunction, knownFunction: KnownFunction | undefined) =>
    knownFunction
      ? `${knownFunction.name} (${requested.selector})`
      : (requested.signature ?? requested.selector)
  // What outlives the session first: it is refused on any target.
  for (const requested of grant.functions) {
    const knownFunction = KNOWN_FUNCTIONS[requested.selector]
    if (knownFunction?.effect === 'outlives')
      fail(
        `A session cannot hold ${nameOf(requested, knownFunction)}: the power it gives someone else would outlive the session's revoke and expiry`,
      )
  }
  const functions = grant.functions.map((requested) => {
    const knownFunction = KNOWN_FUNCTIONS[requested.selector]
    const metered = isMetered(kind, requested.selector)
    if (knownFunction?.effect === 'moves' && !metered)
      fail(
        `A session cannot hold ${nameOf(requested, knownFunction)}: it moves assets, and on ${KIND_NAMES[kind]} the account cannot limit it`,
      )
    return { ...requested, known: knownFunction ?? null, metered }
  })
  if (grant.spendLimit > 0n && !functions.some((f) => f.metered))
    fail(
      `A token-allowance needs a function the account meters: none of these is metered on ${KIND_NAMES[kind]}`,
    )
  return functions
}

/**
 * What the wallet registers with the API for a grant: the signer and one `contract-call`
 * permission as the account holds it (the target, its kind, the functions, the limit and
 * recipient), never the dapp's own JSON. Its size is bounded (at most
 * {@link MAX_SESSION_FUNCTIONS} signatures of {@link MAX_SIGNATURE_LENGTH} characters).
 *
 * @example
 * const { signer, permissions } = sessionRegistration(grant, 'erc20')
 */
export function sessionRegistration(grant: SessionGrantRequest, kind: SessionKindName) {
  return {
    signer: { type: 'account', data: { id: grant.key } },
    permissions: [
      {
        type: 'contract-call',
        data: {
          address: grant.target,
          kind,
          calls: grant.functions.map((f) => f.signature ?? f.selector),
        },
        policies: [
          { type: 'token-allowance', data: { allowance: `0x${grant.spendLimit.toString(16)}` } },
          ...(grant.recipient ? [{ type: 'recipient', data: { address: grant.recipient } }] : []),
        ],
      },
    ],
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

/** What a session has left: its terms, its kind and what it spent so far. */
export type SessionState = SessionTerms & {
  spent: bigint
  active: boolean
  kind: SessionKindName
  /** The only paymaster of its operations. */
  paymaster: Address
}

/**
 * Where a metered call goes and what it moves, read as the account reads it (null when the
 * call's words are missing or `to` is not an address), or `undefined` when `kind` does not
 * meter its selector.
 *
 * @example
 * meteredMove('erc721', transferFromData) // { to: '0x…', amount: 1n }
 */
export function meteredMove(
  kind: SessionKindName,
  data: Hex,
): { to: Address; amount: bigint } | null | undefined {
  const selector = data.slice(0, 10).toLowerCase() as Hex
  if (!isMetered(kind, selector)) return undefined
  const word = (at: number): bigint | null => {
    const hex = data.slice(2 + at * 2, 2 + at * 2 + 64)
    return hex.length === 64 ? BigInt(`0x${hex}`) : null
  }
  const toAt = selector === '0xa9059cbb' ? 4 : 36
  const to = word(toAt)
  if (to === null || to >> 160n !== 0n) return null
  const amount =
    kind === 'erc721' ? (word(68) === null ? null : 1n) : word(kind === 'erc1155' ? 100 : toAt + 32)
  if (amount === null) return null
  return { to: getAddress(`0x${to.toString(16).padStart(40, '0')}`), amount }
}

/**
 * Why `calls` fall outside `session` at unix time `now` (the contract's rules), or null when
 * they are within it. `format` writes what the session meters (token units, NFTs) for the message.
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
    const move = meteredMove(session.kind, data)
    if (move === null) return `The call to ${selector} is malformed`
    if (move) {
      if (session.recipient && move.to.toLowerCase() !== session.recipient.toLowerCase())
        return `The session only pays ${session.recipient}`
      total += move.amount
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
