import { FARCASTER_ID_REGISTRY, idRegistryReadAbi } from '@porthole/shared/devnet'
import { createPublicClient, createWalletClient, http, parseEther, toHex, zeroAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { idRegistryAbi } from './abi/idRegistry.ts'
import { type StartAnvilReturnType, startAnvil } from './anvil.ts'
import { deployIdRegistry } from './idRegistry.ts'

let anvil: StartAnvilReturnType
beforeAll(async () => {
  anvil = await startAnvil({ port: 0, chainId: 31337, silent: true })
})
afterAll(() => anvil?.stop())

const client = () => createPublicClient({ transport: http(anvil.rpcUrl), pollingInterval: 50 })

async function custodian() {
  const account = privateKeyToAccount(generatePrivateKey())
  await client().request({
    method: 'anvil_setBalance' as never,
    params: [account.address, toHex(parseEther('1'))] as never,
  })
  return createWalletClient({ account, transport: http(anvil.rpcUrl) })
}

test('deploys at the fixed address, once', async () => {
  expect(await deployIdRegistry({ rpcUrl: anvil.rpcUrl })).toBe(FARCASTER_ID_REGISTRY)
  const code = await client().getCode({ address: FARCASTER_ID_REGISTRY })
  expect(code?.length).toBeGreaterThan(2)
  // A second call finds it and sends nothing.
  const block = await client().getBlockNumber()
  expect(await deployIdRegistry({ rpcUrl: anvil.rpcUrl })).toBe(FARCASTER_ID_REGISTRY)
  expect(await client().getBlockNumber()).toBe(block)
})

test('a custody key registers the fid it asks for; a taken fid or a second fid is refused', async () => {
  await deployIdRegistry({ rpcUrl: anvil.rpcUrl })
  const alice = await custodian()
  const bob = await custodian()
  const read = (fid: bigint) =>
    client().readContract({
      address: FARCASTER_ID_REGISTRY,
      abi: idRegistryReadAbi,
      functionName: 'custodyOf',
      args: [fid],
    })
  expect(await read(77n)).toBe(zeroAddress)
  const hash = await alice.writeContract({
    chain: null,
    address: FARCASTER_ID_REGISTRY,
    abi: idRegistryAbi,
    functionName: 'register',
    args: [77n],
  })
  expect((await client().waitForTransactionReceipt({ hash })).status).toBe('success')
  expect(await read(77n)).toBe(alice.account.address)
  expect(
    await client().readContract({
      address: FARCASTER_ID_REGISTRY,
      abi: idRegistryAbi,
      functionName: 'idOf',
      args: [alice.account.address],
    }),
  ).toBe(77n)
  await expect(
    client().simulateContract({
      account: bob.account,
      address: FARCASTER_ID_REGISTRY,
      abi: idRegistryAbi,
      functionName: 'register',
      args: [77n],
    }),
  ).rejects.toThrow(/FidTaken/)
  await expect(
    client().simulateContract({
      account: alice.account,
      address: FARCASTER_ID_REGISTRY,
      abi: idRegistryAbi,
      functionName: 'register',
      args: [78n],
    }),
  ).rejects.toThrow(/HasId/)
})

test('the shared read ABI matches the compiled contract', () => {
  for (const entry of idRegistryReadAbi) {
    const compiled = idRegistryAbi.find((e) => e.type === 'function' && e.name === entry.name)
    expect(compiled && 'inputs' in compiled ? compiled.inputs.map((i) => i.type) : null).toEqual(
      entry.inputs.map((i) => i.type),
    )
  }
})
