/**
 * The EIP-1193 requests that act as the signed-in user's account (`rpc.ts` loads this module on
 * the first one, or earlier to warm it once a user signs in): the not-safe methods, which wait
 * for the user's approval in this frame and then sign in the Worker, and the account's own
 * answers (`eth_accounts`, EIP-5792 capabilities and batch status, smart sessions).
 *
 * The account a request acts as is the active one (`smartAccount.ts`): from the smart account,
 * a transaction or an EIP-5792 batch is one user operation (gas sponsored by the project's
 * paymaster when it agrees), and signatures are ERC-1271 (ERC-6492 before deployment).
 */
import {
  BaseError,
  InvalidParamsError,
  MethodNotFoundError,
  NOT_SAFE_METHODS,
  ProviderRpcError,
  RPC_NOT_ALLOWED,
  SAFE_METHODS,
  UnauthorizedError,
  UnsupportedMethodError,
} from '@porthole/protocol'
import { accountCalls } from '@porthole/shared/sessionPermissions'
import {
  decodeFunctionData,
  decodeFunctionResult,
  erc20Abi,
  type Hex,
  isHex,
  type TypedDataDefinition,
} from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import * as Api from './api.js'
import {
  type ApprovalField,
  type BalanceChange,
  describeCalls,
  describeTransaction,
  foreignSignInDomain,
  foreignSignInMessage,
  networkField,
  type PreparedTransaction,
  readableMessage,
  type TokenUnit,
  visibleText,
} from './describe.js'
import { t } from './i18n/en.js'
import { decodePermit, describePermit, type Permit, type PermitToken } from './permits.js'
import {
  answer,
  approve,
  type CardUi,
  configuredChainIds,
  dappOrigin,
  networkOf,
  type RpcRequest,
} from './rpc.js'
import * as Session from './session.js'
import * as SessionKeys from './sessionKeys.js'
import { signer } from './signer.js'
import * as SmartAccount from './smartAccount.js'
import {
  CALLS_ERROR_CODES,
  type CallsStatus,
  callsStatusOf,
  capabilitiesOf,
  parseSendCalls,
  parseWalletCall,
  requestedChainIds,
  type WalletCall,
} from './walletCalls.js'

/**
 * EIP-5792 batches sent from this frame, by id: the user operation, its chain, and whether the
 * bundler dropped it (no receipt within the wait, and it knows it no more).
 */
const batches = new Map<string, { hash: Hex; chainId: number; failed: boolean }>()
const MAX_BATCHES = 200
const caipOf = (chainId: number) => `eip155:${chainId}`

/**
 * The user's account a request names (the active one when it names none): the EOA or the smart
 * account; any other address is refused.
 */
async function actingAccount(claimed?: unknown): Promise<SmartAccount.ActiveAccount> {
  if (!Session.address()) throw new UnauthorizedError('Not connected to email or social')
  const account = await SmartAccount.accountNamed(claimed)
  if (!account) throw new UnauthorizedError('The requested account is not this wallet')
  return account
}

/**
 * Refuses (4100) a site's call to the user's own smart account or to the EntryPoint, before any
 * card: the account's `grantSession`, `upgradeToAndCall` or `withdrawDepositTo` (through
 * `execute`, or from the EOA that owns it) hand a stranger's key the account's tokens or the
 * account itself, and the EntryPoint holds the account's gas deposit. The card could only show
 * them as raw calldata to the user's own address (issue 25). The wallet's own steps (granting
 * and revoking sessions) build such calls themselves, never through these requests. Typed data
 * whose verifying contract is one of them is refused too: the owner's `PortholeAccountMessage`
 * under the account's domain is the account's ERC-1271 signature of any hash a site chose.
 */
async function refuseAccountCalls(targets: readonly (string | null | undefined)[]): Promise<void> {
  const chainId = Session.chainId()
  const own = new Set([entryPoint07Address.toLowerCase()])
  if (SmartAccount.isEnabled(chainId))
    try {
      own.add((await SmartAccount.smartAccount(chainId)).address.toLowerCase())
    } catch {
      // No factory on this chain: the user has no smart account there.
    }
  if (targets.some((to) => typeof to === 'string' && own.has(to.toLowerCase())))
    throw new UnauthorizedError(
      "A site cannot call the wallet's own account contract or the EntryPoint, nor sign for them",
    )
}

