/**
 * The devnet's ERC-4337 stack (v0.7) from the `@account-abstraction/contracts@0.7.0` artifacts:
 * the EntryPoint and its SenderCreator set at their canonical addresses with `anvil_setCode`,
 * then eth-infinitism's SimpleAccountFactory and VerifyingPaymaster deployed by a key of their
 * own (`AA_DEPLOYER`, nonces 0 and 1), so they sit at `DEVNET_AA` on every devnet.
 */
import { createRequire } from 'node:module'
import {
  AA_DEPLOYER,
  BUNDLER_KEYS,
  DEVNET_AA,
  ENTRY_POINT_07,
  PAYMASTER_SIGNER,
  SENDER_CREATOR_07,
} from '@porthole/shared/devnet'
import {
  type Address,
  createPublicClient,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  http,
  isAddressEqual,
  parseAbi,
  parseEther,
  toHex,
} from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import { DeployError } from './deploy.ts'

/** What {@link deployAccountAbstraction} answers: the devnet's ERC-4337 contracts. */
export type DeployAccountAbstractionReturnType = {
  /** EntryPoint v0.7 (`ENTRY_POINT_07`). */
  entryPoint: Address
  /** The EntryPoint's SenderCreator (`SENDER_CREATOR_07`). */
  senderCreator: Address
  /** SimpleAccountFactory v0.7 (`DEVNET_AA.accountFactory`). */
  accountFactory: Address
  /** VerifyingPaymaster v0.7 (`DEVNET_AA.paymaster`), signer `PAYMASTER_SIGNER`. */
  paymaster: Address
}

/** Options of {@link deployAccountAbstraction}. */
export type DeployAccountAbstractionParameters = {
  rpcUrl: string
  /** Receipt polling interval; default 50 ms. */
  pollingIntervalMs?: number
}

/**
 * What the stack holds after {@link deployAccountAbstraction}, in whole ETH: the paymaster's
 * deposit in the EntryPoint, and the balance of each bundler key (`BUNDLER_KEYS`).
 *
 * @example
 * parseEther(AA_FUNDS.paymasterDeposit) // 1000 ETH in wei
 */
export const AA_FUNDS = { paymasterDeposit: '1000', bundlerKey: '1000' } as const

/**
 * Byte offsets in the EntryPoint v0.7 runtime code of its one immutable, the SenderCreator it
 * creates in its constructor (`_senderCreator`): a 32-byte word each, zero in the artifact's
 * `deployedBytecode`. Found by running the creation code and comparing (a unit test does).
 */
export const ENTRY_POINT_07_SENDER_CREATOR_OFFSETS = [3362, 12875] as const

import PortholeSimpleAccountFactory from '../artifacts/PortholeSimpleAccountFactory.json' with {
  type: 'json',
}

const require = createRequire(import.meta.url)
type Artifact = { bytecode: Hex; deployedBytecode: Hex }
const artifact = (name: string) =>
  require(`@account-abstraction/contracts/artifacts/${name}.json`) as Artifact

/**
 * The EntryPoint v0.7 runtime code as the canonical deployment has it: the artifact's
 * `deployedBytecode` with `SENDER_CREATOR_07` written into its immutable (see
 * {@link ENTRY_POINT_07_SENDER_CREATOR_OFFSETS}).
 *
 * @example
 * await client.request({ method: 'anvil_setCode', params: [ENTRY_POINT_07, entryPoint07RuntimeCode()] })
 */
export function entryPoint07RuntimeCode(): Hex {
  const code = artifact('EntryPoint').deployedBytecode.slice(2)
  const word = encodeAbiParameters([{ type: 'address' }], [SENDER_CREATOR_07]).slice(2)
  let patched = code
  for (const offset of ENTRY_POINT_07_SENDER_CREATOR_OFFSETS) {
    const at = offset * 2
    if (!/^0{64}$/.test(code.slice(at, at + 64)))
      throw new DeployError(
        `The EntryPoint artifact has no empty immutable at byte ${offset}: is @account-abstraction/contracts 0.7.0 installed?`,
      )
    patched = patched.slice(0, at) + word + patched.slice(at + 64)
  }
  return `0x${patched}`
}

