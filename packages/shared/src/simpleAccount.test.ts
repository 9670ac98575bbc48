import EntryPoint from '@account-abstraction/contracts/artifacts/EntryPoint.json' with {
  type: 'json',
}
import {
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  isErc6492Signature,
  keccak256,
  parseEther,
  recoverMessageAddress,
  size,
  slice,
  type TypedDataDefinition,
  toBytes,
  toFunctionSelector,
  toHex,
  zeroAddress,
} from 'viem'
import {
  entryPoint07Abi,
  getUserOperationHash,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
// The devnet's compiled account and factory (apps/devnet/contracts/PortholeSimpleAccount.sol).
import Account from '../../../apps/devnet/artifacts/PortholeSimpleAccount.json' with {
  type: 'json',
}
import Factory from '../../../apps/devnet/artifacts/PortholeSimpleAccountFactory.json' with {
  type: 'json',
}
import { ENTRY_POINT_07 } from './devnet.js'
import {
  encodeSessionSignature,
  InvalidSessionKeyError,
  InvalidSessionSignatureError,
  portholeSessionsAbi,
  SESSION_MAGIC,
  type SimpleAccountOwner,
  sessionNonceKey,
  sessionStubSignature,
  simpleAccountAbi,
  simpleAccountFactoryAbi,
  toSimpleAccount,
} from './simpleAccount.js'

/**
 * The devnet app's anvil launcher and dev keys, loaded at run time by name: a package's types
 * never depend on an app's.
 */
type Devnet = {
  startAnvil(parameters: { port: number; chainId: number; silent?: boolean }): Promise<{
    rpcUrl: string
    stop(): Promise<void>
  }>
  DEV_ACCOUNTS: readonly { address: Address; privateKey: Hex }[]
}
const devnetModule = '@porthole/devnet'
const { startAnvil, DEV_ACCOUNTS } = (await import(/* @vite-ignore */ devnetModule)) as Devnet
const dev = (i: number) => DEV_ACCOUNTS[i] as { address: Address; privateKey: Hex }

const chain = defineChain({
  id: 31337,
  name: 'Test devnet',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [] } },
})
const bundlerKey = privateKeyToAccount(dev(9).privateKey)
let anvil: Awaited<ReturnType<Devnet['startAnvil']>>
let factoryAddress: Address

const client = () =>
  createPublicClient({ chain, transport: http(anvil.rpcUrl), pollingInterval: 50 })
const wallet = () =>
  createWalletClient({ chain, account: bundlerKey, transport: http(anvil.rpcUrl) })

async function deploy(bytecode: Hex): Promise<Address> {
  const hash = await wallet().deployContract({ abi: [], bytecode })
  const receipt = await client().waitForTransactionReceipt({ hash })
  if (!receipt.contractAddress) throw new Error('deployment failed')
  return receipt.contractAddress
}

/** An owner backed by a key this test holds, as the wallet's Worker backs it. */
function ownerOf(key: Hex): SimpleAccountOwner & { signs: string[] } {
  const account = privateKeyToAccount(key)
  const signs: string[] = []
  return {
    address: account.address,
    signs,
    signMessage: ({ message }) => {
      signs.push('message')
      return account.signMessage({ message })
    },
    signTypedData: (typed) => {
      signs.push('typedData')
      return account.signTypedData(typed)
    },
  }
}

/** Sends `userOperation` through EntryPoint.handleOps from a funded key, as a bundler would. */
async function handleOps(userOperation: UserOperation<'0.7'>) {
  // Simulated first, as a bundler does: a refused operation never reaches the chain.
  const { request } = await client().simulateContract({
    account: bundlerKey,
    address: ENTRY_POINT_07,
    abi: entryPoint07Abi,
    functionName: 'handleOps',
    args: [[toPackedUserOperation(userOperation)], bundlerKey.address],
  })
  const hash = await wallet().writeContract({ ...request, gas: 3_000_000n })
  return client().waitForTransactionReceipt({ hash })
}

