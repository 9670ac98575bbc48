/**
 * Test and bench support: an attacker of the API's paymaster. It asks `pm_getPaymasterData` for
 * the most expensive sponsorship the API will sign (the fee caps read from the refusal's data,
 * every gas field at its bound, the call burning all its gas), and lands it itself with
 * `EntryPoint.handleOps` from its own key, as its own beneficiary and as the block's coinbase
 * (so it also keeps the tips: the worst case).
 */
import { randomUUID } from 'node:crypto'
import { DEVNET_AA, ENTRY_POINT_07 } from '@porthole/shared/devnet'
import type { ToSimpleAccountReturnType } from '@porthole/shared/simpleAccount'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  numberToHex,
  parseEther,
} from 'viem'
import {
  entryPoint07Abi,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { DbExecutor } from '../src/db/Db.js'
import { DEFAULT_PAYMASTER_POLICY, maxPreVerificationGas } from '../src/paymaster/policy.js'

/** A JSON-RPC call to the API's proxy: its result or its error. */
export type PaymasterProxy = (
  method: string,
  params: unknown[],
) => Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }>

/** An operation without its signature and paymaster fields. */
export type BareOperation = Omit<UserOperation<'0.7'>, 'signature' | 'paymaster' | 'paymasterData'>

/** The operation's fields as ERC-7677 sends them (hex quantities). */
export function rpcOperation(op: BareOperation): Record<string, Hex | undefined> {
  return {
    sender: op.sender,
    nonce: numberToHex(op.nonce),
    factory: op.factory,
    factoryData: op.factoryData,
    callData: op.callData,
    callGasLimit: numberToHex(op.callGasLimit),
    verificationGasLimit: numberToHex(op.verificationGasLimit),
    preVerificationGas: numberToHex(op.preVerificationGas),
    maxFeePerGas: numberToHex(op.maxFeePerGas),
    maxPriorityFeePerGas: numberToHex(op.maxPriorityFeePerGas),
    paymasterVerificationGasLimit: numberToHex(op.paymasterVerificationGasLimit ?? 100_000n),
    paymasterPostOpGasLimit: numberToHex(op.paymasterPostOpGasLimit ?? 1n),
  }
}

/** What the attacker's own `handleOps` did, in wei. */
export type LandedAttack = {
  /** The paymaster's EntryPoint deposit before minus after. */
  drop: bigint
  /** The attacker's balance after minus before (it sent the bundle, was paid and mined it). */
  gain: bigint
  /** Whether the operation's calls succeeded (a burning call fails; it is charged all the same). */
  success: boolean
  /** The operation's maximum charge as signed: every gas limit × maxFeePerGas. */
  maxCharge: bigint
}

/** What {@link attackPaymaster} answers: the refusal, or what landing the sponsorship did. */
export type AttackOutcome = {
  refused?: { code: number; message: string; data?: unknown }
  landed?: LandedAttack
  /** The operation asked for. */
  op: BareOperation
}

/** Code that burns all the gas it is given (INVALID). */
const BURNER_CODE = '0xfe'

/**
 * Asks for `op`'s sponsorship; when signed, has the account sign it and lands it with the
 * attacker's own `handleOps` (see the module comment).
 *
 * @example
 * const { refused, landed } = await askAndLand({ proxy, rpcUrl, account, op })
 */
export async function askAndLand({
  proxy,
  rpcUrl,
  account,
  op,
}: {
  proxy: PaymasterProxy
  rpcUrl: string
  account: ToSimpleAccountReturnType
  op: BareOperation
}): Promise<AttackOutcome> {
  const answer = await proxy('pm_getPaymasterData', [
    rpcOperation(op),
    ENTRY_POINT_07,
    numberToHex(await createPublicClient({ transport: http(rpcUrl) }).getChainId()),
    {},
  ])
  if (answer.error) return { refused: answer.error, op }
  const sponsored = answer.result as {
    paymaster: Address
    paymasterData: Hex
    paymasterVerificationGasLimit: Hex
    paymasterPostOpGasLimit: Hex
  }
  const full: UserOperation<'0.7'> = {
    ...op,
    paymaster: sponsored.paymaster,
    paymasterData: sponsored.paymasterData,
    paymasterVerificationGasLimit: BigInt(sponsored.paymasterVerificationGasLimit),
    paymasterPostOpGasLimit: BigInt(sponsored.paymasterPostOpGasLimit),
    signature: '0x',
  }
  full.signature = await account.signUserOperation(full)
  return { op, landed: await landAsAttacker(rpcUrl, full) }
}

/**
 * Sends `handleOps([op])` from a fresh funded key that is also the block's coinbase, with itself
 * as beneficiary, and measures the paymaster's deposit and the attacker's balance around it.
 *
 * @example
 * const { drop, gain } = await landAsAttacker(rpcUrl, signedOperation)
 */
