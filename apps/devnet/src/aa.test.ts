import { createRequire } from 'node:module'
import {
  AA_DEPLOYER,
  BUNDLER_KEYS,
  DEVNET_AA,
  ENTRY_POINT_07,
  PAYMASTER_SIGNER,
  SENDER_CREATOR_07,
} from '@porthole/shared/devnet'
import { getContractAddress, type Hex, parseEther, toHex, zeroAddress } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  AA_FUNDS,
  deployAccountAbstraction,
  ENTRY_POINT_07_SENDER_CREATOR_OFFSETS,
  entryPoint07RuntimeCode,
} from './aa.ts'
import { type StartAnvilReturnType, startAnvil } from './anvil.ts'
import {
  devnetClient,
  handleOps,
  paymasterFields,
  simulateHandleOps,
  userOperationOf,
  verifyingPaymasterAbi,
} from './testing/userOperations.ts'

const require = createRequire(import.meta.url)
const entryPointArtifact = require('@account-abstraction/contracts/artifacts/EntryPoint.json') as {
  bytecode: Hex
  deployedBytecode: Hex
}

let anvil: StartAnvilReturnType
beforeAll(async () => {
  anvil = await startAnvil({ port: 0, chainId: 31337, silent: true })
})
afterAll(() => anvil?.stop())

const client = () => devnetClient(anvil.rpcUrl)

test('the SenderCreator immutable sits at the recorded offsets of the EntryPoint runtime', async () => {
  // Run the creation code (eth_call from the zero address): the runtime it returns carries the
  // SenderCreator its constructor created, at the EntryPoint's nonce 1.
  const { data } = await client().call({ data: entryPointArtifact.bytecode })
  const created = getContractAddress({
    from: getContractAddress({ from: zeroAddress, nonce: 0n }),
    nonce: 1n,
  })
  const artifact = entryPointArtifact.deployedBytecode.slice(2)
  const runtime = data!.slice(2)
  expect(runtime.length).toBe(artifact.length)
  const differing: number[] = []
  for (let i = 0; i < artifact.length; i += 2)
    if (artifact.slice(i, i + 2) !== runtime.slice(i, i + 2)) differing.push(i / 2)
  const expected = ENTRY_POINT_07_SENDER_CREATOR_OFFSETS.flatMap((offset) =>
    Array.from({ length: 20 }, (_, i) => offset + 12 + i),
  )
  expect(differing).toEqual(expected)
  for (const offset of ENTRY_POINT_07_SENDER_CREATOR_OFFSETS)
    expect(`0x${runtime.slice(offset * 2 + 24, offset * 2 + 64)}`).toBe(created.toLowerCase())
  // Our patch is that runtime with the canonical SenderCreator instead.
  const ours = entryPoint07RuntimeCode()
  expect(ours.toLowerCase()).toBe(
    data!
      .toLowerCase()
      .replaceAll(created.slice(2).toLowerCase(), SENDER_CREATOR_07.slice(2).toLowerCase()),
  )
})

test('the AA addresses follow from the deployer key', () => {
  expect(privateKeyToAccount(AA_DEPLOYER.privateKey).address).toBe(AA_DEPLOYER.address)
  expect(getContractAddress({ from: AA_DEPLOYER.address, nonce: 0n })).toBe(
    DEVNET_AA.accountFactory,
  )
  expect(getContractAddress({ from: AA_DEPLOYER.address, nonce: 1n })).toBe(DEVNET_AA.paymaster)
  expect(privateKeyToAccount(PAYMASTER_SIGNER.privateKey).address).toBe(PAYMASTER_SIGNER.address)
  expect(privateKeyToAccount(BUNDLER_KEYS.executor.privateKey).address).toBe(
    BUNDLER_KEYS.executor.address,
  )
  expect(privateKeyToAccount(BUNDLER_KEYS.utility.privateKey).address).toBe(
    BUNDLER_KEYS.utility.address,
  )
})

