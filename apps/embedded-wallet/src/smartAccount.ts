/**
 * The signed-in user's ERC-4337 smart account (a SimpleAccount v0.7 with ERC-1271, owned by the
 * wallet key: the owner signs in the signer Worker, through `toSimpleAccount`'s owner object).
 * - Networks: smart accounts exist where enabled (the devnets by default; the page's runtime
 *   config can name others) and where the account factory answers.
 * - Account type: `smartAccount` by default there, else `eoa`; the user's choice is remembered per
 *   user (the owner address) in this origin's storage.
 * - Sending: calls become one user operation; the project's paymaster (ERC-7677 through the
 *   API's RPC proxy) is asked to sponsor it, and when it refuses the account pays its own gas.
 *   Bundler and paymaster methods go through the same proxy (`Api.rpc`).
 */
import { type AccountType, BaseError, type EmbeddedUser, walk } from '@porthole/protocol'
import {
  DEVNET_AA,
  type SimpleAccountOwner,
  sessionNonceKey,
  sessionStubSignature,
  type ToSimpleAccountReturnType,
  toSimpleAccount,
} from '@porthole/shared'
import {
  type Address,
  createClient,
  custom,
  defineChain,
  type Hex,
  isAddressEqual,
  type SignableMessage,
  type TypedDataDefinition,
  toHex,
} from 'viem'
import {
  type BundlerClient,
  createBundlerClient,
  createPaymasterClient,
  formatUserOperationRequest,
  type GetPaymasterDataParameters,
  type GetPaymasterStubDataParameters,
  type UserOperation,
} from 'viem/account-abstraction'
import {
  type AccountsDescription,
  accountsOf,
  DEFAULT_SMART_ACCOUNT_NETWORKS,
  preferredTypeOf,
  rememberAddress,
  rememberedAddress,
  rememberPreferredType,
} from './accountHint.js'
import * as Api from './api.js'
import * as Session from './session.js'
import { signer } from './signer.js'
import type { RpcUserOperationReceipt, WalletCall } from './walletCalls.js'

/** How long a sent user operation may take to be included (eth_sendTransaction waits for it). */
export const RECEIPT_TIMEOUT_MS = 60_000
const RECEIPT_POLL_MS = 1_000

/** The error when nobody can pay for gas (spec of issue 15). */
export const NO_GAS_MESSAGE = 'Gas sponsorship is unavailable and the account has no ETH for gas'

let networks: readonly number[] = DEFAULT_SMART_ACCOUNT_NETWORKS
let factoryAddress: Address = DEVNET_AA.accountFactory
/** Chains where the account could not be resolved (no factory there): eoa only, until retried. */
const unavailable = new Set<number>()
const accounts = new Map<string, Promise<ToSimpleAccountReturnType>>()
const deployed = new Set<string>()
/** How long a code read started ahead answers for the account (a sign-in's own reads). */
const CODE_AHEAD_MS = 3_000
/** Code reads started ahead ({@link readAccountsAhead}), by `chainId:address`, used once. */
const codeAhead = new Map<string, { at: number; code: Promise<boolean> }>()
const listeners = new Set<() => void>()

/** Options of {@link configureSmartAccounts} (the page's runtime config). */
export type ConfigureSmartAccountsParameters = {
  networks?: readonly number[] | undefined
  factory?: Address | undefined
}

/**
 * Sets the networks with smart accounts and the account factory (default: the devnets and
 * `DEVNET_AA.accountFactory`).
 *
 * @example
 * configureSmartAccounts({ networks: [31337, 31338] })
 */
export function configureSmartAccounts(parameters: ConfigureSmartAccountsParameters): void {
  networks = parameters.networks ?? DEFAULT_SMART_ACCOUNT_NETWORKS
  factoryAddress = parameters.factory ?? DEVNET_AA.accountFactory
  reset()
}

/**
 * The networks where smart accounts are enabled.
 *
 * @example
 * enabledNetworks() // [31337, 31338]
 */
export function enabledNetworks(): number[] {
  return [...networks]
}

/**
 * Whether `chainId` has smart accounts (enabled, and the factory answered there).
 *
 * @example
 * isEnabled(31337) // true
 */
export function isEnabled(chainId: number): boolean {
  return networks.includes(chainId) && !unavailable.has(chainId)
}