export async function landAsAttacker(
  rpcUrl: string,
  op: UserOperation<'0.7'>,
): Promise<LandedAttack> {
  const chain = createPublicClient({ transport: http(rpcUrl), pollingInterval: 50 })
  const anvil = (method: string, params: unknown[]) =>
    chain.request({ method: method as never, params: params as never })
  const attacker = privateKeyToAccount(generatePrivateKey())
  await anvil('anvil_setBalance', [attacker.address, numberToHex(parseEther('1'))])
  const coinbase = (await chain.getBlock()).miner
  await anvil('anvil_setCoinbase', [attacker.address])
  const deposit = () =>
    chain.readContract({
      address: ENTRY_POINT_07,
      abi: entryPoint07Abi,
      functionName: 'balanceOf',
      args: [op.paymaster ?? DEVNET_AA.paymaster],
    })
  try {
    const [depositBefore, balanceBefore] = await Promise.all([
      deposit(),
      chain.getBalance({ address: attacker.address }),
    ])
    const hash = await createWalletClient({
      account: attacker,
      transport: http(rpcUrl),
    }).writeContract({
      chain: null,
      address: ENTRY_POINT_07,
      abi: entryPoint07Abi,
      functionName: 'handleOps',
      args: [[toPackedUserOperation(op)], attacker.address],
      gas: 5_000_000n,
    })
    const receipt = await chain.waitForTransactionReceipt({ hash })
    const [depositAfter, balanceAfter] = await Promise.all([
      deposit(),
      chain.getBalance({ address: attacker.address }),
    ])
    const events = await chain.getContractEvents({
      address: ENTRY_POINT_07,
      abi: entryPoint07Abi,
      eventName: 'UserOperationEvent',
      blockHash: receipt.blockHash,
    })
    return {
      drop: depositBefore - depositAfter,
      gain: balanceAfter - balanceBefore,
      success: events[0]?.args.success === true,
      maxCharge:
        (op.callGasLimit +
          op.verificationGasLimit +
          op.preVerificationGas +
          (op.paymasterVerificationGasLimit ?? 0n) +
          (op.paymasterPostOpGasLimit ?? 0n)) *
        op.maxFeePerGas,
    }
  } finally {
    await anvil('anvil_setCoinbase', [coinbase])
  }
}

/**
 * The most expensive operation of `account` the paymaster will sign, as an attacker finds it:
 * the fee caps from the refusal of an absurd fee (the refusal names them), preVerificationGas at
 * its bound for the operation's size, a call into code that burns all its gas, and every other
 * gas field at the policy's bound; when that costs more than one sponsorship may (the refusal
 * names the cost), validation keeps what it uses and the call gets the rest.
 *
 * @example
 * const op = await mostExpensiveOperation({ proxy, rpcUrl, account })
 */
export async function mostExpensiveOperation({
  proxy,
  rpcUrl,
  account,
}: {
  proxy: PaymasterProxy
  rpcUrl: string
  account: ToSimpleAccountReturnType
}): Promise<BareOperation> {
  const chain = createPublicClient({ transport: http(rpcUrl) })
  const chainId = numberToHex(await chain.getChainId())
  const burner = privateKeyToAccount(generatePrivateKey()).address
  await chain.request({ method: 'anvil_setCode' as never, params: [burner, BURNER_CODE] as never })
  const deployed = !!(await chain.getCode({ address: account.address }))
  const { factory, factoryData } = await account.getFactoryArgs()
  const bounds = DEFAULT_PAYMASTER_POLICY.gas
  const base = {
    sender: account.address,
    nonce: await account.getNonce(),
    ...(deployed ? {} : { factory, factoryData }),
    callData: await account.encodeCalls([{ to: burner, value: 0n, data: '0x' }]),
    paymasterVerificationGasLimit: bounds.paymasterVerificationGasLimit,
    paymasterPostOpGasLimit: bounds.paymasterPostOpGasLimit,
  }
  const preVerificationGas = maxPreVerificationGas(base)
  const refusal = async (op: BareOperation) =>
    (await proxy('pm_getPaymasterData', [rpcOperation(op), ENTRY_POINT_07, chainId, {}])).error
  const absurd = parseEther('0.001')
  const fees = await refusal({
    ...base,
    callGasLimit: 50_000n,
    verificationGasLimit: 100_000n,
    preVerificationGas,
    maxFeePerGas: absurd,
    maxPriorityFeePerGas: absurd,
  })
  const caps = fees?.data as { maxFeePerGas?: Hex; maxPriorityFeePerGas?: Hex } | undefined
  if (!caps?.maxFeePerGas || !caps.maxPriorityFeePerGas)
    throw new Error(`The refusal named no fee caps: ${JSON.stringify(fees)}`)
  const maxFeePerGas = BigInt(caps.maxFeePerGas)
  const maxPriorityFeePerGas = BigInt(caps.maxPriorityFeePerGas)
  const widest = {
    ...base,
    callGasLimit: bounds.callGasLimit,
    verificationGasLimit: bounds.verificationGasLimit,
    preVerificationGas,
    maxFeePerGas,
    maxPriorityFeePerGas,
  }
  const cost = await refusal(widest)
  const named = (cost?.data as { maxOperationCost?: Hex } | undefined)?.maxOperationCost
  if (!named) return widest
  // Gas the per-operation cost buys at the capped fee: validation gets what it uses (unused
  // validation gas is not charged), the call burning all its gas gets the rest.
  const verificationGasLimit = deployed ? 100_000n : 400_000n
  const callGasLimit =
    BigInt(named) / maxFeePerGas -
    preVerificationGas -
    verificationGasLimit -
    base.paymasterVerificationGasLimit -
    base.paymasterPostOpGasLimit
  return {
    ...widest,
    verificationGasLimit,
    callGasLimit: callGasLimit < bounds.callGasLimit ? callGasLimit : bounds.callGasLimit,
  }
}

/**
 * Makes `owner` a user of `projectId` (its wallet address on file), as a login with shares does:
 * the paymaster then sponsors the owner's smart account for that project.
 *
 * @example
 * await addProjectUser(db, 'porthole-demo', owner.address)
 */
export async function addProjectUser(
  db: DbExecutor,
  projectId: string,
  owner: Address,
): Promise<void> {
  await db.execute(
    'INSERT INTO auth_users (id, project_id, email, address, created_at) VALUES (?, ?, ?, ?, ?)',
    [randomUUID(), projectId, `${randomUUID()}@users.test`, owner.toLowerCase(), Date.now()],
  )
}
