/**
 * Test support for the devnet's ERC-4337 stack (for tests on anvil, never shipped): user
 * operations of the devnet's `PortholeSimpleAccount`, the `VerifyingPaymaster`'s sponsorship,
 * and `EntryPoint.handleOps` sent from a dev key as a bundler sends it.
 */
import { createRequire } from 'node:module'
import { DEVNET_AA, ENTRY_POINT_07 } from '@porthole/shared/devnet'
import { type ToSimpleAccountReturnType, toSimpleAccount } from '@porthole/shared/simpleAccount'
import {
  type Abi,
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  getAddress,
  type Hex,
  http,
  type LocalAccount,
  type PrivateKeyAccount,
  parseAbi,
  parseEventLogs,
  type TransactionReceipt,
} from 'viem'
import {
  entryPoint07Abi,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import { DEV_ACCOUNTS } from '../accounts.ts'
import { devnetChain } from '../chain.ts'

/**
 * The `VerifyingPaymaster` v0.7 functions tests read: its signer, owner and the hash its signer
 * signs for a user operation.
 *
 * @example
 * await client.readContract({ address: DEVNET_AA.paymaster, abi: verifyingPaymasterAbi, functionName: 'verifyingSigner' })
 */
export const verifyingPaymasterAbi = parseAbi([
  'function verifyingSigner() view returns (address)',
  'function owner() view returns (address)',
  'struct PackedUserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; bytes32 accountGasLimits; uint256 preVerificationGas; bytes32 gasFees; bytes paymasterAndData; bytes signature; }',
  'function getHash(PackedUserOperation userOp, uint48 validUntil, uint48 validAfter) view returns (bytes32)',
])

/**
 * A public client of the devnet at `rpcUrl` (chain 31337), polling every 50 ms.
 *
 * @example
 * await devnetClient(anvil.rpcUrl).getBlockNumber()
 */
export function devnetClient(rpcUrl: string) {
  return createPublicClient({
    chain: devnetChain({ chainId: 31337, rpcUrl }),
    transport: http(rpcUrl),
    pollingInterval: 50,
  })
}

/** A call of a user operation. */
export type UserOperationCall = { to: Address; value?: bigint; data?: Hex }

/** Options of {@link userOperationOf}. */
export type UserOperationOfParameters = {
  rpcUrl: string
  owner: PrivateKeyAccount
  calls: readonly UserOperationCall[]
}

/**
 * An unsigned user operation of `owner`'s SimpleAccount (salt 0) running `calls`, in the
 * owner's nonce lane (key 0), with init code while the account is not deployed; fixed gas
 * limits, the chain's fees, no paymaster.
 *
 * @example
 * const { account, userOp } = await userOperationOf({ rpcUrl, owner, calls: [{ to, value: 1n }] })
 * userOp.signature = await account.signUserOperation(userOp)
 */
export async function userOperationOf(
  parameters: UserOperationOfParameters,
): Promise<{ account: ToSimpleAccountReturnType; userOp: UserOperation<'0.7'> }> {
  const client = devnetClient(parameters.rpcUrl)
  const account = await toSimpleAccount({ client, owner: parameters.owner })
  const [sender, nonce, factoryArgs, callData, fees] = await Promise.all([
    account.getAddress(),
    account.getNonce(),
    account.getFactoryArgs(),
    account.encodeCalls(parameters.calls),
    client.estimateFeesPerGas(),
  ])
  const userOp: UserOperation<'0.7'> = {
    sender,
    nonce,
    ...(factoryArgs.factory
      ? { factory: factoryArgs.factory, factoryData: factoryArgs.factoryData }
      : {}),
    callData,
    // A grant of a session writes ~6 storage slots and a selector list: ~230k gas.
    callGasLimit: 400_000n,
    verificationGasLimit: 500_000n,
    preVerificationGas: 60_000n,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    signature: '0x',
  }
  return { account, userOp }
}

/** Options of {@link paymasterFields}. */
export type PaymasterFieldsParameters = {
  rpcUrl: string
  /** The operation to sponsor (its paymaster fields are ignored). */
  userOp: UserOperation<'0.7'>
  /** Who signs the sponsorship: `PAYMASTER_SIGNER` for a valid one. */
  signer: LocalAccount
  /** Last second of the sponsorship; default an hour from now (wall clock). */
  validUntil?: number
  /** The VerifyingPaymaster that sponsors; default `DEVNET_AA.paymaster`. */
  paymaster?: Address
}

/**
 * The paymaster fields of a `VerifyingPaymaster` (`DEVNET_AA.paymaster` unless `paymaster` names
 * another) sponsorship of `userOp`, signed by `signer`. Set them before the account signs: the
 * userOpHash covers them.
 *
 * @example
 * const sponsored = { ...userOp, ...(await paymasterFields({ rpcUrl, userOp, signer })) }
 */
export async function paymasterFields(parameters: PaymasterFieldsParameters) {
  const { rpcUrl, userOp, signer, paymaster = DEVNET_AA.paymaster } = parameters
  const validUntil = parameters.validUntil ?? Math.floor(Date.now() / 1000) + 3600
  const validAfter = 0
  const gas = { paymasterVerificationGasLimit: 100_000n, paymasterPostOpGasLimit: 1n }
  const hash = await devnetClient(rpcUrl).readContract({
    address: paymaster,
    abi: verifyingPaymasterAbi,
    functionName: 'getHash',
    args: [
      toPackedUserOperation({
        ...userOp,
        paymaster,
        paymasterData: '0x',
        ...gas,
      }),
      validUntil,
      validAfter,
    ],
  })
  const signature = await signer.signMessage({ message: { raw: hash } })
  return {
    paymaster,
    paymasterData: concat([
      // VerifyingPaymaster v0.7 reads abi.encode(validUntil, validAfter): two 32-byte words.
      encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [validUntil, validAfter]),
      signature,
    ]),
    ...gas,
  }
}

