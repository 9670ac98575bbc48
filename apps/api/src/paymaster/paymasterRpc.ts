/**
 * ERC-7677 on the chain RPC proxy: `pm_getPaymasterStubData` and `pm_getPaymasterData`, answered
 * by the API's verifying paymaster within the project's sponsorship rules and the paymaster's
 * policy (README "Threats": what one call may cost, and who may ask).
 */
import { ENTRY_POINT_07 } from '@porthole/shared/devnet'
import { portholeSessionsAbi, simpleAccountAbi } from '@porthole/shared/simpleAccount'
import {
  type Address,
  decodeFunctionData,
  getAddress,
  type Hex,
  isAddressEqual,
  numberToHex,
  pad,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { z } from 'zod'
import type { Db } from '../db/Db.js'
import type { Project } from '../projects/Project.js'
import type { LocalRpcMethod } from '../rpc/proxyRpc.js'
import { RpcMethodError } from '../rpc/RpcMethodError.js'
import { createPaymasterChain, type PaymasterChain } from './chainState.js'
import type { PaymasterConfig } from './config.js'
import {
  checkGasLimits,
  checkPrice,
  feeCaps,
  type OperationKind,
  type PaymasterPolicy,
  type PolicyOperation,
} from './policy.js'
import {
  canReserve,
  type ReservationCap,
  reclaimExpiredReservations,
  reserveSponsorship,
} from './reservations.js'
import {
  createSponsorshipCleanup,
  getSponsorshipRules,
  type SponsorshipRules,
} from './sponsorship.js'
import { STUB_SIGNATURE, signSponsorship, verifyingPaymasterData } from './verifyingPaymaster.js'

/** The JSON-RPC errors of the paymaster methods (besides -32602 for invalid params). */
export const PAYMASTER_ERRORS = {
  /** No paymaster contract, account factory, upstream or signing key for the request's chain. */
  unavailable: { code: -32001, message: 'Gas sponsorship is not available on this network' },
  /** The project's rules say off. */
  off: { code: -32002, message: 'Gas sponsorship is off for this project' },
  /** The sender had its daily cap of sponsored user operations. */
  dailyCap: { code: -32003, message: 'Daily sponsorship limit reached for this account' },
  /** The project had its daily cap of sponsored user operations, all senders together. */
  projectDailyCap: { code: -32003, message: 'Daily sponsorship limit reached for this project' },
  /** The project's sponsorships of the day reached its budget in wei. */
  projectDailyBudget: {
    code: -32003,
    message: 'Daily sponsorship budget reached for this project',
  },
  /** The sender had its daily sponsored session revocations. */
  revocations: {
    code: -32003,
    message: 'Daily limit of sponsored session revocations reached for this account',
  },
  /** The sender is not the embedded smart account of one of the project's users. */
  notProjectAccount: {
    code: -32004,
    message: "Gas sponsorship is only for the smart accounts of this project's users",
  },
  /** The fees are over what the chain needs now (`data`: the caps, hex wei per gas). */
  fees: { code: -32005, message: 'Gas fees above what the paymaster sponsors now' },
  /** All gas limits at `maxFeePerGas` cost more than one sponsorship may (`data`: the cost, hex wei). */
  operationCost: {
    code: -32005,
    message: 'User operation could cost more than the paymaster sponsors per operation',
  },
} as const

/**
 * The paymaster gas limits it answers (unless the user operation brings its own to sign):
 * enough for VerifyingPaymaster's validation (~35,000 gas used); its `postOp` never runs.
 */
export const PAYMASTER_GAS = { verification: 100_000n, postOp: 1n } as const

const HexString = z.string().regex(/^0x[0-9a-fA-F]*$/, 'must be hex')
const AddressString = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address')
const quantity = (hexDigits: number) =>
  z
    .string()
    .regex(new RegExp(`^0x[0-9a-fA-F]{1,${hexDigits}}$`), `must be a hex quantity`)
    .transform((value) => BigInt(value))
const Gas = quantity(32)

/** A v0.7 user operation as ERC-7677 sends it (hex fields; the gas ones optional for the stub). */
const RpcUserOperation = z.looseObject({
  sender: AddressString,
  nonce: quantity(64),
  factory: AddressString.nullish(),
  factoryData: HexString.nullish(),
  callData: HexString,
  callGasLimit: Gas.optional(),
  verificationGasLimit: Gas.optional(),
  preVerificationGas: Gas.optional(),
  maxFeePerGas: Gas.optional(),
  maxPriorityFeePerGas: Gas.optional(),
  paymasterVerificationGasLimit: Gas.optional(),
  paymasterPostOpGasLimit: Gas.optional(),
})
type RpcUserOperation = z.infer<typeof RpcUserOperation>

const Params = z.tuple([RpcUserOperation, AddressString, quantity(16)], z.unknown())

/** Options of {@link createPaymasterRpc}. */
export type CreatePaymasterRpcParameters = {
  db: Db
  config: PaymasterConfig
  /** RPC upstream per CAIP-2 id: the chain reads (fees, the sender's account and nonce) go there. */
  upstreams?: Readonly<Record<string, string>>
  /** The chain reads (tests); default over `upstreams` and `config.accountFactories`. */
  chain?: PaymasterChain
  /** Now, in milliseconds (tests); default `Date.now`. */
  now?: () => number
  /** Receives a failed background cleanup of old sponsorship counts; default `console.error`. */
  onError?: (error: unknown) => void
}

/** The paymaster methods for one request's chain and project. */
export type PaymasterRpc = {
  methods(context: { chain: string; project: Project }): Record<string, LocalRpcMethod>
}

/** The answer of both methods (quantities in hex). */
export type PaymasterRpcResult = {
  paymaster: Address
  paymasterData: Hex
  paymasterVerificationGasLimit: Hex
  paymasterPostOpGasLimit: Hex
  /** Who pays: the project, by name. */
  sponsor: { name: string }
  /** Stub data only: false, the final data is still to be asked for. */
  isFinal?: boolean
}

/**
 * The API's ERC-7677 paymaster, for the chain RPC proxy (`POST /v1?chainId&projectId`). Both
 * methods take `[userOperation (v0.7, hex fields), entryPoint, chainId (hex), context]`, need
 * EntryPoint v0.7 and the request's own chain, and answer {@link PaymasterRpcResult}. Both
 * sponsor only the embedded wallet's smart account of one of the project's users (the owner
 * read from the chain or the deployment's factory data, never the caller's word), and only for
 * the account's next nonce of the owner's lane (key 0) or of an active session key's lane:
 * - `pm_getPaymasterStubData`: data of the final length with a placeholder signature, for gas
 *   estimation (`isFinal: false`); checks the caps, counts nothing.
 * - `pm_getPaymasterData`: the signed sponsorship (valid for `config.validForSeconds`) over the
 *   user operation with its final gas values, each within `config.policy` (gas per field,
 *   preVerificationGas by size, fees by the chain's base fee and tip now, the maximum charge in
 *   wei). It reserves the account's operation slot (`reservations.ts`): a new slot counts
 *   against the sender's and the project's daily caps and the project's daily budget, the same
 *   slot asked again counts nothing more, an unused one is given back once expired. An
 *   operation whose only call is the account's own `revokeSession(key)` of an active session
 *   passes the caps and budget (tighter gas, its own daily count). Once per UTC day, a
 *   sponsorship also starts the deletion of old counts in the background.
 * Refusals are JSON-RPC errors: {@link PAYMASTER_ERRORS}, -32602 for invalid params (including a
 * gas limit over the policy or a nonce that is not the account's next), -32603 when the chain
 * does not answer.
 *
 * @example
 * const paymaster = createPaymasterRpc({ db, config: config.paymaster, upstreams })
 * proxyRpc({ body, upstream, timeoutMs, localMethods: paymaster.methods({ chain, project }) })
 */
export function createPaymasterRpc({
  db,
  config,
  upstreams = {},
  chain: reads = createPaymasterChain({ upstreams, factories: config.accountFactories }),
  now = Date.now,
  onError = (error) => console.error('[api] sponsorship cleanup failed', error),
}: CreatePaymasterRpcParameters): PaymasterRpc {
  const signer = config.signerKey ? privateKeyToAccount(config.signerKey) : undefined
  const cleanup = createSponsorshipCleanup(db, { onError })
  const policy = config.policy

  async function sponsor(
    params: unknown,
    { chain, project }: { chain: string; project: Project },
    final: boolean,
  ): Promise<PaymasterRpcResult> {
    const parsed = Params.safeParse(params)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const at = issue?.path.length
        ? `${['userOperation', 'entryPoint', 'chainId'][Number(issue.path[0])] ?? ''}${issue.path
            .slice(1)
            .map((p) => `.${String(p)}`)
            .join('')} `
        : ''
      throw new RpcMethodError(
        -32602,
        `Invalid params: expected [userOperation, entryPoint, chainId, context]${issue ? `; ${at}${issue.message}` : ''}`,
      )
    }
    const [userOperation, entryPoint, chainIdNumber] = parsed.data
    if (!isAddressEqual(entryPoint as Address, ENTRY_POINT_07))
      throw new RpcMethodError(
        -32602,
        `Unsupported entry point ${entryPoint}: the paymaster serves EntryPoint v0.7 (${ENTRY_POINT_07})`,
      )
    const chainId = Number(chainIdNumber)
    if (`eip155:${chainId}` !== chain)
      throw new RpcMethodError(
        -32602,
        `Invalid params: chainId ${numberToHex(chainIdNumber)} is not this request's chain (${chain})`,
      )
    // The stub answers our gas limits; the final data signs the ones the operation carries
    // (viem keeps the stub's), else ours.
    const gas = {
      paymasterVerificationGasLimit:
        (final ? userOperation.paymasterVerificationGasLimit : undefined) ??
        PAYMASTER_GAS.verification,
      paymasterPostOpGasLimit:
        (final ? userOperation.paymasterPostOpGasLimit : undefined) ?? PAYMASTER_GAS.postOp,
    }
    const complete = final ? withFinalGas(userOperation) : undefined
    const sender = getAddress(userOperation.sender)
    const nonceKey = userOperation.nonce >> 64n
    const revoked = revocationOf(userOperation, sender, nonceKey)
    const policyOperation: PolicyOperation | undefined = complete && {
      ...complete,
      ...gas,
      factory: userOperation.factory,
      factoryData: userOperation.factoryData,
      callData: userOperation.callData,
    }
    // A revocation with more gas than one needs is an ordinary operation.
    let kind: OperationKind =
      revoked && (!policyOperation || withinRevocationGas(policyOperation, policy))
        ? 'revocation'
        : 'operation'
    if (policyOperation) checkGasLimits(policyOperation, policy, kind)
    if (nonceKey !== 0n && nonceKey >= 1n << 160n)
      throw new RpcMethodError(
        -32602,
        "Invalid params: userOperation.nonce's key is neither the owner's lane (0) nor a session key",
      )
    const paymaster = config.addresses[chain]
    if (!paymaster || !signer || !config.accountFactories[chain] || !upstreams[chain])
      throw new RpcMethodError(
        PAYMASTER_ERRORS.unavailable.code,
        PAYMASTER_ERRORS.unavailable.message,
      )

    const rules = await getSponsorshipRules(db, project.id)
    if (!rules.enabled)
      throw new RpcMethodError(PAYMASTER_ERRORS.off.code, PAYMASTER_ERRORS.off.message)
    const charge = policyOperation
      ? checkPrice(policyOperation, feeCaps(await reads.fees(chain), policy), policy)
      : 0n

    // Whose account: the chain's word (or the deployment's), then the project's users.
    const sessionKey = nonceKey === 0n ? undefined : (pad(toHex(nonceKey), { size: 20 }) as Address)
    const state = await reads.account(chain, {
      sender,
      factory: (userOperation.factory ?? undefined) as Address | undefined,
      factoryData: (userOperation.factoryData ?? undefined) as Hex | undefined,
      nonceKey,
      sessionKeys: [...(sessionKey ? [sessionKey] : []), ...(revoked ? [revoked] : [])],
    })
    if (!state.owner || !(await isProjectUser(db, project.id, state.owner)))
      throw new RpcMethodError(
        PAYMASTER_ERRORS.notProjectAccount.code,
        PAYMASTER_ERRORS.notProjectAccount.message,
      )
    if (state.nonce !== userOperation.nonce)
      throw new RpcMethodError(
        -32602,
        `Invalid params: userOperation.nonce is not the account's next one in its lane (${numberToHex(state.nonce)})`,
      )
    const nowSeconds = Math.floor(now() / 1000)
    const validUntil = nowSeconds + config.validForSeconds
    if (sessionKey) {
      const session = state.sessions[sessionKey.toLowerCase()]
      if (!session?.active || session.validUntil < nowSeconds || session.validAfter > validUntil)
        throw new RpcMethodError(
          -32602,
          'Invalid params: userOperation.nonce is in the lane of no active session key of this account',
        )
    }
    if (revoked && !state.sessions[revoked.toLowerCase()]?.active) kind = 'operation'

    const answer = (paymasterData: Hex): PaymasterRpcResult => ({
      paymaster,
      paymasterData,
      paymasterVerificationGasLimit: numberToHex(gas.paymasterVerificationGasLimit),
      paymasterPostOpGasLimit: numberToHex(gas.paymasterPostOpGasLimit),
      sponsor: { name: project.name },
    })
    const slot = { projectId: project.id, chain, sender, nonce: userOperation.nonce }
    const reclaim = () =>
      reclaimExpiredReservations(db, { projectId: project.id, nonces: reads.nonces, now: now() })

    if (!complete) {
      const check = () =>
        canReserve(db, {
          ...slot,
          kind,
          rules,
          revocationsPerDay: policy.revocationsPerDay,
          now: now(),
        })
      let full = await check()
      if (full && (await reclaim()) > 0) full = await check()
      if (full) throw capReached(full, rules, policy)
      return {
        ...answer(
          verifyingPaymasterData({ validUntil: 0, validAfter: 0, signature: STUB_SIGNATURE }),
        ),
        isFinal: false,
      }
    }

    const reserve = () =>
      reserveSponsorship(db, {
        ...slot,
        kind,
        charge,
        validUntil,
        rules,
        revocationsPerDay: policy.revocationsPerDay,
        now: now(),
      })
    let reservation = await reserve()
    if (!reservation.reserved && (await reclaim()) > 0) reservation = await reserve()
    if (!reservation.reserved) throw capReached(reservation.cap, rules, policy)
    void cleanup.maybeRun(now())
    return answer(
      await signSponsorship({
        userOperation: {
          ...complete,
          sender,
          factory: (userOperation.factory ?? undefined) as Address | undefined,
          factoryData: (userOperation.factoryData ?? undefined) as Hex | undefined,
          callData: userOperation.callData as Hex,
          ...gas,
        },
        chainId,
        paymaster,
        validUntil,
        validAfter: 0,
        signer,
      }),
    )
  }

  return {
    // The RPC proxy lets one HTTP request make at most MAX_SEPARATE_CALLS of these (proxyRpc.ts).
    methods: (context) => ({
      pm_getPaymasterStubData: (params) => sponsor(params, context, false),
      pm_getPaymasterData: (params) => sponsor(params, context, true),
    }),
  }
}