/**
 * Calls `listener` when the user's account changes in the frame (e.g. the account deployed);
 * returns the unsubscribe function.
 *
 * @example
 * const stop = onChange(() => emitUserChanged())
 */
export function onChange(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/**
 * Forgets every account and deployment seen (sign-out, new configuration).
 *
 * @example
 * reset()
 */
export function reset(): void {
  accounts.clear()
  deployed.clear()
  codeAhead.clear()
  unavailable.clear()
}

function owner(): Address {
  const address = Session.address()
  if (!address) throw new BaseError('Not connected to email or social')
  return address as Address
}

/**
 * The user's preferred account type: what they chose last (remembered per user on this device),
 * else `smartAccount`.
 *
 * @example
 * preferredType() // 'smartAccount'
 */
export function preferredType(ownerAddress: Address = owner()): AccountType {
  return preferredTypeOf(ownerAddress)
}

/**
 * Remembers the user's preferred account type.
 *
 * @example
 * setPreferredType('eoa')
 */
export function setPreferredType(type: AccountType): void {
  rememberPreferredType(owner(), type)
}

/**
 * The account type in use on `chainId`: the preferred one where smart accounts exist, else eoa.
 * `ownerAddress`: the wallet's (default: the loaded one).
 *
 * @example
 * activeType(1) // 'eoa'
 */
export function activeType(
  chainId: number = Session.chainId(),
  ownerAddress?: Address,
): AccountType {
  return isEnabled(chainId) && preferredType(ownerAddress) === 'smartAccount'
    ? 'smartAccount'
    : 'eoa'
}

const caipOf = (chainId: number) => `eip155:${chainId}`

/** A viem client whose requests go to the API's RPC proxy for `chainId` (no retries). */
function proxyClient(chainId: number) {
  return createClient({
    chain: defineChain({
      id: chainId,
      name: caipOf(chainId),
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [] } },
    }),
    transport: custom(
      { request: ({ method, params }) => Api.rpc(caipOf(chainId), method, params ?? []) },
      { retryCount: 0 },
    ),
    pollingInterval: RECEIPT_POLL_MS,
  })
}

/** The owner as the account sees it: the wallet key's address, signing in the Worker. */
function workerOwner(address: Address): SimpleAccountOwner {
  return {
    address,
    signMessage: ({ message }: { message: SignableMessage }) =>
      signer.signMessage(
        typeof message === 'string'
          ? message
          : { raw: typeof message.raw === 'string' ? message.raw : toHex(message.raw) },
      ),
    signTypedData: (typed: TypedDataDefinition) => signer.signTypedData(typed),
  }
}

/**
 * The user's smart account on `chainId` (its counterfactual address read from the factory).
 * `ownerAddress`: the wallet's (default: the loaded one; a restore names it before the key is
 * rebuilt, and the account signs only once it is).
 *
 * @example
 * const account = await smartAccount(31337)
 */
export function smartAccount(
  chainId: number,
  ownerAddress: Address = owner(),
): Promise<ToSimpleAccountReturnType> {
  const key = `${chainId}:${ownerAddress.toLowerCase()}`
  let account = accounts.get(key)
  if (!account) {
    account = toSimpleAccount({
      client: proxyClient(chainId),
      owner: workerOwner(ownerAddress),
      factoryAddress,
    })
    accounts.set(key, account)
    account.then(
      ({ address }) => {
        unavailable.delete(chainId)
        // A hint for the next restore (accountHint.ts): the factory's answer stays the address.
        rememberAddress(chainId, factoryAddress, ownerAddress, address)
      },
      () => {
        // No factory there (or the chain is unreachable): eoa until asked again.
        accounts.delete(key)
        unavailable.add(chainId)
      },
    )
  }
  return account
}

/**
 * Whether the smart account on `chainId` has code (it deploys with its first user operation).
 * `ownerAddress`: as for {@link smartAccount}.
 *
 * @example
 * await isDeployed(31337) // false for a new user
 */
export async function isDeployed(chainId: number, ownerAddress?: Address): Promise<boolean> {
  if (!isEnabled(chainId)) return false
  const { address } = await smartAccount(chainId, ownerAddress)
  return hasCode(chainId, address)
}