/** The dev key that sends `handleOps` and is its beneficiary (dev account 9). */
const bundler = () => privateKeyToAccount(DEV_ACCOUNTS[9]!.privateKey)

/**
 * Simulates `handleOps([userOp])` from the bundler key (`eth_call`), as a bundler does before
 * sending: rejects with the EntryPoint's `FailedOp` ("AA24 signature error", …) for an
 * operation it refuses.
 *
 * @example
 * await expect(simulateHandleOps(rpcUrl, userOp)).rejects.toThrow(/AA24 signature error/)
 */
export async function simulateHandleOps(rpcUrl: string, userOp: UserOperation<'0.7'>) {
  const account = bundler()
  return devnetClient(rpcUrl).simulateContract({
    account,
    address: ENTRY_POINT_07,
    abi: entryPoint07Abi,
    functionName: 'handleOps',
    args: [[toPackedUserOperation(userOp)], account.address],
  })
}

/** The `UserOperationEvent` of a bundle of one operation, and its transaction's receipt. */
export type HandleOpsReturnType = {
  receipt: TransactionReceipt
  event: {
    userOpHash: Hex
    sender: Address
    paymaster: Address
    nonce: bigint
    success: boolean
    actualGasCost: bigint
    actualGasUsed: bigint
  }
}

/**
 * Sends `handleOps([userOp])` from dev account 9 (simulated first, so a refused operation
 * rejects with its `FailedOp` and never lands) and answers the receipt and the operation's
 * `UserOperationEvent`.
 *
 * @example
 * const { event } = await handleOps(rpcUrl, userOp)
 * event.success // true when the operation's calls ran
 */
export async function handleOps(
  rpcUrl: string,
  userOp: UserOperation<'0.7'>,
): Promise<HandleOpsReturnType> {
  await simulateHandleOps(rpcUrl, userOp)
  const account = bundler()
  const wallet = createWalletClient({ account, transport: http(rpcUrl) })
  const hash = await wallet.writeContract({
    chain: null,
    address: ENTRY_POINT_07,
    abi: entryPoint07Abi,
    functionName: 'handleOps',
    args: [[toPackedUserOperation(userOp)], account.address],
    gas: 2_000_000n,
  })
  const receipt = await devnetClient(rpcUrl).waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`handleOps ${hash} reverted`)
  const [event] = parseEventLogs({
    abi: entryPoint07Abi,
    logs: receipt.logs,
    eventName: 'UserOperationEvent',
  })
  if (!event) throw new Error(`handleOps ${hash} emitted no UserOperationEvent`)
  return { receipt, event: event.args }
}

/** Options of {@link deployVerifyingPaymaster}. */
export type DeployVerifyingPaymasterParameters = {
  rpcUrl: string
  /** Its `verifyingSigner`. */
  signer: Address
  /** Its EntryPoint deposit, in wei; default 10 ETH. */
  deposit?: bigint
}

/**
 * Deploys another eth-infinitism `VerifyingPaymaster` v0.7 (from dev account 8, the npm
 * artifact, as `DEVNET_AA.paymaster` is) with its own signer and deposit: a paymaster the
 * account's owner never chose.
 *
 * @example
 * const other = await deployVerifyingPaymaster({ rpcUrl, signer: attacker.address })
 */
export async function deployVerifyingPaymaster(
  parameters: DeployVerifyingPaymasterParameters,
): Promise<Address> {
  const { rpcUrl, signer, deposit = 10n ** 19n } = parameters
  const require = createRequire(import.meta.url)
  const { abi, bytecode } =
    require('@account-abstraction/contracts/artifacts/VerifyingPaymaster.json') as {
      abi: Abi
      bytecode: Hex
    }
  const deployer = privateKeyToAccount(DEV_ACCOUNTS[8]!.privateKey)
  const wallet = createWalletClient({ account: deployer, transport: http(rpcUrl) })
  const client = devnetClient(rpcUrl)
  const hash = await wallet.deployContract({
    chain: null,
    abi,
    bytecode,
    args: [ENTRY_POINT_07, signer],
  })
  const { contractAddress } = await client.waitForTransactionReceipt({ hash })
  if (!contractAddress) throw new Error('The second VerifyingPaymaster was not deployed')
  const paymaster = getAddress(contractAddress)
  const funded = await wallet.writeContract({
    chain: null,
    address: paymaster,
    abi: parseAbi(['function deposit() payable']),
    functionName: 'deposit',
    value: deposit,
  })
  await client.waitForTransactionReceipt({ hash: funded })
  return paymaster
}
