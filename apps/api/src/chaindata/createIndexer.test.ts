/**
 * The indexer against a real seeded anvil on both database drivers: catch-up, idempotence,
 * reorgs (anvil snapshots reverted and replaced by other blocks) and a new chain behind the
 * same chain id (a restarted devnet).
 */
import {
  DEV_ACCOUNTS,
  SEED_COLLECTIONS,
  type StartDevnetReturnType,
  startDevnet,
  TEST_TOKENS,
  testErc20Abi,
  testErc721Abi,
} from '@porthole/devnet'
import { createPublicClient, encodeFunctionData, type Hex, http, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DRIVERS, openTestDatabase } from '../../test/databases.js'
import type { Db } from '../db/Db.js'
import { createIndexer, type Indexer } from './createIndexer.js'
import { CursorMovedError, readCursor, writeRange } from './indexStore.js'

const CHAIN = 'eip155:31337'
const lower = (i: number) => DEV_ACCOUNTS[i]!.address.toLowerCase()
const [A0, A5, A6, A7] = [lower(0), lower(5), lower(6), lower(7)]

describe.each(DRIVERS)('indexer on %s', (driver) => {
  let devnet: StartDevnetReturnType
  let db: Db
  let indexer: Indexer
  const logs: string[] = []

  const rpc = async (method: string, params: unknown[] = []) => {
    const response = await fetch(devnet.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    return ((await response.json()) as { result: unknown }).result
  }
  const send = async (from: string, to: string, data: Hex) => {
    const hash = await rpc('eth_sendTransaction', [{ from, to, data, gas: '0x30000' }])
    // Automine answers before the block is there: wait for the receipt.
    while (!(await rpc('eth_getTransactionReceipt', [hash])))
      await new Promise((resolve) => setTimeout(resolve, 5))
    return hash as Hex
  }
  const pusd = (to: string, amount: string) =>
    encodeFunctionData({
      abi: testErc20Abi,
      functionName: 'transfer',
      args: [to as Hex, parseUnits(amount, 6)],
    })
  const count = async (sql: string, params: (string | number)[] = []) =>
    Number((await db.query<{ n: number }>(sql, params))[0]!.n)
  const ownerOf = async (tokenId: string) =>
    (
      await db.query<{ owner: string }>(
        'SELECT owner FROM chain_nfts WHERE chain_id = ? AND contract = ? AND token_id = ?',
        [CHAIN, SEED_COLLECTIONS[0].address.toLowerCase(), tokenId],
      )
    )[0]?.owner
  const amountsTo = async (account: string) =>
    (
      await db.query<{ amount: string }>(
        `SELECT amount FROM chain_transfers WHERE chain_id = ? AND to_address = ? AND kind = 'erc20' ORDER BY block_number`,
        [CHAIN, account],
      )
    ).map((row) => row.amount)
  const expectCursorOnChain = async () => {
    const cursor = (await readCursor(db, CHAIN))!
    const block = (await rpc('eth_getBlockByNumber', ['latest', false])) as {
      number: Hex
      hash: string
    }
    expect(cursor.blockNumber).toBe(Number(block.number))
    expect(cursor.blockHash).toBe(block.hash.toLowerCase())
  }

  beforeAll(async () => {
    devnet = await startDevnet({ port: 0, silent: true, seed: { apiUrl: 'http://api.test' } })
    db = await openTestDatabase(driver)
    indexer = createIndexer({
      db,
      chains: [{ chainId: CHAIN, rpcUrl: devnet.rpcUrl, startBlock: 0, confirmations: 0 }],
      batchBlocks: 7, // several ranges, so the prefetch and range seams are exercised
      log: (line) => logs.push(line),
    })
  })
  afterAll(async () => {
    await indexer?.stop()
    await devnet?.stop()
    await db?.close()
  })

  test('catches up with every seeded transfer, token metadata read once', async () => {
    const head = Number(await rpc('eth_blockNumber'))
    expect((await indexer.catchUp(CHAIN)).blocks).toBe(head + 1)
    expect(await count(`SELECT COUNT(*) AS n FROM chain_transfers WHERE kind = 'erc721'`)).toBe(42)
    // The AMM's pools and the on-ramp treasury (after the seed) add 2 native and 16 ERC-20
    // transfers: mints to their keys, ETH, WETH and tokens into the pairs, the pairs' LP tokens.
    // The ERC-4337 paymaster's EntryPoint deposit adds 1 native.
    expect(await count(`SELECT COUNT(*) AS n FROM chain_transfers WHERE kind = 'native'`)).toBe(25)
    expect(await count(`SELECT COUNT(*) AS n FROM chain_transfers WHERE kind = 'erc20'`)).toBe(71)
    expect(
      await count(`SELECT COUNT(*) AS n FROM chain_transactions WHERE status = 'failed'`),
    ).toBe(1)
    const tokens = await db.query<{ symbol: string; decimals: number; kind: string }>(
      'SELECT symbol, decimals, kind FROM chain_tokens ORDER BY symbol',
    )
    expect(tokens.map((t) => [t.symbol, Number(t.decimals), t.kind])).toEqual([
      ['PALS', 0, 'erc721'],
      ['PRT', 18, 'erc20'],
      ['RWD', 0, 'erc721'],
      ['UNI-V2', 18, 'erc20'],
      ['UNI-V2', 18, 'erc20'],
      ['UNI-V2', 18, 'erc20'],
      ['WETH', 18, 'erc20'],
      ['pUSD', 6, 'erc20'],
    ])
    expect(await ownerOf('4')).toBe(A0)
    await expectCursorOnChain()
    expect((await indexer.catchUp(CHAIN)).blocks).toBe(0)
    expect(await count('SELECT COUNT(*) AS n FROM chain_transfers')).toBe(138)
  })

  test('a reorg to a shorter chain rolls back transfers and NFT owners', async () => {
    const snapshot = await rpc('evm_snapshot')
    await send(
      A0,
      SEED_COLLECTIONS[0].address,
      encodeFunctionData({
        abi: testErc721Abi,
        functionName: 'transferFrom',
        args: [A0 as Hex, A5 as Hex, 2n],
      }),
    )
    await send(A0, TEST_TOKENS[0].address, pusd(A6, '77'))
    await indexer.catchUp(CHAIN)
    expect(await ownerOf('2')).toBe(A5)
    expect(await amountsTo(A6)).toContain('77000000')

    expect(await rpc('evm_revert', [snapshot])).toBe(true)
    await send(A0, TEST_TOKENS[0].address, pusd(A7, '33'))
    await indexer.catchUp(CHAIN)
    expect(await ownerOf('2')).toBe(A0)
    expect(await amountsTo(A6)).not.toContain('77000000')
    expect(await amountsTo(A7)).toContain('33000000')
    expect(logs.some((line) => line.includes('reorg'))).toBe(true)
    await expectCursorOnChain()
    // Nothing of the dropped branch is left anywhere: every row points at a kept transaction.
    for (const table of ['chain_account_txs', 'chain_transfers'])
      expect(
        await count(
          `SELECT COUNT(*) AS n FROM ${table} x LEFT JOIN chain_transactions t
           ON t.chain_id = x.chain_id AND t.hash = x.tx_hash WHERE t.hash IS NULL`,
        ),
      ).toBe(0)
  })

  test('a reorg at the same height (the indexed block replaced) is noticed while idle', async () => {
    const snapshot = await rpc('evm_snapshot')
    await send(A0, TEST_TOKENS[0].address, pusd(A6, '1.25'))
    await indexer.catchUp(CHAIN)
    expect(await amountsTo(A6)).toContain('1250000')
    await rpc('evm_revert', [snapshot])
    await send(A0, TEST_TOKENS[0].address, pusd(A6, '2.5'))
    await indexer.catchUp(CHAIN)
    const amounts = await amountsTo(A6)
    expect(amounts).toContain('2500000')
    expect(amounts).not.toContain('1250000')
    await expectCursorOnChain()
  })

  test('a cursor moved by another indexer makes a write fail without changes', async () => {
    const cursor = (await readCursor(db, CHAIN))!
    await expect(
      writeRange(db, {
        chainId: CHAIN,
        genesisHash: cursor.genesisHash,
        previous: { ...cursor, blockNumber: cursor.blockNumber - 1 },
        next: { blockNumber: cursor.blockNumber + 1, blockHash: '0x01' },
        blocks: [],
        transactions: [],
        transfers: [],
        accountTxs: [],
        accountTokens: [],
        nftOwners: [],
        tokens: [],
      }),
    ).rejects.toThrow(CursorMovedError)
    expect(await readCursor(db, CHAIN)).toEqual(cursor)
  })

  test('a new chain behind the same id (restarted devnet) is indexed from scratch', async () => {
    const fresh = await startDevnet({ port: 0, silent: true })
    const other = createIndexer({
      db,
      chains: [{ chainId: CHAIN, rpcUrl: fresh.rpcUrl, startBlock: 0, confirmations: 0 }],
      log: (line) => logs.push(line),
    })
    try {
      await other.catchUp(CHAIN)
      expect(logs.some((line) => line.includes('genesis changed'))).toBe(true)
      // The grants, the AMM's and the on-ramp treasury's 18, the paymaster's deposit (no seed).
      expect(await count('SELECT COUNT(*) AS n FROM chain_transfers')).toBe(39)
      expect(await count('SELECT COUNT(*) AS n FROM chain_nfts')).toBe(0)
      const genesis = (
        await createPublicClient({ transport: http(fresh.rpcUrl) }).getBlock({ blockNumber: 0n })
      ).hash
      expect((await readCursor(db, CHAIN))!.genesisHash).toBe(genesis.toLowerCase())
    } finally {
      await other.stop()
      await fresh.stop()
    }
  })

  test('an RPC answering another chain id is not indexed', async () => {
    const wrong = createIndexer({
      db,
      chains: [{ chainId: 'eip155:1', rpcUrl: devnet.rpcUrl, startBlock: 0, confirmations: 0 }],
      log: () => undefined,
    })
    await expect(wrong.catchUp('eip155:1')).rejects.toThrow('is chain eip155:31337')
  })
})