/**
 * Reads the chain facts of the wallet `ownerAddress` (its smart account's address and whether it
 * has code) ahead of the `getUser` that will ask for them: a sign-in names the wallet before it
 * has stored the share set and read the user. The address stays cached like any other; the code
 * read is used by the next {@link hasCode} of that account within {@link CODE_AHEAD_MS}.
 *
 * @example
 * readAccountsAhead(created.address)
 */
export function readAccountsAhead(ownerAddress: Address): void {
  const chainId = Session.chainId()
  if (!isEnabled(chainId)) return
  smartAccount(chainId, ownerAddress).then(
    ({ address }) => {
      const code = hasCode(chainId, address)
      // Unused until a description asks: that `hasCode` returns this promise and its failure.
      code.catch(() => {})
      codeAhead.set(`${chainId}:${address.toLowerCase()}`, { at: Date.now(), code })
    },
    () => {},
  )
}

/** Whether `address` has code on `chainId` (a deployment seen once is remembered). */
async function hasCode(chainId: number, address: Address): Promise<boolean> {
  const key = `${chainId}:${address.toLowerCase()}`
  if (deployed.has(key)) return true
  const ahead = codeAhead.get(key)
  codeAhead.delete(key)
  if (ahead && Date.now() - ahead.at < CODE_AHEAD_MS) return ahead.code
  const code = await Api.rpc<Hex | null>(caipOf(chainId), 'eth_getCode', [address, 'latest'])
  if (!code || code === '0x') return false
  if (deployed.has(key)) return true
  deployed.add(key)
  for (const listener of listeners) listener()
  return true
}

/** The account the frame acts as on `chainId` (the one `eth_accounts` names). */
export type ActiveAccount = { type: AccountType; address: Address }

/**
 * The account in use: the smart account where it is the active type, else the EOA.
 *
 * @example
 * await activeAccount() // { type: 'smartAccount', address: '0x…' }
 */
export async function activeAccount(chainId: number = Session.chainId()): Promise<ActiveAccount> {
  const eoa = owner()
  if (activeType(chainId) === 'smartAccount')
    try {
      return { type: 'smartAccount', address: (await smartAccount(chainId)).address }
    } catch {
      // No factory on this chain: the network has no smart accounts (see `isEnabled`).
    }
  return { type: 'eoa', address: eoa }
}

/**
 * The account a request names (`from`, or the address asked to sign), among the user's: the
 * active one when it names none. Anything else is refused (4100).
 *
 * @example
 * await accountNamed('0x…') // { type: 'eoa', address: '0x…' }
 */
export async function accountNamed(
  claimed: unknown,
  chainId: number = Session.chainId(),
): Promise<ActiveAccount | null> {
  const active = await activeAccount(chainId)
  if (typeof claimed !== 'string' || claimed === '') return active
  const same = (address: Address) => claimed.toLowerCase() === address.toLowerCase()
  if (same(active.address)) return active
  if (same(owner())) return { type: 'eoa', address: owner() }
  if (isEnabled(chainId)) {
    const { address } = await smartAccount(chainId)
    if (same(address)) return { type: 'smartAccount', address }
  }
  return null
}

/**
 * The user as the modal sees it, with both accounts where smart accounts exist: `address` is the
 * active one, `smartAccountDeployed` the smart account's state on the current chain. Where the
 * smart account cannot be read (no factory on the chain), the user is shown with the EOA only.
 *
 * @example
 * await describeUser(Session.user())
 */
export async function describeUser(user: EmbeddedUser): Promise<EmbeddedUser> {
  return { ...user, ...(await describeAccounts(user.address as Address)) }
}

/**
 * The account fields of the user whose wallet is `ownerAddress` (its EOA) on the current chain,
 * from the factory and the chain.
 *
 * @example
 * await describeAccounts('0x…') // { address, accounts: [eoa, smartAccount], … }
 */
