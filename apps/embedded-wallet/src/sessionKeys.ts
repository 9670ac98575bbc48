/**
 * Smart sessions (ERC-7715) of the embedded smart account. A dapp asks for a session key with
 * permissions (`wallet_grantPermissions`): the wallet refuses what a session may not hold (see
 * `checkSessionFunctions`: powers that outlive the session, unmetered asset moves, unknown or
 * oversized request fields) before any card, reads what the target is from the chain, and the
 * card names every function and the true limit (token units, NFTs, or "not metered"). On
 * approval the session is first listed with the API (the Account view's list, the user's place
 * to revoke it) and only then installed by the owner's user operation (`grantSession`, bound to
 * the paymaster chosen now), where the account's validation enforces it for every operation the
 * key signs. The dapp keeps the key: it has the wallet build an operation (`wallet_prepareCalls`),
 * signs the returned hash with its key, and hands the signature back (`wallet_sendPreparedCalls`):
 * no card, no owner signature, and the chain refuses anything outside the permissions.
 * `wallet_revokePermissions` removes a session on chain: without a card only for the site it was
 * granted to (and gas sponsored); any other session's revoke asks the user.
 */
import { BaseError, InvalidParamsError, ProviderRpcError } from '@porthole/protocol'
import {
  accountCalls,
  checkSessionFunctions,
  parseGrantPermissions,
  registerSessionMessage,
  revokeSessionMessage,
  type SessionFunction,
  type SessionKindName,
  SessionRequestError,
  type SessionState,
  sessionRefusal,
  sessionRegistration,
} from '@porthole/shared/sessionPermissions'
import {
  encodeSessionSignature,
  portholeSessionsAbi,
  SESSION_KIND,
  sessionNonceKey,
} from '@porthole/shared/simpleAccount'
import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  formatUnits,
  getAddress,
  type Hex,
  isAddress,
  isAddressEqual,
  isHex,
  numberToHex,
  recoverMessageAddress,
  zeroAddress,
} from 'viem'
import {
  entryPoint07Address,
  formatUserOperationRequest,
  getUserOperationHash,
  type UserOperation,
} from 'viem/account-abstraction'
import * as Api from './api.js'
import type { ApprovalContent, ApprovalField } from './approval.js'
import { formatValue, networkField } from './describe.js'
import { locale, plural, t } from './i18n/en.js'
import * as Session from './session.js'
import { readSessionTarget, type SessionTarget } from './sessionTarget.js'
import * as SmartAccount from './smartAccount.js'
import type { WalletCall } from './walletCalls.js'

/** What the session methods need from the request handler. */
export type SessionHost = {
  /** Shows the card and resolves once approved (rejects with 4001 otherwise). */
  approve(content: ApprovalContent): Promise<void>
  /** The dapp's origin, as the modal verified it. */
  origin: string
  /** A network's name and native currency. */
  network(chainId: number): { name: string; symbol: string; decimals: number }
  /** A token's symbol and decimals. */
  tokenUnit(chain: string, token: Hex): Promise<{ symbol: string; decimals: number }>
}

/** The kind names by the contract's numbers. */
const KIND_NAMES = Object.fromEntries(
  Object.entries(SESSION_KIND).map(([name, value]) => [value, name]),
) as Record<number, SessionKindName>

/** The type of a prepared user operation in `wallet_prepareCalls` answers. */
export const PREPARED_TYPE = 'user-operation-v07'

const caipOf = (chainId: number) => `eip155:${chainId}`
const now = () => Math.floor(Date.now() / 1000)

/** The smart account that acts, or a refusal: sessions live on smart accounts only. */
async function sessionAccount(claimed?: Address): Promise<Address> {
  if (!Session.address()) throw new ProviderRpcError(4100, 'Not connected to email or social')
  const account = await SmartAccount.activeAccount()
  if (account.type !== 'smartAccount')
    throw new ProviderRpcError(
      4200,
      'Smart sessions need the smart account: switch the account type to Smart account',
    )
  if (claimed && !isAddressEqual(claimed, account.address))
    throw new ProviderRpcError(4100, 'The requested account is not this wallet')
  return account.address
}