/** A signed user operation of `account` running `calls`, paying its own gas. */
async function userOperationOf(
  account: Awaited<ReturnType<typeof toSimpleAccount>>,
  calls: { to: Address; value?: bigint; data?: Hex }[],
): Promise<UserOperation<'0.7'>> {
  const { factory, factoryData } = await account.getFactoryArgs()
  const unsigned = {
    sender: account.address,
    nonce: await account.getNonce(),
    ...(factory ? { factory, factoryData } : {}),
    callData: await account.encodeCalls(calls),
    callGasLimit: 300_000n,
    verificationGasLimit: 600_000n,
    preVerificationGas: 60_000n,
    maxFeePerGas: 3_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    signature: '0x' as Hex,
  } satisfies UserOperation<'0.7'>
  return { ...unsigned, signature: await account.signUserOperation(unsigned) }
}

const typedData = {
  domain: { name: 'Porthole Test', version: '1', chainId: 31337, verifyingContract: zeroAddress },
  types: {
    Order: [
      { name: 'id', type: 'uint256' },
      { name: 'note', type: 'string' },
    ],
  },
  primaryType: 'Order',
  message: { id: 7n, note: 'two coffees' },
} as const satisfies TypedDataDefinition

beforeAll(async () => {
  anvil = await startAnvil({ port: 0, chainId: 31337, silent: true })
  // EntryPoint v0.7 at its canonical address: the runtime code of a normal deployment (its
  // SenderCreator is the one that deployment made).
  const deployed = await deploy(EntryPoint.bytecode as Hex)
  const code = await client().getCode({ address: deployed })
  await client().request({
    method: 'anvil_setCode' as never,
    params: [ENTRY_POINT_07, code] as never,
  })
  factoryAddress = await deploy(
    encodeDeployData({
      abi: Factory.abi,
      bytecode: Factory.bytecode as Hex,
      args: [ENTRY_POINT_07],
    }),
  )
}, 60_000)
afterAll(() => anvil?.stop())