export async function describeAccounts(ownerAddress: Address): Promise<AccountsDescription> {
  const chainId = Session.chainId()
  if (networks.includes(chainId)) {
    try {
      // The address (the factory's answer), then its deployment; an account this device saw
      // before has its deployment read at the same time (one round trip instead of two).
      const hint = rememberedAddress(chainId, factoryAddress, ownerAddress)
      // A failed early read is read again below (`isDeployed`), so nothing is lost.
      const early = hint && hasCode(chainId, hint).catch(() => undefined)
      const { address } = await smartAccount(chainId, ownerAddress)
      const known = hint && isAddressEqual(hint, address) ? await early : undefined
      return accountsOf(ownerAddress, {
        address,
        active: activeType(chainId, ownerAddress) === 'smartAccount',
        deployed: known ?? (await isDeployed(chainId, ownerAddress)),
      })
    } catch {}
  }
  return accountsOf(ownerAddress)
}

/**
 * Signs `message` (EIP-191) as the smart account: ERC-1271, or ERC-6492 before deployment.
 *
 * @example
 * await signMessage(31337, 'Sign in to the demo')
 */
export async function signMessage(chainId: number, message: SignableMessage): Promise<Hex> {
  return (await smartAccount(chainId)).signMessage({ message })
}

/**
 * Signs typed data as the smart account: ERC-1271, or ERC-6492 before deployment.
 *
 * @example
 * await signTypedData(31337, { domain, types, primaryType: 'Mail', message })
 */
export async function signTypedData(chainId: number, typed: TypedDataDefinition): Promise<Hex> {
  return (await smartAccount(chainId)).signTypedData(typed)
}

/** A paymaster's refusal (ERC-7677 JSON-RPC error), marked so the send can fall back. */
class SponsorshipRefusedError extends BaseError {
  override name = 'SponsorshipRefusedError'
}

/** Who pays the gas of a prepared user operation. */
export type GasPayer =
  | { sponsored: true; sponsor: string; paymaster: Address }
  | { sponsored: false; maxFee: bigint }

/** A user operation fixed before the card is drawn: exactly this is signed after approval. */
export type PreparedUserOperation = {
  chainId: number
  sender: Address
  calls: readonly WalletCall[]
  userOperation: UserOperation<'0.7'>
  gas: GasPayer
  /** Whether the account had code when prepared (else this operation deploys it). */
  deployed: boolean
}

/** Options of {@link prepareCalls}. */
export type PrepareCallsOptions = {
  /** ERC-7677 context for the paymaster (from `paymasterService`). */
  paymasterContext?: unknown
  /** Refuse to fall back to the account paying (the app required sponsorship). */
  sponsorRequired?: boolean
  /**
   * Build the operation for a session key instead of the owner: its own nonce lane, a session
   * stub signature for the estimate, and sponsorship required (the account refuses session
   * operations that would spend its ETH on gas). The dapp signs the userOpHash with its key.
   */
  session?: { key: Address }
}

/**
 * The call gas an operation gets over the bundler's estimate, in percent. The bundler (alto)
 * estimates the execution phase about 10 % short for calls that touch several contracts: a
 * Uniswap swap from a new smart account was estimated at 126,186 gas and needs about 140,000
 * (eth_estimateGas of the same `execute` from the EntryPoint), so its operation was mined as
 * failed and the user saw 'The transaction reverted on chain'. Unused call gas is not charged
 * below the EntryPoint's 40,000-gas penalty threshold.
 */
export const CALL_GAS_MARGIN_PERCENT = 25n

/** `callGasLimit` with {@link CALL_GAS_MARGIN_PERCENT} added. */
export function withCallGasMargin(callGasLimit: bigint): bigint {
  return callGasLimit + (callGasLimit * CALL_GAS_MARGIN_PERCENT) / 100n
}

/**
 * Gas a session operation's validation needs beyond the estimate: the estimate runs with a stub
 * signature, so it skips the write of what the session spent (a storage write, up to ~22k).
 */
export const SESSION_VERIFICATION_GAS = 30_000n