const paymasterAbi = parseAbi(['function deposit() payable'])

// The factory deploys the account implementation in its constructor: ~3.1M gas with sessions.
const GAS = { factory: 5_000_000n, paymaster: 2_000_000n, deposit: 100_000n }
/** ETH the deployer gets besides the deposit, for gas. */
const GAS_ETH = parseEther('10')

/**
 * Places the ERC-4337 v0.7 stack on a devnet (idempotent: what is there is kept):
 * - the EntryPoint at `ENTRY_POINT_07` and its SenderCreator at `SENDER_CREATOR_07`
 *   (`anvil_setCode`, the EntryPoint's immutable pointing at that SenderCreator);
 * - `AA_DEPLOYER` (ETH by `anvil_setBalance`) deploys SimpleAccountFactory(entryPoint) at its
 *   nonce 0 and VerifyingPaymaster(entryPoint, `PAYMASTER_SIGNER`) at nonce 1 (`DEVNET_AA`), and
 *   tops the paymaster's EntryPoint deposit up to {@link AA_FUNDS}`.paymasterDeposit`;
 * - the bundler keys (`BUNDLER_KEYS`) are topped up to {@link AA_FUNDS}`.bundlerKey` each.
 *
 * @example
 * const aa = await deployAccountAbstraction({ rpcUrl: 'http://127.0.0.1:8545' })
 * aa.paymaster // '0x787c01675e3a719eECc406C7Fe05f8F0Ac25A34C'
 */