/** The pci (permissions context) of a request: the session key's address. */
function contextKey(context: unknown): Address {
  if (typeof context !== 'string' || !isAddress(context, { strict: false }))
    throw new InvalidParamsError(
      'The permissions context must be the one wallet_grantPermissions answered',
    )
  return getAddress(context)
}

/**
 * The session of `key` on the account as the chain holds it now.
 *
 * @example
 * const session = await readSession(31337, account, key)
 */
export async function readSession(
  chainId: number,
  account: Address,
  key: Address,
): Promise<SessionState> {
  const call = async (functionName: 'sessions' | 'sessionSelectors') =>
    decodeFunctionResult({
      abi: portholeSessionsAbi,
      functionName,
      data: await Api.rpc<Hex>(caipOf(chainId), 'eth_call', [
        {
          to: account,
          data: encodeFunctionData({ abi: portholeSessionsAbi, functionName, args: [key] }),
        },
        'latest',
      ]),
    })
  const code = await Api.rpc<Hex | null>(caipOf(chainId), 'eth_getCode', [account, 'latest'])
  if (!code || code === '0x')
    return {
      key,
      target: zeroAddress,
      selectors: [],
      recipient: null,
      spendLimit: 0n,
      spent: 0n,
      validUntil: 0,
      active: false,
      kind: 'other',
      paymaster: zeroAddress,
    }
  const [terms, selectors] = await Promise.all([call('sessions'), call('sessionSelectors')])
  const [target, recipient, spendLimit, spent, , validUntil, active, kind, paymaster] =
    terms as readonly [Address, Address, bigint, bigint, number, number, boolean, number, Address]
  return {
    key,
    target,
    selectors: (selectors as readonly Hex[]).map((s) => s.toLowerCase() as Hex),
    recipient: recipient === zeroAddress ? null : recipient,
    spendLimit,
    spent,
    validUntil: Number(validUntil),
    active,
    kind: KIND_NAMES[kind] ?? 'other',
    paymaster,
  }
}

/** "in 1 hour", "in 3 days": how far away an expiry is, in the card's locale. */
function fromNow(seconds: number): string {
  const units: [number, Intl.RelativeTimeFormatUnit][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ]
  const format = new Intl.RelativeTimeFormat(locale(), { numeric: 'always' })
  for (const [size, name] of units) {
    const count = Math.round(seconds / size)
    if (count >= 1) return format.format(count, name)
  }
  return t('underAMinute')
}

/** "You pay the gas (at most 0.0004 ETH)". */
function youPayGas(maxFee: bigint, network: { symbol: string; decimals: number }): string {
  return t('youPayGasAtMost', { amount: formatValue(maxFee, network) })
}

/** An expiry as a UTC date and time in the card's locale, e.g. 'Nov 25, 2026, 05:00 UTC'. */
function utcDate(seconds: number): string {
  return new Intl.DateTimeFormat(locale(), {
    dateStyle: 'medium',
    timeStyle: 'long',
    timeZone: 'UTC',
  }).format(seconds * 1000)
}

/** What the limit of a session of `kind` counts, as cards and refusals write it. */
function limitFormat(
  kind: SessionKindName,
  unit: { symbol: string; decimals: number } | null,
): (value: bigint) => string {
  if (kind === 'erc721') return (value) => plural(Number(value), 'nftsOne', 'nftsOther')
  if (kind === 'erc1155') return (value) => plural(Number(value), 'itemsOne', 'itemsOther')
  return (value) => (unit ? formatValue(value, unit) : t('baseUnits', { value: value.toString() }))
}