function bundlerOf(chainId: number, account: ToSimpleAccountReturnType): BundlerClient {
  const client = proxyClient(chainId)
  return createBundlerClient({
    client,
    account,
    transport: custom(
      { request: ({ method, params }) => Api.rpc(caipOf(chainId), method, params ?? []) },
      { retryCount: 0 },
    ),
    pollingInterval: RECEIPT_POLL_MS,
    userOperation: {
      // The bundler's own price (alto), else the chain's: base fee × 2 plus the tip.
      async estimateFeesPerGas() {
        try {
          const { standard } = await Api.rpc<{
            standard: { maxFeePerGas: Hex; maxPriorityFeePerGas: Hex }
          }>(caipOf(chainId), 'pimlico_getUserOperationGasPrice', [])
          return {
            maxFeePerGas: BigInt(standard.maxFeePerGas),
            maxPriorityFeePerGas: BigInt(standard.maxPriorityFeePerGas),
          }
        } catch {
          const [block, tip] = await Promise.all([
            Api.rpc<{ baseFeePerGas: Hex }>(caipOf(chainId), 'eth_getBlockByNumber', [
              'latest',
              false,
            ]),
            Api.rpc<Hex>(caipOf(chainId), 'eth_maxPriorityFeePerGas', []).catch(
              () => '0x3b9aca00' as Hex,
            ),
          ])
          const maxPriorityFeePerGas = BigInt(tip)
          return {
            maxFeePerGas: BigInt(block.baseFeePerGas) * 2n + maxPriorityFeePerGas,
            maxPriorityFeePerGas,
          }
        }
      },
    },
  })
}

/** The most an operation can cost its payer: every gas limit at the max fee. */
export function maxCost(op: UserOperation<'0.7'>): bigint {
  return (
    (op.callGasLimit +
      op.verificationGasLimit +
      op.preVerificationGas +
      (op.paymasterVerificationGasLimit ?? 0n) +
      (op.paymasterPostOpGasLimit ?? 0n)) *
    op.maxFeePerGas
  )
}

/** A viem error's own words (its short message and details), as a frame error. */
function plainError(error: unknown): unknown {
  if (error instanceof BaseError) return error
  const { shortMessage, details } = (error ?? {}) as { shortMessage?: string; details?: string }
  if (typeof shortMessage !== 'string') return error
  const code = (
    walk(error, (e) => typeof (e as { code?: unknown }).code === 'number') as {
      code?: number
    } | null
  )?.code
  const message =
    details && !shortMessage.includes(details) ? `${shortMessage} ${details}` : shortMessage
  return Object.assign(new BaseError(message, { cause: error }), code === undefined ? {} : { code })
}

/**
 * Builds the user operation of `calls` from the smart account on `chainId`: nonce, init code
 * (first use), gas from the bundler, and the paymaster's sponsorship; when the paymaster refuses,
 * the account pays (an account without ETH gets {@link NO_GAS_MESSAGE}).
 *
 * @example
 * const prepared = await prepareCalls(31337, [{ to: token, value: 0n, data }])
 */