/** The JSON-RPC error of a full cap (see {@link PAYMASTER_ERRORS}). */
function capReached(cap: ReservationCap, rules: SponsorshipRules, policy: PaymasterPolicy) {
  switch (cap) {
    case 'project':
      return new RpcMethodError(
        PAYMASTER_ERRORS.projectDailyCap.code,
        PAYMASTER_ERRORS.projectDailyCap.message,
        { projectDailyCap: rules.projectDailyCap },
      )
    case 'budget':
      return new RpcMethodError(
        PAYMASTER_ERRORS.projectDailyBudget.code,
        PAYMASTER_ERRORS.projectDailyBudget.message,
        { projectDailyBudget: numberToHex(rules.projectDailyBudget) },
      )
    case 'revocations':
      return new RpcMethodError(
        PAYMASTER_ERRORS.revocations.code,
        PAYMASTER_ERRORS.revocations.message,
        { revocationsPerDay: policy.revocationsPerDay },
      )
    default:
      return new RpcMethodError(PAYMASTER_ERRORS.dailyCap.code, PAYMASTER_ERRORS.dailyCap.message, {
        dailyCap: rules.dailyCap,
      })
  }
}

/** Whether `owner` is the wallet address of one of the project's users. */
async function isProjectUser(db: Db, projectId: string, owner: Address): Promise<boolean> {
  const rows = await db.query(
    'SELECT 1 AS found FROM auth_users WHERE project_id = ? AND address = ? LIMIT 1',
    [projectId, owner.toLowerCase()],
  )
  return rows.length > 0
}