describe('a SimpleAccount v0.7 through viem', () => {
  test('the address is the factory’s counterfactual address for the owner (salt 0); nothing is deployed yet', async () => {
    const owner = ownerOf(generatePrivateKey())
    const account = await toSimpleAccount({ client: client(), owner, factoryAddress })
    const expected = await client().readContract({
      address: factoryAddress,
      abi: simpleAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owner.address, 0n],
    })
    expect(account.address).toBe(expected)
    expect(account.address).not.toBe(owner.address)
    expect(account.owner).toBe(owner.address)
    // Another owner, another account; another salt, another account.
    const other = await toSimpleAccount({
      client: client(),
      owner: ownerOf(generatePrivateKey()),
      factoryAddress,
    })
    expect(other.address).not.toBe(account.address)
    const salted = await toSimpleAccount({ client: client(), owner, factoryAddress, salt: 1n })
    expect(salted.address).not.toBe(account.address)
    expect(await account.isDeployed()).toBe(false)
    const { factory, factoryData } = await account.getFactoryArgs()
    expect(factory).toBe(factoryAddress)
    expect(factoryData).toBe(
      encodeFunctionData({
        abi: simpleAccountFactoryAbi,
        functionName: 'createAccount',
        args: [owner.address, 0n],
      }),
    )
    expect(await account.getNonce()).toBe(0n)
  })

  test('one call encodes as execute, several as executeBatch (0.7: three arrays), and decode back', async () => {
    const account = await toSimpleAccount({
      client: client(),
      owner: ownerOf(generatePrivateKey()),
      factoryAddress,
    })
    const one = [{ to: dev(1).address, value: 5n, data: '0x' as Hex }]
    const single = await account.encodeCalls(one)
    expect(single.slice(0, 10)).toBe('0xb61d27f6') // execute(address,uint256,bytes)
    expect(await account.decodeCalls?.(single)).toEqual(one)
    const two = [
      { to: dev(1).address, value: 0n, data: '0x1234' as Hex },
      { to: dev(2).address, value: 9n, data: '0x' as Hex },
    ]
    const batch = await account.encodeCalls(two)
    expect(batch.slice(0, 10)).toBe('0x47e1da2a') // executeBatch(address[],uint256[],bytes[])
    expect(await account.decodeCalls?.(batch)).toEqual(two)
  })

  test('before deployment, messages and typed data verify with viem through ERC-6492', async () => {
    const owner = ownerOf(generatePrivateKey())
    const account = await toSimpleAccount({ client: client(), owner, factoryAddress })
    const signature = await account.signMessage({ message: 'Sign in to Porthole' })
    expect(isErc6492Signature(signature)).toBe(true)
    expect(owner.signs).toEqual(['typedData']) // the replay-safe hash, never the bare message
    expect(
      await client().verifyMessage({
        address: account.address,
        message: 'Sign in to Porthole',
        signature,
      }),
    ).toBe(true)
    expect(
      await client().verifyMessage({ address: account.address, message: 'Other', signature }),
    ).toBe(false)
    const typed = await account.signTypedData(typedData)
    expect(isErc6492Signature(typed)).toBe(true)
    expect(
      await client().verifyTypedData({ ...typedData, address: account.address, signature: typed }),
    ).toBe(true)
    expect(
      await client().verifyTypedData({
        ...typedData,
        message: { id: 8n, note: 'two coffees' },
        address: account.address,
        signature: typed,
      }),
    ).toBe(false)
    // Verification deploys nothing: it is a simulation.
    expect(await client().getCode({ address: account.address })).toBeUndefined()
  })

  test('a user operation deploys the account and runs its calls; the nonce moves on', async () => {
    const owner = ownerOf(generatePrivateKey())
    const account = await toSimpleAccount({ client: client(), owner, factoryAddress })
    await client().request({
      method: 'anvil_setBalance' as never,
      params: [account.address, toHex(parseEther('1'))] as never,
    })
    const friend = privateKeyToAccount(generatePrivateKey()).address
    const stranger = privateKeyToAccount(generatePrivateKey()).address
    const op = await userOperationOf(account, [
      { to: friend, value: parseEther('0.1') },
      { to: stranger, value: parseEther('0.2') },
    ])
    // The owner signed the EIP-191 hash of the userOpHash.
    const userOpHash = getUserOperationHash({
      chainId: 31337,
      entryPointAddress: ENTRY_POINT_07,
      entryPointVersion: '0.7',
      userOperation: op,
    })
    expect(
      await client().verifyMessage({
        address: owner.address,
        message: { raw: userOpHash },
        signature: op.signature,
      }),
    ).toBe(true)
    const receipt = await handleOps(op)
    expect(receipt.status).toBe('success')
    expect(await client().getBalance({ address: friend })).toBe(parseEther('0.1'))
    expect(await client().getBalance({ address: stranger })).toBe(parseEther('0.2'))
    expect(await account.isDeployed()).toBe(true)
    expect(
      await client().readContract({
        address: account.address,
        abi: simpleAccountAbi,
        functionName: 'owner',
      }),
    ).toBe(owner.address)
    expect(await account.getNonce()).toBe(1n)
    expect(await account.getFactoryArgs()).toEqual({ factory: undefined, factoryData: undefined })
    // A second operation, a single call, without init code.
    const again = await userOperationOf(account, [{ to: friend, value: 1n }])
    expect(again.factory).toBeUndefined()
    expect((await handleOps(again)).status).toBe('success')
    expect(await client().getBalance({ address: friend })).toBe(parseEther('0.1') + 1n)
    expect(await account.getNonce()).toBe(2n)
  })

  test('a user operation signed by another key is refused by the EntryPoint', async () => {
    const owner = ownerOf(generatePrivateKey())
    const account = await toSimpleAccount({ client: client(), owner, factoryAddress })
    await client().request({
      method: 'anvil_setBalance' as never,
      params: [account.address, toHex(parseEther('1'))] as never,
    })
    const op = await userOperationOf(account, [{ to: dev(3).address, value: 1n }])
    const impostor = await toSimpleAccount({
      client: client(),
      owner: ownerOf(generatePrivateKey()),
      factoryAddress,
      address: account.address,
    })
    const forged = { ...op, signature: await impostor.signUserOperation(op) }
    await expect(handleOps(forged)).rejects.toThrow(/AA24 signature error/)
    expect(await account.isDeployed()).toBe(false)
  })

  test('after deployment, signatures are plain ERC-1271 and verify with viem; the owner’s own signature does not pass as the account’s', async () => {
    const key = generatePrivateKey()
    const owner = ownerOf(key)
    const account = await toSimpleAccount({ client: client(), owner, factoryAddress })
    await client().request({
      method: 'anvil_setBalance' as never,
      params: [account.address, toHex(parseEther('1'))] as never,
    })
    // Deploy with a call that does nothing (0 wei to nobody).
    expect((await handleOps(await userOperationOf(account, [{ to: zeroAddress }]))).status).toBe(
      'success',
    )
    const message = 'Sign in to Porthole'
    const signature = await account.signMessage({ message })
    expect(isErc6492Signature(signature)).toBe(false)
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/)
    expect(await client().verifyMessage({ address: account.address, message, signature })).toBe(
      true,
    )
    const typed = await account.signTypedData(typedData)
    expect(
      await client().verifyTypedData({ ...typedData, address: account.address, signature: typed }),
    ).toBe(true)
    // The owner's plain personal_sign of the same message is the EOA's signature, not the
    // account's (replay-safe hash).
    const plain = await privateKeyToAccount(key).signMessage({ message })
    expect(
      await client().verifyMessage({ address: account.address, message, signature: plain }),
    ).toBe(false)
    // Another account of the same owner does not accept this account's signature.
    const sibling = await toSimpleAccount({ client: client(), owner, factoryAddress, salt: 1n })
    await client().request({
      method: 'anvil_setBalance' as never,
      params: [sibling.address, toHex(parseEther('1'))] as never,
    })
    await handleOps(await userOperationOf(sibling, [{ to: zeroAddress }]))
    expect(await client().verifyMessage({ address: sibling.address, message, signature })).toBe(
      false,
    )
  })
})