export async function prepareCalls(
  chainId: number,
  calls: readonly WalletCall[],
  options: PrepareCallsOptions = {},
): Promise<PreparedUserOperation> {
  const owned = await smartAccount(chainId)
  const session = options.session
  const account: ToSimpleAccountReturnType = session
    ? {
        ...owned,
        getNonce: (parameters) =>
          owned.getNonce({ ...parameters, key: sessionNonceKey(session.key) }),
        getStubSignature: async () => sessionStubSignature(session.key),
      }
    : owned
  const bundler = bundlerOf(chainId, account)
  const viemCalls = calls.map((call) => ({
    to: call.to,
    value: call.value,
    ...(call.data ? { data: call.data } : {}),
  }))
  const wasDeployed = await isDeployed(chainId)
  const base = { chainId, sender: account.address, calls, deployed: wasDeployed }
  const paymasterClient = createPaymasterClient({
    transport: custom(
      {
        request: ({ method, params }) =>
          Api.rpc(caipOf(chainId), method, params ?? []).catch((error: unknown) => {
            throw new SponsorshipRefusedError(
              (error as { message?: string }).message ?? 'Sponsorship refused',
              { cause: error },
            )
          }),
      },
      { retryCount: 0 },
    ),
  })
  let sponsor: string | undefined
  try {
    const userOperation = (await bundler.prepareUserOperation({
      account,
      calls: viemCalls,
      paymaster: {
        async getPaymasterStubData(parameters: GetPaymasterStubDataParameters) {
          const answer = await paymasterClient.getPaymasterStubData(parameters)
          sponsor = answer.sponsor?.name
          return answer
        },
        getPaymasterData: async (parameters: GetPaymasterDataParameters) => {
          // The paymaster signs the gas limits: the margins go in before it signs.
          const callGasLimit = withCallGasMargin(parameters.callGasLimit ?? 0n)
          const verificationGasLimit = session
            ? (parameters.verificationGasLimit ?? 0n) + SESSION_VERIFICATION_GAS
            : parameters.verificationGasLimit
          const answer = await paymasterClient.getPaymasterData({
            ...parameters,
            callGasLimit,
            ...(verificationGasLimit === undefined ? {} : { verificationGasLimit }),
          })
          return {
            ...answer,
            callGasLimit,
            ...(verificationGasLimit === undefined ? {} : { verificationGasLimit }),
          }
        },
      },
      ...(options.paymasterContext === undefined
        ? {}
        : { paymasterContext: options.paymasterContext }),
    })) as UserOperation<'0.7'>
    const paymaster = userOperation.paymaster as Address | undefined
    if (!paymaster) throw new SponsorshipRefusedError('The paymaster named no paymaster')
    return {
      ...base,
      userOperation,
      gas: { sponsored: true, sponsor: sponsor?.slice(0, 64) || paymaster, paymaster },
    }
  } catch (error) {
    if (!walk(error, (e) => e instanceof SponsorshipRefusedError)) throw plainError(error)
    if (session)
      throw new BaseError('Session calls need gas sponsorship, which is unavailable', {
        cause: error,
      })
    if (options.sponsorRequired)
      throw new BaseError('Gas sponsorship is unavailable', { cause: error })
  }
  const balance = BigInt(
    await Api.rpc<Hex>(caipOf(chainId), 'eth_getBalance', [account.address, 'latest']),
  )
  if (balance === 0n) throw new BaseError(NO_GAS_MESSAGE)
  try {
    const estimated = (await bundler.prepareUserOperation({
      account,
      calls: viemCalls,
    })) as UserOperation<'0.7'>
    // Nothing signed it yet: the margin goes straight in.
    const userOperation = { ...estimated, callGasLimit: withCallGasMargin(estimated.callGasLimit) }
    return { ...base, userOperation, gas: { sponsored: false, maxFee: maxCost(userOperation) } }
  } catch (error) {
    throw plainError(error)
  }
}

/**
 * Signs the prepared operation (the owner, in the Worker) and hands it to the bundler; resolves
 * with its userOpHash.
 *
 * @example
 * const userOpHash = await submit(prepared)
 */
export async function submit(prepared: PreparedUserOperation): Promise<Hex> {
  const account = await smartAccount(prepared.chainId)
  if (!isAddressEqual(account.address, prepared.sender))
    throw new BaseError('The account changed while the request waited for approval')
  const signature = await account.signUserOperation({
    ...prepared.userOperation,
    chainId: prepared.chainId,
  })
  try {
    return await Api.rpc<Hex>(caipOf(prepared.chainId), 'eth_sendUserOperation', [
      formatUserOperationRequest({ ...prepared.userOperation, signature }),
      account.entryPoint.address,
    ])
  } catch (error) {
    throw plainError(error)
  }
}

/**
 * The receipt of a user operation, or null while it is not included.
 *
 * @example
 * await userOperationReceipt(31337, hash)
 */
export async function userOperationReceipt(
  chainId: number,
  hash: Hex,
): Promise<RpcUserOperationReceipt | null> {
  return Api.rpc<RpcUserOperationReceipt | null>(caipOf(chainId), 'eth_getUserOperationReceipt', [
    hash,
  ])
}

/**
 * Waits (polling each second, at most {@link RECEIPT_TIMEOUT_MS}) for a user operation's receipt;
 * the account is known deployed once one arrives.
 *
 * @example
 * const receipt = await waitForReceipt(31337, hash)
 * receipt.receipt.transactionHash
 */
export async function waitForReceipt(
  chainId: number,
  hash: Hex,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<RpcUserOperationReceipt> {
  const { timeoutMs = RECEIPT_TIMEOUT_MS, intervalMs = RECEIPT_POLL_MS } = options
  const until = Date.now() + timeoutMs
  for (;;) {
    const receipt = await userOperationReceipt(chainId, hash).catch(() => null)
    if (receipt) {
      await isDeployed(chainId).catch(() => false)
      return receipt
    }
    if (Date.now() + intervalMs > until)
      throw new BaseError(
        `The user operation was not included within ${Math.round(timeoutMs / 1000)} s`,
        { details: hash },
      )
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