/** A granted function's card line: its name and what it does, or loudly that nobody can tell. */
function functionLine(fn: SessionFunction, kind: SessionKindName): string {
  if (!fn.known)
    return t('fnUnknown', {
      name: fn.signature ? `${fn.signature} (${fn.selector})` : fn.selector,
    })
  const name = fn.known.name
  // Only metered functions get past checkSessionFunctions among the known ones.
  if (kind === 'erc721') return t('fnMovesNft', { name })
  if (kind === 'erc1155') return t('fnMovesItems', { name })
  return t('fnMovesTokens', { name })
}

/** The card's contract line: what the chain says the target is, and its address. */
function contractLine(target: SessionTarget, address: Address): string {
  const name = target.unit?.symbol ?? target.name ?? t('unnamed')
  const kind =
    target.kind === 'erc20'
      ? t('kindErc20', { name })
      : target.kind === 'erc721'
        ? t('kindErc721', { name })
        : target.kind === 'erc1155'
          ? t('kindErc1155', { name })
          : t('kindOther')
  return `${kind} · ${address}`
}

/**
 * The paymaster that will carry the session key's operations: the project's, as its paymaster
 * names itself for this account now (ERC-7677 stub data, which signs and counts nothing). The
 * account refuses the key's operations through any other.
 */
async function sessionPaymaster(chainId: number, account: Address): Promise<Address> {
  try {
    // The paymaster answers only for an account of the project at its next nonce (and, before
    // its first operation, with the deployment that names its owner).
    const smart = await SmartAccount.smartAccount(chainId)
    const [nonce, deployed] = await Promise.all([
      smart.getNonce(),
      SmartAccount.isDeployed(chainId),
    ])
    const deployment = deployed ? {} : await smart.getFactoryArgs()
    const { paymaster } = await Api.rpc<{ paymaster?: unknown }>(
      caipOf(chainId),
      'pm_getPaymasterStubData',
      [
        { sender: account, nonce: numberToHex(nonce), callData: '0x', ...deployment },
        entryPoint07Address,
        `0x${chainId.toString(16)}`,
        {},
      ],
    )
    if (typeof paymaster !== 'string' || !isAddress(paymaster, { strict: false }))
      throw new BaseError('The paymaster named no paymaster')
    return getAddress(paymaster)
  } catch (error) {
    throw new ProviderRpcError(
      4200,
      `Session calls need gas sponsorship, which is unavailable: ${(error as Error).message}`,
    )
  }
}

/**
 * `wallet_grantPermissions`: refuses what a session may not hold (before any card), shows what
 * the dapp asks for as the chain will enforce it, lists the session with the API, then installs
 * it on the account (the owner's user operation, waited for). A session the API could not list
 * is not installed and not granted.
 *
 * @example
 * await grantPermissions(params, host)
 */