export async function deployAccountAbstraction(
  parameters: DeployAccountAbstractionParameters,
): Promise<DeployAccountAbstractionReturnType> {
  const { rpcUrl, pollingIntervalMs = 50 } = parameters
  const client = createPublicClient({ transport: http(rpcUrl), pollingInterval: pollingIntervalMs })
  const anvil = (method: string, params: unknown[]) =>
    client.request({ method: method as never, params: params as never })
  await Promise.all([
    anvil('anvil_setCode', [SENDER_CREATOR_07, artifact('SenderCreator').deployedBytecode]),
    anvil('anvil_setCode', [ENTRY_POINT_07, entryPoint07RuntimeCode()]),
  ])

  const deployer = privateKeyToAccount(AA_DEPLOYER.privateKey)
  const deposit = parseEther(AA_FUNDS.paymasterDeposit)
  const [chainId, nonce, fees, factoryCode, paymasterCode, deposited] = await Promise.all([
    client.getChainId(),
    client.getTransactionCount({ address: deployer.address, blockTag: 'pending' }),
    client.estimateFeesPerGas(),
    client.getCode({ address: DEVNET_AA.accountFactory }),
    client.getCode({ address: DEVNET_AA.paymaster }),
    client.readContract({
      address: ENTRY_POINT_07,
      abi: entryPoint07Abi,
      functionName: 'balanceOf',
      args: [DEVNET_AA.paymaster],
    }),
  ])
  const missing = {
    factory: !factoryCode || factoryCode === '0x',
    paymaster: !paymasterCode || paymasterCode === '0x',
  }
  const topUp = deposit > deposited ? deposit - deposited : 0n

  const txs: { to?: Address; data: Hex; gas: bigint; value?: bigint; expect?: Address }[] = []
  if (missing.factory) {
    expectNonce(nonce, 0, 'SimpleAccountFactory', DEVNET_AA.accountFactory)
    txs.push({
      data: deployData('SimpleAccountFactory', [ENTRY_POINT_07]),
      gas: GAS.factory,
      expect: DEVNET_AA.accountFactory,
    })
  }
  if (missing.paymaster) {
    expectNonce(nonce + txs.length, 1, 'VerifyingPaymaster', DEVNET_AA.paymaster)
    txs.push({
      data: deployData('VerifyingPaymaster', [ENTRY_POINT_07, PAYMASTER_SIGNER.address]),
      gas: GAS.paymaster,
      expect: DEVNET_AA.paymaster,
    })
  }
  if (topUp > 0n)
    txs.push({
      to: DEVNET_AA.paymaster,
      data: encodeFunctionData({ abi: paymasterAbi, functionName: 'deposit' }),
      gas: GAS.deposit,
      value: topUp,
    })

  if (txs.length > 0) {
    await anvil('anvil_setBalance', [deployer.address, toHex(topUp + GAS_ETH)])
    // Consecutive nonces sent at once: anvil mines them in order.
    const hashes: Hex[] = []
    for (const [index, tx] of txs.entries())
      hashes.push(
        await client.sendRawTransaction({
          serializedTransaction: await deployer.signTransaction({
            type: 'eip1559',
            chainId,
            nonce: nonce + index,
            ...(tx.to ? { to: tx.to } : {}),
            data: tx.data,
            gas: tx.gas,
            ...(tx.value ? { value: tx.value } : {}),
            maxFeePerGas: fees.maxFeePerGas * 2n,
            maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
          }),
        }),
      )
    const receipts = await Promise.all(
      hashes.map((hash) =>
        client.waitForTransactionReceipt({ hash, pollingInterval: pollingIntervalMs }),
      ),
    )
    for (const [index, receipt] of receipts.entries()) {
      const { expect } = txs[index]!
      if (receipt.status !== 'success')
        throw new DeployError(
          `ERC-4337 setup transaction ${receipt.transactionHash} reverted${expect ? ` (deploying ${expect})` : ''}`,
        )
      if (expect && !(receipt.contractAddress && isAddressEqual(receipt.contractAddress, expect)))
        throw new DeployError(
          `ERC-4337 contract deployed at ${receipt.contractAddress ?? 'nowhere'}, expected ${expect}`,
        )
    }
  }

  const bundlerFunds = parseEther(AA_FUNDS.bundlerKey)
  await Promise.all(
    [BUNDLER_KEYS.executor.address, BUNDLER_KEYS.utility.address].map(async (address) => {
      if ((await client.getBalance({ address })) < bundlerFunds)
        await anvil('anvil_setBalance', [address, toHex(bundlerFunds)])
    }),
  )
  return {
    entryPoint: ENTRY_POINT_07,
    senderCreator: SENDER_CREATOR_07,
    accountFactory: DEVNET_AA.accountFactory,
    paymaster: DEVNET_AA.paymaster,
  }
}

function expectNonce(nonce: number, wanted: number, name: string, address: Address): void {
  if (nonce !== wanted)
    throw new DeployError(
      `The ERC-4337 deployer (AA_DEPLOYER) is at nonce ${nonce}, not ${wanted}: the ${name} would not land at ${address}`,
    )
  // Both addresses follow from the deployer's nonces (a unit test checks the constants).
  if (
    !isAddressEqual(
      getContractAddress({ from: AA_DEPLOYER.address, nonce: BigInt(wanted) }),
      address,
    )
  )
    throw new DeployError(`DEVNET_AA's ${name} is not AA_DEPLOYER's nonce ${wanted} address`)
}

function deployData(name: string, args: Address[]): Hex {
  const encoded = encodeAbiParameters(
    args.map(() => ({ type: 'address' })),
    args,
  )
  // The account factory is our own build (eth-infinitism's SimpleAccount v0.7 with ERC-1271
  // added, `contracts/PortholeSimpleAccount.sol`): the stock account cannot verify signatures.
  const bytecode =
    name === 'SimpleAccountFactory'
      ? (PortholeSimpleAccountFactory.bytecode as Hex)
      : artifact(name).bytecode
  return `${bytecode}${encoded.slice(2)}` as Hex
}
