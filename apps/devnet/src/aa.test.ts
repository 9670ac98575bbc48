import { createRequire } from 'node:module'
import {
  AA_DEPLOYER,
  BUNDLER_KEYS,
  DEVNET_AA,
  ENTRY_POINT_07,
  PAYMASTER_SIGNER,
  SENDER_CREATOR_07,
} from '@porthole/shared/devnet'
import { toSimpleAccount } from '@porthole/shared/simpleAccount'
import {
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  getContractAddress,
  type Hex,
  http,
  type PrivateKeyAccount,
  parseAbi,
  parseEther,
  parseEventLogs,
  toHex,
  zeroAddress,
} from 'viem'
import {
  entryPoint07Abi,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  AA_FUNDS,
  deployAccountAbstraction,
  ENTRY_POINT_07_SENDER_CREATOR_OFFSETS,
  entryPoint07RuntimeCode,
} from './aa.ts'
import { DEV_ACCOUNTS } from './accounts.ts'
import { type StartAnvilReturnType, startAnvil } from './anvil.ts'
import { devnetChain } from './chain.ts'

const require = createRequire(import.meta.url)
const entryPointArtifact = require('@account-abstraction/contracts/artifacts/EntryPoint.json') as {
  bytecode: Hex
  deployedBytecode: Hex
}

const paymasterAbi = parseAbi([
  'function verifyingSigner() view returns (address)',
  'function owner() view returns (address)',
  'struct PackedUserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; bytes32 accountGasLimits; uint256 preVerificationGas; bytes32 gasFees; bytes paymasterAndData; bytes signature; }',
  'function getHash(PackedUserOperation userOp, uint48 validUntil, uint48 validAfter) view returns (bytes32)',
])

let anvil: StartAnvilReturnType
beforeAll(async () => {
  anvil = await startAnvil({ port: 0, chainId: 31337, silent: true })
})
afterAll(() => anvil?.stop())

const client = () =>
  createPublicClient({
    chain: devnetChain({ chainId: 31337, rpcUrl: anvil.rpcUrl }),
    transport: http(anvil.rpcUrl),
    pollingInterval: 50,
  })

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
        abi: paymasterAbi,
        functionName: 'verifyingSigner',
      }),
    ).toBe(PAYMASTER_SIGNER.address)
    expect(
      await c.readContract({
        address: DEVNET_AA.paymaster,
        abi: paymasterAbi,
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

  /** A user operation creating `owner`'s SimpleAccount and sending 1 wei… to `to`. */
  async function userOperation(owner: PrivateKeyAccount, to: Address, value: bigint) {
    const c = client()
    const account = await toSimpleAccount({ client: c, owner })
    const [sender, nonce, factoryArgs, callData, fees] = await Promise.all([
      account.getAddress(),
      account.getNonce(),
      account.getFactoryArgs(),
      account.encodeCalls([{ to, value }]),
      c.estimateFeesPerGas(),
    ])
    const userOp: UserOperation<'0.7'> = {
      sender,
      nonce,
      factory: factoryArgs.factory!,
      factoryData: factoryArgs.factoryData!,
      callData,
      callGasLimit: 100_000n,
      verificationGasLimit: 500_000n,
      preVerificationGas: 60_000n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      signature: '0x',
    }
    return { account, userOp }
  }

  /** Sends `handleOps` from dev account 9 (the beneficiary) and answers the UserOperationEvent. */
  async function handleOps(userOp: UserOperation<'0.7'>) {
    const wallet = createWalletClient({
      account: privateKeyToAccount(DEV_ACCOUNTS[9]!.privateKey),
      transport: http(anvil.rpcUrl),
    })
    const hash = await wallet.writeContract({
      chain: null,
      address: ENTRY_POINT_07,
      abi: entryPoint07Abi,
      functionName: 'handleOps',
      args: [[toPackedUserOperation(userOp)], wallet.account.address],
      gas: 2_000_000n,
    })
    const receipt = await client().waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    const [event] = parseEventLogs({
      abi: entryPoint07Abi,
      logs: receipt.logs,
      eventName: 'UserOperationEvent',
    })
    return event!.args
  }

  async function paymasterFields(userOp: UserOperation<'0.7'>, signer: PrivateKeyAccount) {
    const validUntil = Math.floor(Date.now() / 1000) + 3600
    const validAfter = 0
    const gas = { paymasterVerificationGasLimit: 100_000n, paymasterPostOpGasLimit: 1n }
    const hash = await client().readContract({
      address: DEVNET_AA.paymaster,
      abi: paymasterAbi,
      functionName: 'getHash',
      args: [
        toPackedUserOperation({
          ...userOp,
          paymaster: DEVNET_AA.paymaster,
          paymasterData: '0x',
          ...gas,
        }),
        validUntil,
        validAfter,
      ],
    })
    const signature = await signer.signMessage({ message: { raw: hash } })
    return {
      paymaster: DEVNET_AA.paymaster,
      paymasterData: concat([
        // VerifyingPaymaster v0.7 reads abi.encode(validUntil, validAfter): two 32-byte words.
        encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [validUntil, validAfter]),
        signature,
      ]),
      ...gas,
    }
  }

  test('a user operation creates a SimpleAccount and runs its call, paid by the account', async () => {
    const c = client()
    const owner = privateKeyToAccount(generatePrivateKey())
    const to = privateKeyToAccount(generatePrivateKey()).address
    const { account, userOp } = await userOperation(owner, to, 12_345n)
    expect(await c.getCode({ address: userOp.sender })).toBeUndefined()
    await c.request({
      method: 'anvil_setBalance' as never,
      params: [userOp.sender, toHex(parseEther('1'))] as never,
    })
    userOp.signature = await account.signUserOperation(userOp)
    const event = await handleOps(userOp)
    expect(event).toMatchObject({ sender: userOp.sender, paymaster: zeroAddress, success: true })
    expect((await c.getCode({ address: userOp.sender }))?.length).toBeGreaterThan(2)
    expect(await c.getBalance({ address: to })).toBe(12_345n)
    expect(await c.getBalance({ address: userOp.sender })).toBeLessThan(parseEther('1') - 12_345n)
  })

  test('with the paymaster, an account holding no ETH is created and runs its call', async () => {
    const c = client()
    const owner = privateKeyToAccount(generatePrivateKey())
    const to = privateKeyToAccount(generatePrivateKey()).address
    const { account, userOp: base } = await userOperation(owner, to, 0n)
    const userOp = {
      ...base,
      ...(await paymasterFields(base, privateKeyToAccount(PAYMASTER_SIGNER.privateKey))),
    }
    userOp.signature = await account.signUserOperation(userOp)
    const before = await c.readContract({
      address: ENTRY_POINT_07,
      abi: entryPoint07Abi,
      functionName: 'balanceOf',
      args: [DEVNET_AA.paymaster],
    })
    const event = await handleOps(userOp)
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
    const { account, userOp: base } = await userOperation(owner, owner.address, 0n)
    const userOp = {
      ...base,
      ...(await paymasterFields(base, privateKeyToAccount(generatePrivateKey()))),
    }
    userOp.signature = await account.signUserOperation(userOp)
    await expect(
      client().simulateContract({
        address: ENTRY_POINT_07,
        abi: entryPoint07Abi,
        functionName: 'handleOps',
        args: [[toPackedUserOperation(userOp)], owner.address],
        account: DEV_ACCOUNTS[9]!.address,
      }),
    ).rejects.toThrow(/AA34 signature error/)
  })
})