describe('on a devnet', () => {
  beforeAll(async () => {
    const started = performance.now()
    expect(await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl })).toEqual({
      entryPoint: ENTRY_POINT_07,
      senderCreator: SENDER_CREATOR_07,
      accountFactory: DEVNET_AA.accountFactory,
      paymaster: DEVNET_AA.paymaster,
    })
    console.info(`ERC-4337 stack placed in ${Math.round(performance.now() - started)} ms`)
  })

  test('places the contracts at the fixed addresses, funded, once', async () => {
    const c = client()
    expect(await c.getCode({ address: ENTRY_POINT_07 })).toBe(entryPoint07RuntimeCode())
    expect((await c.getCode({ address: SENDER_CREATOR_07 }))?.length).toBeGreaterThan(2)
    expect(
      await c.readContract({
        address: DEVNET_AA.paymaster,
        abi: verifyingPaymasterAbi,
        functionName: 'verifyingSigner',
      }),
    ).toBe(PAYMASTER_SIGNER.address)
    expect(
      await c.readContract({
        address: DEVNET_AA.paymaster,
        abi: verifyingPaymasterAbi,
        functionName: 'owner',
      }),
    ).toBe(AA_DEPLOYER.address)
    const deposit = () =>
      c.readContract({
        address: ENTRY_POINT_07,
        abi: entryPoint07Abi,
        functionName: 'balanceOf',
        args: [DEVNET_AA.paymaster],
      })
    expect(await deposit()).toBe(parseEther(AA_FUNDS.paymasterDeposit))
    for (const key of [BUNDLER_KEYS.executor, BUNDLER_KEYS.utility])
      expect(await c.getBalance({ address: key.address })).toBe(parseEther(AA_FUNDS.bundlerKey))
    // Again: nothing is sent, nothing changes.
    const block = await c.getBlockNumber()
    await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl })
    expect(await c.getBlockNumber()).toBe(block)
    expect(await deposit()).toBe(parseEther(AA_FUNDS.paymasterDeposit))
  })

  test('a user operation creates a SimpleAccount and runs its call, paid by the account', async () => {
    const c = client()
    const owner = privateKeyToAccount(generatePrivateKey())
    const to = privateKeyToAccount(generatePrivateKey()).address
    const { account, userOp } = await userOperationOf({
      rpcUrl: anvil.rpcUrl,
      owner,
      calls: [{ to, value: 12_345n }],
    })
    expect(await c.getCode({ address: userOp.sender })).toBeUndefined()
    await c.request({
      method: 'anvil_setBalance' as never,
      params: [userOp.sender, toHex(parseEther('1'))] as never,
    })
    userOp.signature = await account.signUserOperation(userOp)
    const { event } = await handleOps(anvil.rpcUrl, userOp)
    expect(event).toMatchObject({ sender: userOp.sender, paymaster: zeroAddress, success: true })
    expect((await c.getCode({ address: userOp.sender }))?.length).toBeGreaterThan(2)
    expect(await c.getBalance({ address: to })).toBe(12_345n)
    expect(await c.getBalance({ address: userOp.sender })).toBeLessThan(parseEther('1') - 12_345n)
  })

  test('with the paymaster, an account holding no ETH is created and runs its call', async () => {
    const c = client()
    const owner = privateKeyToAccount(generatePrivateKey())
    const to = privateKeyToAccount(generatePrivateKey()).address
    const { account, userOp: base } = await userOperationOf({
      rpcUrl: anvil.rpcUrl,
      owner,
      calls: [{ to, value: 0n }],
    })
    const userOp = {
      ...base,
      ...(await paymasterFields({
        rpcUrl: anvil.rpcUrl,
        userOp: base,
        signer: privateKeyToAccount(PAYMASTER_SIGNER.privateKey),
      })),
    }
    userOp.signature = await account.signUserOperation(userOp)
    const before = await c.readContract({
      address: ENTRY_POINT_07,
      abi: entryPoint07Abi,
      functionName: 'balanceOf',
      args: [DEVNET_AA.paymaster],
    })
    const { event } = await handleOps(anvil.rpcUrl, userOp)
    expect(event).toMatchObject({ paymaster: DEVNET_AA.paymaster, success: true })
    expect(await c.getBalance({ address: userOp.sender })).toBe(0n)
    expect(
      await c.readContract({
        address: ENTRY_POINT_07,
        abi: entryPoint07Abi,
        functionName: 'balanceOf',
        args: [DEVNET_AA.paymaster],
      }),
    ).toBe(before - event.actualGasCost)
  })

  test('the paymaster refuses a sponsorship signed by another key', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const { account, userOp: base } = await userOperationOf({
      rpcUrl: anvil.rpcUrl,
      owner,
      calls: [{ to: owner.address, value: 0n }],
    })
    const userOp = {
      ...base,
      ...(await paymasterFields({
        rpcUrl: anvil.rpcUrl,
        userOp: base,
        signer: privateKeyToAccount(generatePrivateKey()),
      })),
    }
    userOp.signature = await account.signUserOperation(userOp)
    await expect(simulateHandleOps(anvil.rpcUrl, userOp)).rejects.toThrow(/AA34 signature error/)
  })
})
