import { createPublicClient, http, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { testErc20Abi } from './abi/erc20.ts'
import { testErc721Abi } from './abi/erc721.ts'
import { DEV_ACCOUNTS } from './accounts.ts'
import { TEST_TOKENS } from './deploy.ts'
import { type StartDevnetReturnType, startDevnet } from './index.ts'
import { SEED_COLLECTIONS, SeedError, seedDevnet, seedPlan } from './seed.ts'

const API_URL = 'http://127.0.0.1:4300'
let devnet: StartDevnetReturnType
let seedMs = 0
beforeAll(async () => {
  const started = performance.now()
  devnet = await startDevnet({ port: 0, silent: true, seed: { apiUrl: API_URL } })
  seedMs = performance.now() - started
  console.info(`seeded devnet started in ${Math.round(seedMs)} ms`)
})
afterAll(() => devnet?.stop())

const client = () => createPublicClient({ transport: http(devnet.rpcUrl) })

// How fast it starts is measured by `npm run bench`, not asserted here.
test('a seeded devnet starts with its tokens, collections and history', () => {
  expect(devnet.seeded).toMatchObject({ blocks: 18, collections: SEED_COLLECTIONS })
})

test('the collections sit at their fixed addresses with metadata on the API', async () => {
  for (const collection of SEED_COLLECTIONS) {
    const read = <const name extends 'name' | 'symbol'>(functionName: name) =>
      client().readContract({ address: collection.address, abi: testErc721Abi, functionName })
    expect(await read('name')).toBe(collection.name)
    expect(await read('symbol')).toBe(collection.symbol)
  }
  const uri = await client().readContract({
    address: SEED_COLLECTIONS[0].address,
    abi: testErc721Abi,
    functionName: 'tokenURI',
    args: [7n],
  })
  expect(uri).toBe(`${API_URL}/nft/v1/porthole-pals/7`)
})

test('every dev account holds Pals and one spam voucher', async () => {
  const holdings = await Promise.all(
    DEV_ACCOUNTS.map(async (account) =>
      Promise.all(
        SEED_COLLECTIONS.map((collection) =>
          client().readContract({
            address: collection.address,
            abi: testErc721Abi,
            functionName: 'balanceOf',
            args: [account.address],
          }),
        ),
      ),
    ),
  )
  // Account 0 received Pal #4 and gave away Pal #1; account 1 gave #4, account 2 received #1.
  expect(holdings.map(([pals]) => Number(pals))).toEqual([3, 2, 4, 3, 3, 3, 3, 3, 3, 3])
  expect(holdings.every(([, vouchers]) => vouchers === 1n)).toBe(true)
  const owner = await client().readContract({
    address: SEED_COLLECTIONS[0].address,
    abi: testErc721Abi,
    functionName: 'ownerOf',
    args: [4n],
  })
  expect(owner).toBe(DEV_ACCOUNTS[0].address)
})

test('history spans months back into the previous year, and new blocks carry the current time', async () => {
  const head = await client().getBlockNumber()
  const blocks = await Promise.all(
    Array.from({ length: Number(head) + 1 }, (_, n) =>
      client().getBlock({ blockNumber: BigInt(n) }),
    ),
  )
  const withTxs = blocks.filter((block) => block.transactions.length > 0)
  const years = new Set(
    withTxs.map((block) => new Date(Number(block.timestamp) * 1000).getUTCFullYear()),
  )
  expect(years.has(new Date().getUTCFullYear() - 1)).toBe(true)
  const months = new Set(
    withTxs.map((block) => new Date(Number(block.timestamp) * 1000).toISOString().slice(0, 7)),
  )
  expect(months.size).toBeGreaterThanOrEqual(12)
  // Timestamps only go forward.
  for (let i = 1; i < blocks.length; i++)
    expect(blocks[i]!.timestamp).toBeGreaterThanOrEqual(blocks[i - 1]!.timestamp)

  const hash = (await client().request({
    method: 'eth_sendTransaction',
    params: [{ from: DEV_ACCOUNTS[9].address, to: DEV_ACCOUNTS[8].address, value: '0x1' }],
  } as never)) as `0x${string}`
  const receipt = await client().waitForTransactionReceipt({ hash, pollingInterval: 20 })
  const block = await client().getBlock({ blockNumber: receipt.blockNumber })
  expect(Math.abs(Number(block.timestamp) - Date.now() / 1000)).toBeLessThan(10)
})

test('no dev account is drained: > 9,000 ETH and > 900,000 of each token', async () => {
  for (const account of DEV_ACCOUNTS) {
    expect(await client().getBalance({ address: account.address })).toBeGreaterThan(
      parseEther('9000'),
    )
    for (const token of TEST_TOKENS)
      expect(
        await client().readContract({
          address: token.address,
          abi: testErc20Abi,
          functionName: 'balanceOf',
          args: [account.address],
        }),
      ).toBeGreaterThan(parseUnits('900000', token.decimals))
  }
})

test('one seeded transfer fails on purpose, the others succeed', async () => {
  const plan = seedPlan(API_URL, Math.floor(Date.now() / 1000))
  expect(plan.flatMap((block) => block.txs).filter((tx) => tx.fails)).toHaveLength(1)
  expect(plan.map((block) => block.time)).toEqual([...plan.map((block) => block.time)].sort())
})

test('seeding a devnet twice is refused', async () => {
  await expect(seedDevnet({ rpcUrl: devnet.rpcUrl, apiUrl: API_URL })).rejects.toThrow(SeedError)
})