export async function grantPermissions(params: unknown, host: SessionHost) {
  let grant: ReturnType<typeof parseGrantPermissions>
  try {
    grant = parseGrantPermissions(params, now())
  } catch (error) {
    if (error instanceof SessionRequestError) throw new InvalidParamsError(error.message)
    throw error
  }
  const chainId = Session.chainId()
  if (grant.chainId !== undefined && grant.chainId !== chainId)
    throw new ProviderRpcError(4901, `The wallet is on chain ${chainId}, not ${grant.chainId}`)
  const account = await sessionAccount(grant.account)
  const owner = Session.address()
  if (isAddressEqual(grant.key, account) || (owner && isAddressEqual(grant.key, owner as Address)))
    throw new InvalidParamsError('The session key must be a key of the dapp')
  const target = await readSessionTarget(chainId, grant.target)
  let functions: SessionFunction[]
  try {
    functions = checkSessionFunctions(grant, target.kind)
  } catch (error) {
    if (error instanceof SessionRequestError) throw new InvalidParamsError(error.message)
    throw error
  }
  const paymaster = await sessionPaymaster(chainId, account)
  const limit = limitFormat(target.kind, target.unit)
  const call: WalletCall = {
    to: account,
    value: 0n,
    data: encodeFunctionData({
      abi: portholeSessionsAbi,
      functionName: 'grantSession',
      args: [
        grant.key,
        grant.target,
        grant.selectors,
        grant.recipient ?? zeroAddress,
        grant.spendLimit,
        0,
        grant.validUntil,
        SESSION_KIND[target.kind],
        paymaster,
      ],
    }),
  }
  const prepared = await SmartAccount.prepareCalls(chainId, [call])
  const network = host.network(chainId)
  const metered = functions.some((fn) => fn.metered)
  const unknown = functions.filter((fn) => !fn.known)
  const fields: ApprovalField[] = [
    networkField(network.name, chainId),
    { label: t('account'), value: account, mono: true },
    { label: t('sessionKey'), value: grant.key, mono: true },
    { label: t('contract'), value: contractLine(target, grant.target) },
    ...functions.map((fn, index) => ({
      label: functions.length > 1 ? t('functionNumbered', { index: index + 1 }) : t('functionOne'),
      value: functionLine(fn, target.kind),
    })),
    {
      label: t('spendLimit'),
      value: metered ? limit(grant.spendLimit) : t('notMetered'),
    },
    ...(metered
      ? [
          {
            label: t('recipient'),
            value: grant.recipient ?? t('anyAddress'),
            mono: !!grant.recipient,
          },
        ]
      : []),
    {
      label: t('expires'),
      value: `${utcDate(grant.validUntil)} (${fromNow(grant.validUntil - now())})`,
    },
    prepared.gas.sponsored
      ? { label: t('gas'), value: t('gasPaidBy', { sponsor: prepared.gas.sponsor }) }
      : { label: t('gas'), value: youPayGas(prepared.gas.maxFee, network) },
    { label: t('sessionGas'), value: paymaster, mono: true },
  ]
  const warnings = [t('sessionWarning')]
  if (unknown.length)
    warnings.push(
      t('unknownFunctionsWarning', {
        functions: unknown.map((fn) => fn.signature ?? fn.selector).join(', '),
      }),
    )
  if (metered && !grant.recipient && grant.spendLimit > 0n)
    warnings.push(t('anyRecipient', { amount: limit(grant.spendLimit) }))
  await host.approve({
    title: t('grantPermissions'),
    origin: host.origin,
    fields,
    warnings,
  })
  const pci = grant.key.toLowerCase()
  // Listed first: a session installed on chain is always one the Account view can show and
  // revoke. If listing fails, nothing is installed.
  const origin = host.origin || undefined
  try {
    const signature = await SmartAccount.signMessage(
      chainId,
      registerSessionMessage({ pci, expiry: grant.validUntil, origin }),
    )
    await Api.v1('POST', `/sessions/${caipOf(chainId)}:${account}`, {
      pci,
      ...sessionRegistration(grant, target.kind),
      policies: [],
      expiry: grant.validUntil,
      ...(origin ? { origin } : {}),
      signature,
    })
  } catch (error) {
    throw new BaseError(
      'The session was not granted: the wallet could not list it in your account, so nothing was installed',
      { cause: error, details: (error as Error).message },
    )
  }
  const hash = await SmartAccount.submit(prepared)
  const receipt = await SmartAccount.waitForReceipt(chainId, hash)
  if (!receipt.success)
    throw new BaseError('The session was not granted: installing it reverted on chain', {
      details: receipt.receipt.transactionHash,
    })
  return {
    chainId: `0x${chainId.toString(16)}`,
    address: account,
    expiry: grant.validUntil,
    signer: grant.signer,
    permissions: grant.permissions,
    grantedPermissions: grant.permissions,
    permissionsContext: pci,
    signerData: { submitToAddress: account },
  }
}

/** The first param of a request, as an object. */
function firstParam(params: unknown, method: string): Record<string, unknown> {
  const first = Array.isArray(params) ? params[0] : params
  if (typeof first !== 'object' || first === null)
    throw new InvalidParamsError(`${method} takes one object`)
  return first as Record<string, unknown>
}