describe('session keys', () => {
  const key = privateKeyToAccount(generatePrivateKey())

  test('SESSION_MAGIC is bytes4(keccak256("PortholeSession")) and every ABI entry is the compiled contract’s', () => {
    expect(SESSION_MAGIC).toBe(slice(keccak256(toBytes('PortholeSession')), 0, 4))
    const strip = (entry: object): unknown =>
      JSON.parse(JSON.stringify(entry, (k, v) => (k === 'internalType' ? undefined : v)))
    const compiled = (Account.abi as object[]).map(strip)
    for (const entry of portholeSessionsAbi) expect(compiled).toContainEqual(strip(entry))
    expect(
      encodeFunctionData({
        abi: portholeSessionsAbi,
        functionName: 'revokeSession',
        args: [key.address],
      }).slice(0, 10),
    ).toBe(toFunctionSelector('revokeSession(address)'))
  })

  test('the nonce key is the session key’s address as a number: a lane of its own', () => {
    expect(sessionNonceKey(key.address)).toBe(BigInt(key.address))
    expect(sessionNonceKey(key.address) < 2n ** 192n).toBe(true)
    expect(sessionNonceKey(key.address.toLowerCase() as Address)).toBe(BigInt(key.address))
    expect(() => sessionNonceKey('0x1234')).toThrow(InvalidSessionKeyError)
  })

  test('a session signature is magic ‖ key ‖ the 65-byte signature (89 bytes), as the account slices it', async () => {
    const hash = keccak256(toBytes('user operation'))
    const signature = await key.signMessage({ message: { raw: hash } })
    const encoded = encodeSessionSignature(key.address, signature)
    expect(size(encoded)).toBe(89)
    expect(slice(encoded, 0, 4)).toBe(SESSION_MAGIC)
    expect(getAddress(slice(encoded, 4, 24))).toBe(key.address)
    expect(slice(encoded, 24)).toBe(signature.toLowerCase())
    expect(
      await recoverMessageAddress({ message: { raw: hash }, signature: slice(encoded, 24) }),
    ).toBe(key.address)
    expect(() => encodeSessionSignature(key.address, slice(signature, 0, 64))).toThrow(
      InvalidSessionSignatureError,
    )
    expect(() => encodeSessionSignature(key.address, encoded)).toThrow(InvalidSessionSignatureError)
    expect(() => encodeSessionSignature('0xabc', signature)).toThrow(InvalidSessionKeyError)
  })

  test('the stub signature has the real shape: a low-s ECDSA part that recovers to someone else', async () => {
    const stub = sessionStubSignature(key.address)
    expect(size(stub)).toBe(89)
    expect(slice(stub, 0, 24)).toBe(concat([SESSION_MAGIC, key.address]).toLowerCase())
    const ecdsa = slice(stub, 24)
    const s = BigInt(slice(ecdsa, 32, 64))
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
    expect(s <= n / 2n).toBe(true) // OpenZeppelin's ECDSA accepts it (no early refusal)
    expect([27, 28]).toContain(Number(BigInt(slice(ecdsa, 64))))
    const hash = keccak256(toBytes('any user operation'))
    expect(await recoverMessageAddress({ message: { raw: hash }, signature: ecdsa })).not.toBe(
      key.address,
    )
  })
})
