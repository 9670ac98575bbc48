import { createPublicClient, createWalletClient, http, parseEventLogs } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import TestERC721 from '../../artifacts/TestERC721.json' with { type: 'json' }
import { DEV_ACCOUNTS } from '../accounts.ts'
import { type StartAnvilReturnType, startAnvil } from '../anvil.ts'
import { devnetChain } from '../chain.ts'
import { testErc721Abi } from './erc721.ts'

let anvil: StartAnvilReturnType
beforeAll(async () => {
  anvil = await startAnvil({ port: 0, chainId: 31337, silent: true })
})
afterAll(() => anvil?.stop())

test('the owner mints sequential ids whose tokenURI follows the configurable base URI', async () => {
  const chain = devnetChain({ chainId: 31337, rpcUrl: anvil.rpcUrl })
  const wallet = createWalletClient({
    account: privateKeyToAccount(DEV_ACCOUNTS[0].privateKey),
    chain,
    transport: http(),
  })
  const client = createPublicClient({ chain, transport: http() })
  const { contractAddress } = await client.waitForTransactionReceipt({
    hash: await wallet.deployContract({
      abi: testErc721Abi,
      bytecode: TestERC721.bytecode as `0x${string}`,
      args: ['Porthole Pals', 'PALS', 'http://127.0.0.1:4300/nft/'],
    }),
  })
  const nft = { address: contractAddress!, abi: testErc721Abi } as const
  const holder = DEV_ACCOUNTS[1].address

  for (let i = 0; i < 2; i++) {
    const receipt = await client.waitForTransactionReceipt({
      hash: await wallet.writeContract({ ...nft, functionName: 'mint', args: [holder] }),
    })
    const [transfer] = parseEventLogs({ abi: testErc721Abi, logs: receipt.logs })
    expect(transfer?.eventName).toBe('Transfer')
  }
  expect(await client.readContract({ ...nft, functionName: 'ownerOf', args: [2n] })).toBe(holder)
  expect(await client.readContract({ ...nft, functionName: 'balanceOf', args: [holder] })).toBe(2n)
  expect(await client.readContract({ ...nft, functionName: 'tokenURI', args: [2n] })).toBe(
    'http://127.0.0.1:4300/nft/2',
  )
  expect(
    await client.readContract({ ...nft, functionName: 'supportsInterface', args: ['0x80ac58cd'] }),
  ).toBe(true)

  await client.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      ...nft,
      functionName: 'setBaseURI',
      args: ['ipfs://collection/'],
    }),
  })
  expect(await client.readContract({ ...nft, functionName: 'tokenURI', args: [1n] })).toBe(
    'ipfs://collection/1',
  )
  await expect(
    client.readContract({ ...nft, functionName: 'tokenURI', args: [3n] }),
  ).rejects.toThrow(/ERC721NonexistentToken/)
  await expect(
    client.simulateContract({ ...nft, account: holder, functionName: 'mint', args: [holder] }),
  ).rejects.toThrow(/OwnableUnauthorizedAccount/)
})