/** The chain a request names (hex or number), which must be the wallet's. */
function requestChain(raw: unknown): number {
  const chainId = Session.chainId()
  if (raw === undefined) return chainId
  let asked = Number.NaN
  if (typeof raw === 'number') asked = raw
  else if (typeof raw === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(raw))
    asked = Number(BigInt(raw))
  if (asked !== chainId)
    throw new ProviderRpcError(4901, `The wallet is on chain ${chainId}, not ${String(raw)}`)
  return chainId
}

/** Why the session refuses, in the dapp's error (4100), with the token's units when known. */
async function refuseOutside(
  host: SessionHost,
  chainId: number,
  session: SessionState,
  calls: readonly WalletCall[],
): Promise<void> {
  const unit =
    session.active && session.kind === 'erc20'
      ? await host.tokenUnit(caipOf(chainId), session.target).catch(() => null)
      : null
  const format =
    session.kind === 'erc20'
      ? (value: bigint) =>
          unit ? `${formatUnits(value, unit.decimals)} ${unit.symbol}` : String(value)
      : limitFormat(session.kind, null)
  const reason = sessionRefusal(session, calls, now(), format)
  if (reason) throw new ProviderRpcError(4100, `Outside the session's permissions: ${reason}`)
}

/**
 * `wallet_prepareCalls`: a sponsored user operation of `calls` for the session key named by
 * `capabilities.permissions.context`, and the hash its key must sign (EIP-191 of the
 * userOpHash). Checks the calls against the session on chain first.
 *
 * @example
 * const { preparedCalls, signatureRequest, context } = await prepareSessionCalls(params, host)
 */
export async function prepareSessionCalls(params: unknown, host: SessionHost) {
  const request = firstParam(params, 'wallet_prepareCalls')
  const chainId = requestChain(request.chainId)
  const permissions = (request.capabilities as { permissions?: { context?: unknown } } | undefined)
    ?.permissions
  if (!permissions)
    throw new ProviderRpcError(
      4100,
      'wallet_prepareCalls needs capabilities.permissions.context: calls without a session go through wallet_sendCalls',
    )
  const key = contextKey(permissions.context)
  const account = await sessionAccount(
    typeof request.from === 'string' && isAddress(request.from, { strict: false })
      ? getAddress(request.from)
      : undefined,
  )
  if (!Array.isArray(request.calls) || !request.calls.length)
    throw new InvalidParamsError('calls must be a non-empty list')
  const calls: WalletCall[] = request.calls.map((raw, index) => {
    const call = raw as { to?: unknown; value?: unknown; data?: unknown }
    if (typeof call.to !== 'string' || !isAddress(call.to, { strict: false }))
      throw new InvalidParamsError(`calls[${index}].to must be an address`)
    if (call.data !== undefined && (typeof call.data !== 'string' || !isHex(call.data)))
      throw new InvalidParamsError(`calls[${index}].data must be hex`)
    let value = 0n
    try {
      value = BigInt((call.value as string | undefined) ?? 0)
    } catch {
      throw new InvalidParamsError(`calls[${index}].value must be a quantity`)
    }
    return { to: getAddress(call.to), value, data: call.data as Hex | undefined }
  })
  const session = await readSession(chainId, account, key)
  await refuseOutside(host, chainId, session, calls)
  const prepared = await SmartAccount.prepareCalls(chainId, calls, { session: { key } })
  const userOperation = { ...prepared.userOperation, signature: '0x' as Hex }
  const hash = getUserOperationHash({
    userOperation: userOperation as UserOperation<'0.7'>,
    entryPointAddress: entryPoint07Address,
    entryPointVersion: '0.7',
    chainId,
  })
  return {
    preparedCalls: {
      type: PREPARED_TYPE,
      data: formatUserOperationRequest(userOperation as UserOperation<'0.7'>),
      chainId: `0x${chainId.toString(16)}`,
    },
    signatureRequest: { hash },
    context: key.toLowerCase(),
  }
}

/**
 * A v0.7 user operation in JSON-RPC form (a `wallet_prepareCalls` answer's, or a dapp's
 * `eth_sendUserOperation`), as viem types it; the signature is left empty.
 *
 * @example
 * const op = parseUserOperation(params[0] as Record<string, unknown>)
 */
