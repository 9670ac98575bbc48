/**
 * ERC-7677 on the chain RPC proxy: `pm_getPaymasterStubData` and `pm_getPaymasterData`, answered
 * by the API's verifying paymaster within the project's sponsorship rules.
 */
import { ENTRY_POINT_07 } from '@porthole/shared/devnet'
import { type Address, type Hex, isAddressEqual, numberToHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { z } from 'zod'
import type { Db } from '../db/Db.js'
import type { Project } from '../projects/Project.js'
import type { LocalRpcMethod } from '../rpc/proxyRpc.js'
import { RpcMethodError } from '../rpc/RpcMethodError.js'
import type { PaymasterConfig } from './config.js'
import {
  createSponsorshipCleanup,
  getSponsorshipRules,
  projectSponsoredToday,
  sponsoredToday,
  takeSponsorship,
} from './sponsorship.js'
import { STUB_SIGNATURE, signSponsorship, verifyingPaymasterData } from './verifyingPaymaster.js'

/** The JSON-RPC errors of the paymaster methods (besides -32602 for invalid params). */
export const PAYMASTER_ERRORS = {
  /** No paymaster contract or signing key for the request's chain. */
  unavailable: { code: -32001, message: 'Gas sponsorship is not available on this network' },
  /** The project's rules say off. */
  off: { code: -32002, message: 'Gas sponsorship is off for this project' },
  /** The sender had its daily cap of sponsored user operations. */
  dailyCap: { code: -32003, message: 'Daily sponsorship limit reached for this account' },
  /** The project had its daily cap of sponsored user operations, all senders together. */
  projectDailyCap: { code: -32003, message: 'Daily sponsorship limit reached for this project' },
} as const

/**
 * The paymaster gas limits it answers (unless the user operation brings its own to sign):
 * enough for VerifyingPaymaster's validation (~35,000 gas used); its `postOp` never runs.
 */
export const PAYMASTER_GAS = { verification: 100_000n, postOp: 1n } as const

/** Most gas a sponsored user operation may ask for, all its limits together. */
export const MAX_SPONSORED_GAS = 10_000_000n

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
 * EntryPoint v0.7 and the request's own chain, and answer {@link PaymasterRpcResult}:
 * - `pm_getPaymasterStubData`: data of the final length with a placeholder signature, for gas
 *   estimation (`isFinal: false`); counts nothing.
 * - `pm_getPaymasterData`: the signed sponsorship (valid for `config.validForSeconds`) over the
 *   user operation with its final gas values, counted against the project's and the sender's
 *   daily caps. Once per UTC day, a sponsorship also starts the deletion of old counts in the
 *   background.
 * Refusals are JSON-RPC errors: {@link PAYMASTER_ERRORS}, and -32602 for invalid params.
 *
 * @example
 * const paymaster = createPaymasterRpc({ db, config: config.paymaster })
 * proxyRpc({ body, upstream, timeoutMs, localMethods: paymaster.methods({ chain, project }) })
 */
export function createPaymasterRpc({
  db,
  config,
  now = Date.now,
  onError = (error) => console.error('[api] sponsorship cleanup failed', error),
}: CreatePaymasterRpcParameters): PaymasterRpc {
  const signer = config.signerKey ? privateKeyToAccount(config.signerKey) : undefined
  const cleanup = createSponsorshipCleanup(db, { onError })

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
    if (complete) {
      const total =
        complete.callGasLimit +
        complete.verificationGasLimit +
        complete.preVerificationGas +
        gas.paymasterVerificationGasLimit +
        gas.paymasterPostOpGasLimit
      if (total > MAX_SPONSORED_GAS)
        throw new RpcMethodError(
          -32602,
          `User operation gas limits (${total} gas together) exceed what the paymaster sponsors (${MAX_SPONSORED_GAS} gas)`,
        )
    }
    const paymaster = config.addresses[chain]
    if (!paymaster || !signer)
      throw new RpcMethodError(
        PAYMASTER_ERRORS.unavailable.code,
        PAYMASTER_ERRORS.unavailable.message,
      )

    const rules = await getSponsorshipRules(db, project.id)
    if (!rules.enabled)
      throw new RpcMethodError(PAYMASTER_ERRORS.off.code, PAYMASTER_ERRORS.off.message)
    const sender = userOperation.sender
    const answer = (paymasterData: Hex): PaymasterRpcResult => ({
      paymaster,
      paymasterData,
      paymasterVerificationGasLimit: numberToHex(gas.paymasterVerificationGasLimit),
      paymasterPostOpGasLimit: numberToHex(gas.paymasterPostOpGasLimit),
      sponsor: { name: project.name },
    })
    const capReached = (cap: 'project' | 'sender') =>
      cap === 'project'
        ? new RpcMethodError(
            PAYMASTER_ERRORS.projectDailyCap.code,
            PAYMASTER_ERRORS.projectDailyCap.message,
            { projectDailyCap: rules.projectDailyCap },
          )
        : new RpcMethodError(PAYMASTER_ERRORS.dailyCap.code, PAYMASTER_ERRORS.dailyCap.message, {
            dailyCap: rules.dailyCap,
          })

    if (!complete) {
      const at = now()
      const [projectCount, senderCount] = await Promise.all([
        projectSponsoredToday(db, { projectId: project.id, now: at }),
        sponsoredToday(db, { projectId: project.id, sender, now: at }),
      ])
      if (projectCount >= rules.projectDailyCap) throw capReached('project')
      if (senderCount >= rules.dailyCap) throw capReached('sender')
      return {
        ...answer(
          verifyingPaymasterData({ validUntil: 0, validAfter: 0, signature: STUB_SIGNATURE }),
        ),
        isFinal: false,
      }
    }

    const at = now()
    const take = await takeSponsorship(db, {
      projectId: project.id,
      sender,
      dailyCap: rules.dailyCap,
      projectDailyCap: rules.projectDailyCap,
      now: at,
    })
    if (!take.taken) throw capReached(take.cap)
    void cleanup.maybeRun(at)
    const validUntil = Math.floor(now() / 1000) + config.validForSeconds
    return answer(
      await signSponsorship({
        userOperation: {
          ...complete,
          sender: sender as Address,
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
    methods: (context) => ({
      pm_getPaymasterStubData: (params) => sponsor(params, context, false),
      pm_getPaymasterData: (params) => sponsor(params, context, true),
    }),
  }
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
