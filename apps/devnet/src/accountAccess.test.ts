/**
 * Who may call `PortholeSimpleAccount`'s state-changing functions besides the session ones
 * (`sessions.test.ts`): a stranger with a funded key, on a real anvil, against an account the
 * factory deployed for an owner. Each call that could move the account's assets, its deposit or
 * its code reverts; `addDeposit` only adds the caller's own ETH to the account's deposit.
 */
import { DEVNET_AA } from '@porthole/shared/devnet'
import { type Address, createWalletClient, type Hex, http, parseEther, zeroAddress } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { deployAccountAbstraction } from './aa.ts'
import { portholeSimpleAccountAbi } from './abi/portholeSimpleAccount.ts'
import { portholeSimpleAccountFactoryAbi } from './abi/portholeSimpleAccountFactory.ts'
import { DEV_ACCOUNTS } from './accounts.ts'
import { type StartAnvilReturnType, startAnvil } from './anvil.ts'
import { devnetClient } from './testing/userOperations.ts'

let anvil: StartAnvilReturnType
let account: Address
const owner = privateKeyToAccount(generatePrivateKey())
const stranger = privateKeyToAccount(DEV_ACCOUNTS[5]!.privateKey)

beforeAll(async () => {
  anvil = await startAnvil({ port: 0, chainId: 31337, silent: true })
  await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl })
  const client = devnetClient(anvil.rpcUrl)
  const wallet = createWalletClient({ account: stranger, transport: http(anvil.rpcUrl) })
  // Anyone may deploy an account for an owner; it is the owner's all the same.
  const hash = await wallet.writeContract({
    address: DEVNET_AA.accountFactory,
    abi: portholeSimpleAccountFactoryAbi,
    functionName: 'createAccount',
    args: [owner.address, 0n],
    chain: null,
  })
  expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')
  account = await client.readContract({
    address: DEVNET_AA.accountFactory,
    abi: portholeSimpleAccountFactoryAbi,
    functionName: 'getAddress',
    args: [owner.address, 0n],
  })
  const fund = await wallet.sendTransaction({ to: account, value: parseEther('1'), chain: null })
  await client.waitForTransactionReceipt({ hash: fund })
}, 60_000)
afterAll(() => anvil?.stop())

/** The stranger's call of `functionName`, simulated: its revert reason, or 'succeeded'. */
async function strangerCalls(functionName: string, args: readonly unknown[], value = 0n) {
  try {
    await devnetClient(anvil.rpcUrl).simulateContract({
      account: stranger,
      address: account,
      abi: portholeSimpleAccountAbi,
      functionName: functionName as never,
      args: args as never,
      value,
    })
    return 'succeeded'
  } catch (error) {
    return (error as Error).message
  }
}

const packedUserOperation = {
  sender: zeroAddress,
  nonce: 0n,
  initCode: '0x' as Hex,
  callData: '0x' as Hex,
  accountGasLimits: `0x${'00'.repeat(32)}` as Hex,
  preVerificationGas: 0n,
  gasFees: `0x${'00'.repeat(32)}` as Hex,
  paymasterAndData: '0x' as Hex,
  signature: '0x' as Hex,
}

test.each([
  ['execute', () => [stranger.address, parseEther('1'), '0x'], /not Owner or EntryPoint/],
  [
    'executeBatch',
    () => [[stranger.address], [parseEther('1')], ['0x']],
    /not Owner or EntryPoint/,
  ],
  ['withdrawDepositTo', () => [stranger.address, 1n], /only owner/],
  ['upgradeToAndCall', () => [stranger.address, '0x'], /only owner/],
  ['initialize', () => [stranger.address], /InvalidInitialization|revert/],
  [
    'validateUserOp',
    () => [packedUserOperation, `0x${'11'.repeat(32)}`, 1n],
    /not from EntryPoint/,
  ],
  [
    'grantSession',
    () => [
      stranger.address,
      stranger.address,
      ['0xa9059cbb'],
      zeroAddress,
      1n,
      0,
      2 ** 40,
      1,
      stranger.address,
    ],
    /only owner/,
  ],
  ['revokeSession', () => [stranger.address], /only owner/],
] as const)('a stranger calling %s reverts', async (name, args, reason) => {
  expect(await strangerCalls(name, args())).toMatch(reason)
})

test('addDeposit from a stranger only adds the stranger’s ETH to the account’s deposit', async () => {
  const client = devnetClient(anvil.rpcUrl)
  const depositOf = () =>
    client.readContract({
      address: DEVNET_AA.entryPoint,
      abi: entryPoint07Abi,
      functionName: 'balanceOf',
      args: [account],
    })
  const before = {
    deposit: await depositOf(),
    balance: await client.getBalance({ address: account }),
  }
  const wallet = createWalletClient({ account: stranger, transport: http(anvil.rpcUrl) })
  const hash = await wallet.writeContract({
    address: account,
    abi: portholeSimpleAccountAbi,
    functionName: 'addDeposit',
    value: parseEther('0.01'),
    chain: null,
  })
  expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')
  expect(await depositOf()).toBe(before.deposit + parseEther('0.01'))
  expect(await client.getBalance({ address: account })).toBe(before.balance)
})