export function parseUserOperation(data: Record<string, unknown>): UserOperation<'0.7'> {
  const hex = (name: string, optional = false): Hex | undefined => {
    const value = data[name]
    if (value === undefined && optional) return undefined
    if (typeof value !== 'string' || !isHex(value))
      throw new InvalidParamsError(`The user operation's ${name} must be hex`)
    return value
  }
  const quantity = (name: string, optional = false) => {
    const value = hex(name, optional)
    return value === undefined ? undefined : BigInt(value)
  }
  const sender = hex('sender') as Hex
  if (!isAddress(sender, { strict: false }))
    throw new InvalidParamsError("The user operation's sender must be an address")
  const paymaster = hex('paymaster', true)
  return {
    sender: getAddress(sender),
    nonce: quantity('nonce') as bigint,
    callData: hex('callData') as Hex,
    callGasLimit: quantity('callGasLimit') as bigint,
    verificationGasLimit: quantity('verificationGasLimit') as bigint,
    preVerificationGas: quantity('preVerificationGas') as bigint,
    maxFeePerGas: quantity('maxFeePerGas') as bigint,
    maxPriorityFeePerGas: quantity('maxPriorityFeePerGas') as bigint,
    signature: '0x',
    ...(paymaster
      ? {
          paymaster: getAddress(paymaster),
          paymasterData: hex('paymasterData') as Hex,
          paymasterVerificationGasLimit: quantity('paymasterVerificationGasLimit') as bigint,
          paymasterPostOpGasLimit: quantity('paymasterPostOpGasLimit') as bigint,
        }
      : {}),
    ...(data.factory !== undefined
      ? { factory: hex('factory') as Hex, factoryData: hex('factoryData') as Hex }
      : {}),
  }
}

/**
 * `wallet_sendPreparedCalls`: the operation `wallet_prepareCalls` built, with the session key's
 * signature of its hash, to the bundler. Only operations of this account's session keys pass;
 * resolves with the userOpHash (the id for `wallet_getCallsStatus`).
 *
 * @example
 * const { id } = await sendPreparedSessionCalls(params, host)
 */
export async function sendPreparedSessionCalls(
  params: unknown,
  host: SessionHost,
): Promise<{ id: Hex; chainId: number }> {
  const request = firstParam(params, 'wallet_sendPreparedCalls')
  const prepared = request.preparedCalls as
    | { type?: unknown; data?: unknown; chainId?: unknown }
    | undefined
  if (!prepared || prepared.type !== PREPARED_TYPE || typeof prepared.data !== 'object')
    throw new InvalidParamsError(
      `preparedCalls must be the ${PREPARED_TYPE} that wallet_prepareCalls answered`,
    )
  const chainId = requestChain(prepared.chainId)
  const key = contextKey(request.context)
  const signature = request.signature
  if (typeof signature !== 'string' || !isHex(signature) || signature.length !== 132)
    throw new InvalidParamsError('signature must be the session key’s 65-byte signature')
  const userOperation = parseUserOperation(prepared.data as Record<string, unknown>)
  const account = await sessionAccount(userOperation.sender)
  if (userOperation.nonce >> 64n !== sessionNonceKey(key))
    throw new InvalidParamsError('The operation was not prepared for this session key')
  const hash = getUserOperationHash({
    userOperation,
    entryPointAddress: entryPoint07Address,
    entryPointVersion: '0.7',
    chainId,
  })
  const signer = await recoverMessageAddress({ message: { raw: hash }, signature }).catch(
    () => null,
  )
  if (!signer || !isAddressEqual(signer, key))
    throw new ProviderRpcError(4100, 'The signature is not the session key’s signature of the hash')
  const calls = accountCalls(userOperation.callData)
  if (!calls) throw new InvalidParamsError('The operation must call execute or executeBatch')
  await refuseOutside(host, chainId, await readSession(chainId, account, key), calls)
  try {
    const id = await Api.rpc<Hex>(caipOf(chainId), 'eth_sendUserOperation', [
      formatUserOperationRequest({
        ...userOperation,
        signature: encodeSessionSignature(key, signature),
      }),
      entryPoint07Address,
    ])
    return { id, chainId }
  } catch (error) {
    const message = (error as { message?: string }).message ?? 'The bundler refused the operation'
    throw new ProviderRpcError(4100, `The account refused the session operation: ${message}`)
  }
}