/**
 * Refuses (4100) a sign-in message (EIP-4361) for another site than the one asking, before any
 * card: signed, it would sign the user in to that site for whoever asked (EIP-4361: wallets must
 * check the domain against the requesting origin).
 */
function refuseForeignSignIn(text: string): void {
  const domain = foreignSignInDomain(text, dappOrigin())
  if (domain !== null) throw new UnauthorizedError(foreignSignInMessage(domain, dappOrigin()))
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
 * The tokens of a permit's grants as the chain names them (symbol, name, decimals), by
 * lower-case address; null for a token whose symbol or decimals cannot be read there.
 */
async function permitTokens(chainId: number, permit: Permit): Promise<Map<string, PermitToken>> {
  const chain = caipOf(chainId)
  const addresses = [...new Set(permit.grants.map((grant) => grant.token.toLowerCase() as Hex))]
  const read = async (token: Hex): Promise<PermitToken> => {
    try {
      const unit = await tokenUnit(chain, token)
      const name = await Api.rpc<Hex>(chain, 'eth_call', [
        { to: token, data: '0x06fdde03' },
        'latest',
      ])
        .then((data) => String(decodeFunctionResult({ abi: erc20Abi, functionName: 'name', data })))
        .catch(() => null)
      return { ...unit, name }
    } catch {
      return null
    }
  }
  return new Map(
    await Promise.all(addresses.map(async (token) => [token, await read(token)] as const)),
  )
}

/** The chain a permit is for: its domain's `chainId` when it names one, else the wallet's. */
function permitChainId(domainChainId: unknown, fallback: number): number {
  try {
    const id =
      typeof domainChainId === 'number' || typeof domainChainId === 'string'
        ? Number(BigInt(domainChainId))
        : Number.NaN
    return Number.isSafeInteger(id) && id > 0 ? id : fallback
  } catch {
    return fallback
  }
}

/** A call to simulate from the account. */
type SimulatedCall = { to: Hex | null; value: bigint; data: Hex | undefined; gas?: bigint }

/**
 * The balance changes of `from` the calls would cause, run in order in one block
 * (`eth_simulateV1` with transfer tracing: native and ERC-20 transfers), or null where the chain
 * cannot simulate or a call fails.
 */
async function simulateCalls(
  chainId: number,
  from: Hex,
  calls: readonly SimulatedCall[],
): Promise<BalanceChange[] | null> {
  const chain = caipOf(chainId)
  try {
    const [block] = await Api.rpc<
      { calls: { status: Hex; logs: { address: Hex; topics: Hex[]; data: Hex }[] }[] }[]
    >(chain, 'eth_simulateV1', [
      {
        blockStateCalls: [
          {
            calls: calls.map((call) => ({
              from,
              ...(call.to ? { to: call.to } : {}),
              value: `0x${call.value.toString(16)}`,
              ...(call.data ? { data: call.data } : {}),
              ...(call.gas === undefined ? {} : { gas: `0x${call.gas.toString(16)}` }),
            })),
          },
        ],
        traceTransfers: true,
        validation: false,
      },
      'latest',
    ])
    const results = block?.calls ?? []
    if (results.length !== calls.length || results.some((call) => call.status !== '0x1'))
      return null
    const me = from.toLowerCase()
    const totals = new Map<string, bigint>()
    for (const log of results.flatMap((call) => call.logs)) {
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
      const unit = address === NATIVE ? networkOf(chainId) : await tokenUnit(chain, address as Hex)
      changes.push({ ...unit, amount })
    }
    return changes
  } catch {
    return null
  }
}

/** The transaction's balance changes for its card. */
const simulate = (tx: PreparedTransaction) => simulateCalls(tx.chainId, tx.from, [tx])

/** The ERC-20 tokens the calls move or approve, by lower-case address (unreadable ones left out). */
async function tokenUnits(
  chainId: number,
  calls: readonly WalletCall[],
): Promise<Map<string, TokenUnit>> {
  const targets = new Set<Hex>()
  for (const call of calls) {
    if (!call.data) continue
    try {
      const { functionName } = decodeFunctionData({ abi: erc20Abi, data: call.data })
      if (['transfer', 'approve', 'transferFrom'].includes(functionName))
        targets.add(call.to.toLowerCase() as Hex)
    } catch {
      // Not an ERC-20 call: it has no token balance to read, nothing is lost.
    }
  }
  const units = new Map<string, TokenUnit>()
  await Promise.all(
    [...targets].map(async (token) => {
      const unit = await tokenUnit(caipOf(chainId), token).catch(() => null)
      if (unit) units.set(token, unit)
    }),
  )
  return units
}

/** A text to sign with hidden characters made visible, and the warning when there were any. */
function shownText(text: string): { body: string; warnings: string[] } {
  const { text: body, hidden } = visibleText(text)
  return { body, warnings: hidden ? [t('hiddenWarning')] : [] }
}

/** The chains a `wallet_getCapabilities` without a filter reports: the configured ones. */
function knownChainIds(): number[] {
  const ids = new Set<number>([...configuredChainIds(), ...SmartAccount.enabledNetworks()])
  ids.add(Session.chainId())
  return [...ids].sort((a, b) => a - b)
}

/** `wallet_getCapabilities [address, chainIds?]`: per chain, what the named account can do. */
async function capabilities(params: unknown[]) {
  const account = await actingAccount(params[0])
  return capabilitiesOf({
    chainIds: requestedChainIds(params) ?? knownChainIds(),
    smartAccount: (chainId) => account.type === 'smartAccount' && SmartAccount.isEnabled(chainId),
  })
}

function batchId(params: unknown[]): string {
  const [id] = params
  if (typeof id !== 'string' || id.length === 0 || id.length > 256)
    throw new InvalidParamsError('The batch id must be a string')
  return id
}

/** `wallet_getCallsStatus [id]`: the batch's user operation, pending or with its receipt. */
async function callsStatus(params: unknown[]): Promise<CallsStatus> {
  if (!Session.address()) throw new UnauthorizedError('Not connected to email or social')
  const id = batchId(params)
  const known = batches.get(id)
  const chainId = known?.chainId ?? Session.chainId()
  const hash = known?.hash ?? (/^0x[0-9a-fA-F]{64}$/.test(id) ? (id as Hex) : undefined)
  const unknown = () =>
    new ProviderRpcError(CALLS_ERROR_CODES.unknownBundle, 'Unknown bundle id', { data: { id } })
  if (!hash) throw unknown()
  const receipt = await SmartAccount.userOperationReceipt(chainId, hash)
  if (!receipt && !known) {
    // Sent before this frame loaded: the bundler still knows it while it is pending.
    const op = await Api.rpc<unknown>(caipOf(chainId), 'eth_getUserOperationByHash', [hash]).catch(
      () => null,
    )
    if (!op) throw unknown()
  }
  return callsStatusOf({ id, chainId, receipt, failed: known?.failed ?? false })
}

const STATUS_TEXT = {
  100: 'statusPending',
  200: 'statusConfirmed',
  400: 'statusFailed',
  500: 'statusReverted',
} as const satisfies Record<CallsStatus['status'], string>

/** `wallet_showCallsStatus [id]`: a card with the batch's status (Close only). */
async function showCallsStatus(
  id: string,
  params: unknown[],
  ui: CardUi,
  signal?: AbortSignal,
): Promise<null> {
  const status = await callsStatus(params)
  const chainId = Number(BigInt(status.chainId))
  const receipt = status.receipts?.[0]
  const fields: ApprovalField[] = [
    networkField(networkOf(chainId).name, chainId),
    { label: t('status'), value: t(STATUS_TEXT[status.status]) },
    { label: t('batch'), value: status.id, mono: true },
  ]
  if (receipt)
    fields.push(
      { label: t('transaction'), value: receipt.transactionHash, mono: true },
      { label: t('block'), value: BigInt(receipt.blockNumber).toString() },
    )
  await answer(
    id,
    {
      title: t('callsStatus'),
      origin: dappOrigin(),
      fields,
      warnings: [],
      dismissOnly: t('close'),
    },
    ui,
    signal,
  )
  return null
}

/**
 * Runs calls from the smart account as one user operation: prepared in full (gas, sponsorship)
 * before the card, signed and handed to the bundler after approval. Resolves with the userOpHash.
 */
async function sendFromSmartAccount(
  id: string,
  calls: readonly WalletCall[],
  title: string,
  ui: CardUi,
  signal: AbortSignal | undefined,
  options: SmartAccount.PrepareCallsOptions = {},
): Promise<{ hash: Hex; chainId: number }> {
  const chainId = Session.chainId()
  const prepared = await SmartAccount.prepareCalls(chainId, calls, options)
  const [balance, changes, tokens] = await Promise.all([
    Api.rpc<Hex>(caipOf(chainId), 'eth_getBalance', [prepared.sender, 'latest']).then(BigInt),
    simulateCalls(chainId, prepared.sender, calls),
    tokenUnits(chainId, calls),
  ])
  const content = describeCalls({
    title,
    chainId,
    from: prepared.sender,
    calls,
    origin: dappOrigin(),
    network: networkOf(chainId),
    tokens,
    gas: prepared.gas,
    deployed: prepared.deployed,
    balance,
    changes,
  })
  await approve(id, content, ui, signal)
  if (content.blocked) throw new BaseError(content.blocked)
  return { hash: await SmartAccount.submit(prepared), chainId }
}

/** Keeps a sent batch for `wallet_getCallsStatus` (the last ones only: older ids still resolve
 * as userOpHashes) and follows it. */
function remember(id: string, batch: { hash: Hex; chainId: number; failed: boolean }): void {
  if (batches.size >= MAX_BATCHES) batches.delete(batches.keys().next().value as string)
  batches.set(id, batch)
  watchBatch(batch)
}

/**
 * `eth_sendUserOperation [userOperation, entryPoint]` from the dapp: a v0.7 operation of the
 * user's smart account, shown on the card like `wallet_sendCalls` (its calls, who pays the gas:
 * the paymaster it names, else the account at most its limits × max fee), signed by the owner
 * after approval and handed to the bundler. Resolves with the userOpHash.
 */
async function sendUserOperation(
  id: string,
  params: unknown[],
  ui: CardUi,
  signal: AbortSignal | undefined,
): Promise<Hex> {
  const [raw, entryPoint] = params as [unknown, unknown]
  if (typeof raw !== 'object' || raw === null)
    throw new InvalidParamsError('eth_sendUserOperation takes [userOperation, entryPoint]')
  if (
    entryPoint !== undefined &&
    (typeof entryPoint !== 'string' ||
      entryPoint.toLowerCase() !== entryPoint07Address.toLowerCase())
  )
    throw new InvalidParamsError(`Only EntryPoint v0.7 (${entryPoint07Address}) is supported`)
  const userOperation = SessionKeys.parseUserOperation(raw as Record<string, unknown>)
  const account = await actingAccount(userOperation.sender)
  if (account.type !== 'smartAccount')
    throw new UnauthorizedError('A user operation must come from the smart account')
  const calls = accountCalls(userOperation.callData)
  if (!calls) throw new InvalidParamsError('The user operation must call execute or executeBatch')
  await refuseAccountCalls(calls.map((call) => call.to))
  const chainId = Session.chainId()
  const [deployed, balance, changes, tokens] = await Promise.all([
    SmartAccount.isDeployed(chainId),
    Api.rpc<Hex>(caipOf(chainId), 'eth_getBalance', [account.address, 'latest']).then(BigInt),
    simulateCalls(chainId, account.address, calls),
    tokenUnits(chainId, calls),
  ])
  if (!deployed && !userOperation.factory)
    throw new InvalidParamsError('The account is not deployed yet: the operation needs its factory')
  const gas: SmartAccount.GasPayer = userOperation.paymaster
    ? {
        sponsored: true,
        sponsor: t('paymasterNamed', { address: userOperation.paymaster }),
        paymaster: userOperation.paymaster,
      }
    : { sponsored: false, maxFee: SmartAccount.maxCost(userOperation) }
  const content = describeCalls({
    title: t('sendUserOperation'),
    chainId,
    from: account.address,
    calls,
    origin: dappOrigin(),
    network: networkOf(chainId),
    tokens,
    gas,
    deployed,
    balance,
    changes,
  })
  await approve(id, content, ui, signal)
  if (content.blocked) throw new BaseError(content.blocked)
  return SmartAccount.submit({
    chainId,
    sender: account.address,
    calls,
    userOperation,
    gas,
    deployed,
  })
}

/** Follows a sent batch: once the wait ends without a receipt and the bundler forgot it, it failed. */
function watchBatch(batch: { hash: Hex; chainId: number; failed: boolean }): void {
  SmartAccount.waitForReceipt(batch.chainId, batch.hash).catch(async () => {
    const op = await Api.rpc<unknown>(caipOf(batch.chainId), 'eth_getUserOperationByHash', [
      batch.hash,
    ]).catch(() => undefined)
    if (op === null) batch.failed = true
  })
}

/**
 * Runs one EVM request of the signed-in user's account (`rpc.ts` answers the others without
 * this module): `ui.show` when the frame must be shown, `ui.answered` once the user answered its
 * card (the frame may hide while the request finishes, e.g. waits for a user operation's receipt).
 *
 * @example
 * await handleAccountRpc({ id: '7', method: 'personal_sign', params: [msg, address] }, ui)
 */
export async function handleAccountRpc(
  request: RpcRequest,
  ui: CardUi,
  signal?: AbortSignal,
): Promise<unknown> {
  const { id, method } = request
  const params = (Array.isArray(request.params) ? request.params : [request.params]) as unknown[]
  if (method === 'eth_accounts' || method === 'eth_requestAccounts') {
    if (!Session.address()) return []
    return [(await SmartAccount.activeAccount()).address]
  }
  if (method === 'eth_chainId') return `0x${Session.chainId().toString(16)}`
  if (method === 'wallet_getCapabilities') return capabilities(params)
  if (method === 'wallet_getCallsStatus') return callsStatus(params)
  if (method === 'wallet_showCallsStatus') return showCallsStatus(id, params, ui, signal)
  // Smart sessions: what the dapp's session key signs needs no card (the account enforces the
  // permissions the user granted); granting shows one, revoking only when the user pays gas.
  const sessionHost: SessionKeys.SessionHost = {
    approve: (content) => approve(id, content, ui, signal),
    origin: dappOrigin(),
    network: networkOf,
    tokenUnit,
  }
  if (method === 'wallet_prepareCalls')
    return SessionKeys.prepareSessionCalls(request.params, sessionHost)
  if (method === 'wallet_sendPreparedCalls') {
    const { id: hash, chainId } = await SessionKeys.sendPreparedSessionCalls(
      request.params,
      sessionHost,
    )
    remember(hash, { hash, chainId, failed: false })
    return { id: hash }
  }
  if (SAFE_METHODS.includes(method)) return Api.rpc(caipOf(Session.chainId()), method, params)
  if (!NOT_SAFE_METHODS.includes(method)) throw new MethodNotFoundError(RPC_NOT_ALLOWED)

  if (method === 'personal_sign') {
    const [message, claimed] = params as [string, string]
    const account = await actingAccount(claimed)
    const chainId = Session.chainId()
    if (typeof message !== 'string') throw new BaseError('Error signing message')
    refuseForeignSignIn(readableMessage(message))
    const shown = shownText(readableMessage(message))
    await approve(
      id,
      {
        title: t('signMessage'),
        origin: dappOrigin(),
        fields: accountFields(account),
        body: { label: t('message'), text: shown.body },
        warnings: shown.warnings,
      },
      ui,
      signal,
    )
    const signable = isHex(message) ? { raw: message } : message
    return account.type === 'smartAccount'
      ? SmartAccount.signMessage(chainId, signable)
      : signer.signMessage(signable)
  }
  if (method === 'eth_signTypedData_v4') {
    const [claimed, raw] = params as [string, unknown]
    const account = await actingAccount(claimed)
    const chainId = Session.chainId()
    const typed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as TypedDataDefinition & {
      types: Record<string, unknown>
    }
    await refuseAccountCalls([typed.domain?.verifyingContract])
    const { EIP712Domain: _domain, ...types } = typed.types
    const shown = shownText(
      JSON.stringify({ domain: typed.domain, message: typed.message }, null, 2),
    )
    const primaryType = visibleText(String(typed.primaryType)).text
    // A permit lets its spender move tokens later with no other card: said plainly, with a warning.
    const permit = decodePermit(typed)
    const described =
      permit && permit !== 'unreadable'
        ? describePermit({
            permit,
            tokens: await permitTokens(permitChainId(typed.domain?.chainId, chainId), permit),
          })
        : null
    await approve(
      id,
      {
        title: described ? t('permitTitle') : t('signTypedData'),
        origin: dappOrigin(),
        fields: [
          ...accountFields(account),
          { label: t('type'), value: primaryType },
          ...(described?.fields ?? []),
        ],
        body: { label: t('typedData'), text: shown.body },
        warnings: [
          ...(described?.warnings ?? []),
          ...(permit === 'unreadable' ? [t('permitUnreadable', { type: primaryType })] : []),
          ...shown.warnings,
        ],
      },
      ui,
      signal,
    )
    const definition = { ...typed, types } as TypedDataDefinition
    return account.type === 'smartAccount'
      ? SmartAccount.signTypedData(chainId, definition)
      : signer.signTypedData(definition)
  }
  if (method === 'eth_sendTransaction') {
    const tx = (params[0] ?? {}) as Tx
    const account = await actingAccount(tx.from)
    await refuseAccountCalls([tx.to])
    if (account.type === 'smartAccount') {
      if (!tx.to)
        throw new InvalidParamsError(
          'A smart account cannot deploy a contract: send it from the EOA',
        )
      const call = parseWalletCall(
        { to: tx.to, data: tx.data ?? tx.input, ...(tx.value ? { value: tx.value } : {}) },
        0,
      )
      const { hash, chainId } = await sendFromSmartAccount(
        id,
        [call],
        t('sendTransaction'),
        ui,
        signal,
      )
      // As wallets answer: the hash of the transaction that carried the operation, once included.
      const receipt = await SmartAccount.waitForReceipt(chainId, hash)
      if (!receipt.success)
        throw new BaseError('The transaction reverted on chain', {
          details: receipt.receipt.transactionHash,
        })
      return receipt.receipt.transactionHash
    }
    const from = account.address
    // Everything signed is fixed now, before the card: what is shown is what is signed.
    const prepared = await prepareTransaction(tx, from)
    const [balance, changes] = await Promise.all([
      Api.rpc<Hex>(caipOf(prepared.chainId), 'eth_getBalance', [from, 'latest']).then(BigInt),
      simulate(prepared),
    ])
    const content = describeTransaction({
      tx: prepared,
      origin: dappOrigin(),
      network: networkOf(prepared.chainId),
      balance,
      changes,
    })
    await approve(id, content, ui, signal)
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
  if (method === 'wallet_sendCalls') {
    const calls = parseSendCalls(params, { apiOrigin: Api.apiOrigin() })
    const account = await actingAccount(calls.from)
    if (calls.chainId !== Session.chainId())
      throw new ProviderRpcError(
        CALLS_ERROR_CODES.unsupportedChain,
        `Unsupported chain id: the wallet is on chain ${Session.chainId()}`,
      )
    if (account.type !== 'smartAccount')
      throw new ProviderRpcError(
        CALLS_ERROR_CODES.atomicityNotSupported,
        'Atomicity not supported: batched calls need the smart account',
      )
    if (calls.id !== undefined && batches.has(calls.id))
      throw new ProviderRpcError(CALLS_ERROR_CODES.duplicateId, 'Duplicate ID')
    await refuseAccountCalls(calls.calls.map((call) => call.to))
    const { hash, chainId } = await sendFromSmartAccount(
      id,
      calls.calls,
      t('sendCalls'),
      ui,
      signal,
      {
        paymasterContext: calls.paymasterContext,
        sponsorRequired: calls.sponsorRequired,
      },
    )
    remember(calls.id ?? hash, { hash, chainId, failed: false })
    return { id: calls.id ?? hash }
  }
  if (method === 'eth_sendUserOperation') return sendUserOperation(id, params, ui, signal)
  if (method === 'wallet_grantPermissions')
    return SessionKeys.grantPermissions(request.params, sessionHost)
  if (method === 'wallet_revokePermissions')
    return SessionKeys.revokePermissions(request.params, sessionHost)
  throw new UnsupportedMethodError(`${method} is not supported by the embedded wallet yet`)
}

/** The account lines of a signing card. */
function accountFields(account: SmartAccount.ActiveAccount): ApprovalField[] {
  return [
    { label: t('account'), value: account.address, mono: true },
    ...(account.type === 'smartAccount'
      ? [{ label: t('signsAs'), value: t('smartAccountErc1271') }]
      : []),
  ]
}