/**
 * The session key an operation revokes when its only call is the account's own
 * `execute(account, 0, revokeSession(key))` in the owner's lane; undefined otherwise.
 */
function revocationOf(
  op: RpcUserOperation,
  sender: Address,
  nonceKey: bigint,
): Address | undefined {
  if (nonceKey !== 0n) return undefined
  try {
    const call = decodeFunctionData({ abi: simpleAccountAbi, data: op.callData as Hex })
    if (call.functionName !== 'execute') return undefined
    const [to, value, data] = call.args
    if (!isAddressEqual(to, sender) || value !== 0n) return undefined
    const inner = decodeFunctionData({ abi: portholeSessionsAbi, data })
    return inner.functionName === 'revokeSession' ? getAddress(inner.args[0]) : undefined
  } catch {
    return undefined
  }
}

/** Whether the operation's gas is within what a revocation is sponsored with. */
function withinRevocationGas(op: PolicyOperation, policy: PaymasterPolicy): boolean {
  return (
    op.callGasLimit <= policy.revocationGas.callGasLimit &&
    op.verificationGasLimit <= policy.revocationGas.verificationGasLimit
  )
}

/** The gas values a signed sponsorship covers; each must be there. */
function withFinalGas(userOperation: RpcUserOperation) {
  const fields = [
    'callGasLimit',
    'verificationGasLimit',
    'preVerificationGas',
    'maxFeePerGas',
    'maxPriorityFeePerGas',
  ] as const
  const missing = fields.filter((field) => userOperation[field] === undefined)
  if (missing.length)
    throw new RpcMethodError(
      -32602,
      `Invalid params: pm_getPaymasterData needs the user operation's final ${missing.join(', ')}`,
    )
  return {
    nonce: userOperation.nonce,
    callGasLimit: userOperation.callGasLimit!,
    verificationGasLimit: userOperation.verificationGasLimit!,
    preVerificationGas: userOperation.preVerificationGas!,
    maxFeePerGas: userOperation.maxFeePerGas!,
    maxPriorityFeePerGas: userOperation.maxPriorityFeePerGas!,
  }
}