/**
 * The site a session of `account` was granted to, as its listing says (the account signed it at
 * grant): the origin, null when it was listed without one, undefined when the API does not list
 * it or cannot be asked.
 */
async function grantedTo(
  chainId: number,
  account: Address,
  pci: string,
): Promise<string | null | undefined> {
  try {
    const { pcis } = await Api.v1<{
      pcis?: { pci?: unknown; project?: { origin?: unknown } }[]
    }>('GET', `/sessions/${caipOf(chainId)}:${account}`)
    const row = pcis?.find((listed) => listed.pci === pci)
    if (!row) return undefined
    return typeof row.project?.origin === 'string' ? row.project.origin : null
  } catch {
    return undefined
  }
}

/**
 * `wallet_revokePermissions`: removes the session on chain (the owner's user operation) and
 * records the revocation with the API (the account's signature of `Revoke session <pci>`). No
 * card only when the session was granted to the asking site and the gas is sponsored; revoking
 * another site's session (or one the API cannot vouch for) asks the user.
 *
 * @example
 * await revokePermissions([{ permissionsContext: pci }], host)
 */
export async function revokePermissions(params: unknown, host: SessionHost): Promise<null> {
  const request = firstParam(params, 'wallet_revokePermissions')
  const key = contextKey(request.permissionsContext ?? request.context ?? request.pci)
  const chainId = Session.chainId()
  const account = await sessionAccount()
  const pci = key.toLowerCase()
  const [session, granted] = await Promise.all([
    readSession(chainId, account, key),
    grantedTo(chainId, account, pci),
  ])
  const ownSite = !!host.origin && granted === host.origin
  const prepared = session.active
    ? await SmartAccount.prepareCalls(chainId, [
        {
          to: account,
          value: 0n,
          data: encodeFunctionData({
            abi: portholeSessionsAbi,
            functionName: 'revokeSession',
            args: [key],
          }),
        },
      ])
    : null
  const sponsored = !prepared || prepared.gas.sponsored
  if (!ownSite || !sponsored) {
    const network = host.network(chainId)
    await host.approve({
      title: t('revokeSession'),
      origin: host.origin,
      fields: [
        { label: t('grantedTo'), value: granted ?? t('unknownApp') },
        { label: t('account'), value: account, mono: true },
        { label: t('sessionKey'), value: key, mono: true },
        ...(prepared
          ? [
              prepared.gas.sponsored
                ? { label: t('gas'), value: t('gasPaidBy', { sponsor: prepared.gas.sponsor }) }
                : { label: t('gas'), value: youPayGas(prepared.gas.maxFee, network) },
            ]
          : []),
      ],
      warnings: ownSite ? [] : [t('revokeOtherApp', { app: granted ?? t('unknownApp') })],
    })
  }
  if (prepared) {
    const hash = await SmartAccount.submit(prepared)
    const receipt = await SmartAccount.waitForReceipt(chainId, hash)
    if (!receipt.success)
      throw new BaseError('Revoking the session reverted on chain', {
        details: receipt.receipt.transactionHash,
      })
  }
  const signature = await SmartAccount.signMessage(chainId, revokeSessionMessage(pci))
  await Api.v1('POST', `/sessions/${caipOf(chainId)}:${account}/revoke`, { pci, signature }).catch(
    (error: unknown) => {
      // Not listed (granted before sessions were listed first): the chain is what counts.
      if ((error as { status?: number }).status !== 404) throw error
    },
  )
  return null
}
