import { createPublicClient, createWalletClient, http, parseEventLogs } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import TestERC20 from '../../artifacts/TestERC20.json' with { type: 'json' }
import { DEV_ACCOUNTS } from '../accounts.ts'
import { type StartAnvilReturnType, startAnvil } from '../anvil.ts'
import { devnetChain } from '../chain.ts'
import { testErc20Abi } from './erc20.ts'

let anvil: StartAnvilReturnType
beforeAll(async () => {
  anvil = await startAnvil({ port: 0, chainId: 31337, silent: true })
})
afterAll(() => anvil?.stop())

function clients(index: number) {
  const chain = devnetChain({ chainId: 31337, rpcUrl: anvil.rpcUrl })
  return {
    wallet: createWalletClient({
      account: privateKeyToAccount(DEV_ACCOUNTS[index]!.privateKey),
      chain,
      transport: http(),
    }),
    client: createPublicClient({ chain, transport: http() }),
  }
}

test('the owner mints, holders transfer with standard events, others cannot mint', async () => {
  const { wallet, client } = clients(0)
  const deployHash = await wallet.deployContract({
    abi: testErc20Abi,
    bytecode: TestERC20.bytecode as `0x${string}`,
    args: ['Test', 'TST', 2],
  })
  const { contractAddress: address } = await client.waitForTransactionReceipt({ hash: deployHash })
  const token = { address: address!, abi: testErc20Abi } as const
  const [alice, bob] = [DEV_ACCOUNTS[1].address, DEV_ACCOUNTS[2].address]

  await client.waitForTransactionReceipt({
    hash: await wallet.writeContract({ ...token, functionName: 'mint', args: [alice, 500n] }),
  })
  const asAlice = clients(1)
  const receipt = await client.waitForTransactionReceipt({
    hash: await asAlice.wallet.writeContract({
      ...token,
      functionName: 'transfer',
      args: [bob, 200n],
    }),
  })
  const [transfer] = parseEventLogs({
    abi: testErc20Abi,
    logs: receipt.logs,
    eventName: 'Transfer',
  })
  expect(transfer?.args).toEqual({ from: alice, to: bob, value: 200n })
  expect(await client.readContract({ ...token, functionName: 'balanceOf', args: [alice] })).toBe(
    300n,
  )
  expect(await client.readContract({ ...token, functionName: 'balanceOf', args: [bob] })).toBe(200n)

  await expect(
    asAlice.client.simulateContract({
      ...token,
      account: alice,
      functionName: 'mint',
      args: [alice, 1n],
    }),
  ).rejects.toThrow(/OwnableUnauthorizedAccount/)
  await expect(
    asAlice.client.simulateContract({
      ...token,
      account: alice,
      functionName: 'transfer',
      args: [bob, 301n],
    }),
  ).rejects.toThrow(/ERC20InsufficientBalance/)
})
