/**
 * Seeds a fresh devnet (test tokens already deployed) with an ERC-721 collection, a spam
 * collection airdropped to every dev account, and months of history between the dev accounts:
 * native, ERC-20 and NFT transfers from 14 months ago until today, one failed transfer. The
 * chain must start with an old genesis ({@link seedGenesisTimestamp}); the seed mines its blocks
 * at chosen past times with automine off, then sets the chain's clock back to now, so blocks
 * after seeding carry the current time. Deterministic apart from the dates, which follow today.
 */

import { DEVNET_COLLECTIONS } from '@porthole/shared/devnet'
import {
  type Address,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  hexToBigInt,
  parseEther,
  parseGwei,
  parseUnits,
  toHex,
} from 'viem'
import TestERC721 from '../artifacts/TestERC721.json' with { type: 'json' }
import { testErc20Abi } from './abi/erc20.ts'
import { testErc721Abi } from './abi/erc721.ts'
import { DEPLOYER, DEV_ACCOUNTS } from './accounts.ts'
import { TEST_TOKENS } from './deploy.ts'

/** A seeded NFT collection. */
export type SeedCollection = {
  /** Path segment of its metadata on the API (`<api>/nft/v1/<slug>/<id>`). */
  slug: string
  name: string
  symbol: string
  /** Where it lands on a fresh devnet (dev account 0, nonces 22 and 23). */
  address: Address
  /** Airdropped spam (the API's default spam list names it). */
  spam: boolean
}

/**
 * The seeded collections. Porthole Pals: tokens 3i+1…3i+3 minted to dev account i. Reward
 * Vouchers (spam): one airdropped to each dev account three days ago.
 *
 * @example
 * SEED_COLLECTIONS[0].address // '0x4ed7c70F96B99c776995fB64377f0d4aB3B0e1C1'
 */
export const SEED_COLLECTIONS = DEVNET_COLLECTIONS satisfies readonly SeedCollection[]

/**
 * The deployer's nonce the collections deploy at (after the test tokens' 2 deploys and 20 mints).
 *
 * @example
 * getContractAddress({ from: DEPLOYER.address, nonce: BigInt(SEED_FIRST_NONCE) }) // Porthole Pals
 */
export const SEED_FIRST_NONCE = 22

/**
 * How far back the seeded genesis lies.
 *
 * @example
 * seedGenesisTimestamp(now) === now - SEED_GENESIS_AGE_DAYS * 86_400 // true
 */
export const SEED_GENESIS_AGE_DAYS = 430

const DAY = 86_400

/**
 * The genesis timestamp (seconds) a devnet to be seeded starts with: 430 days before `now`.
 *
 * @example
 * startAnvil({ port: 0, chainId: 31337, args: ['--timestamp', String(seedGenesisTimestamp())] })
 */
export function seedGenesisTimestamp(now: number = Math.floor(Date.now() / 1000)): number {
  return now - SEED_GENESIS_AGE_DAYS * DAY
}

/** Options of {@link seedDevnet}. */
export type SeedDevnetParameters = {
  rpcUrl: string
  /** The API that serves the collections' metadata (their base URI), e.g. http://127.0.0.1:4300. */
  apiUrl: string
  /** The present, in seconds (default: the clock). */
  now?: number
}

/** What {@link seedDevnet} did. */
export type SeedDevnetReturnType = {
  collections: SeedCollection[]
  /** Transactions sent (one of them fails on purpose). */
  transactions: number
  /** Blocks mined. */
  blocks: number
}

/**
 * Thrown when the devnet is not fresh or a seeded transaction fails unexpectedly.
 *
 * @example
 * await seedDevnet({ rpcUrl, apiUrl }) // throws SeedError on a devnet seeded already
 */
export class SeedError extends Error {
  override name = 'SeedError'
}

type Tx = {
  from: Address
  to?: Address
  value?: bigint
  data?: Hex
  gas: bigint
  /** The one transfer meant to revert. */
  fails?: boolean
}

const [PUSD, PRT] = TEST_TOKENS
const account = (i: number): Address => DEV_ACCOUNTS[i % DEV_ACCOUNTS.length]!.address

const native = (from: number, to: number, ether: string): Tx => ({
  from: account(from),
  to: account(to),
  value: parseEther(ether),
  gas: 21_000n,
})
const erc20 = (token: typeof PUSD | typeof PRT, from: number, to: number, amount: string): Tx => ({
  from: account(from),
  to: token.address,
  data: encodeFunctionData({
    abi: testErc20Abi,
    functionName: 'transfer',
    args: [account(to), parseUnits(amount, token.decimals)],
  }),
  gas: 80_000n,
})
const nft = (from: number, to: number, tokenId: bigint): Tx => ({
  from: account(from),
  to: SEED_COLLECTIONS[0].address,
  data: encodeFunctionData({
    abi: testErc721Abi,
    functionName: 'transferFrom',
    args: [account(from), account(to), tokenId],
  }),
  gas: 100_000n,
})
const mint = (collection: SeedCollection, to: number): Tx => ({
  from: DEPLOYER.address,
  to: collection.address,
  data: encodeFunctionData({ abi: testErc721Abi, functionName: 'mint', args: [account(to)] }),
  gas: 120_000n,
})

/**
 * The seeded blocks, oldest first: each a time (seconds) and its transactions.
 *
 * @example
 * seedPlan('http://127.0.0.1:4300', now).length // 19
 */
export function seedPlan(apiUrl: string, now: number): { time: number; txs: Tx[] }[] {
  const base = apiUrl.replace(/\/+$/, '')
  const deploy = (collection: SeedCollection): Tx => ({
    from: DEPLOYER.address,
    data: encodeDeployData({
      abi: testErc721Abi,
      bytecode: TestERC721.bytecode as Hex,
      args: [collection.name, collection.symbol, `${base}/nft/v1/${collection.slug}/`],
    }),
    gas: 3_000_000n,
  })
  const [pals, vouchers] = SEED_COLLECTIONS
  const blocks: { time: number; txs: Tx[] }[] = [
    {
      time: now - 420 * DAY,
      txs: [
        deploy(pals),
        deploy(vouchers),
        // Pals 3i+1 … 3i+3 to dev account i.
        ...DEV_ACCOUNTS.flatMap((_, i) => [mint(pals, i), mint(pals, i), mint(pals, i)]),
      ],
    },
  ]
  const ether = ['0.1', '0.25', '0.5', '1', '2']
  const dollars = ['12.5', '40', '99.99', '250', '1000']
  const prt = ['5', '17.5', '300', '1234.5678', '42']
  for (let m = 13; m >= 1; m--) {
    const txs = [
      native(m, m + 3, ether[m % 5]!),
      erc20(PUSD, m + 1, m + 6, dollars[m % 5]!),
      erc20(PRT, m + 2, m + 7, prt[m % 5]!),
      // Dev account 0 (the demo's dev wallet) takes part every month.
      m % 2 === 0 ? native(0, 1 + (m % 4), '0.2') : erc20(PUSD, 1 + (m % 4), 0, '25'),
    ]
    if (m === 6) txs.push(nft(1, 0, 4n)) // account 1 gives Pal #4 to account 0
    if (m === 2) txs.push(nft(0, 2, 1n)) // account 0 gives Pal #1 to account 2
    blocks.push({ time: now - m * 30 * DAY - 3 * DAY + m * 3600, txs })
  }
  blocks.push(
    {
      // Sending ether to the pUSD contract reverts (it has no payable function): a failed send.
      time: now - 6 * DAY,
      txs: [
        {
          from: account(3),
          to: PUSD.address,
          value: parseEther('0.01'),
          gas: 60_000n,
          fails: true,
        },
      ],
    },
    // Spam: one voucher airdropped to every dev account.
    { time: now - 3 * DAY, txs: DEV_ACCOUNTS.map((_, i) => mint(vouchers, i)) },
    { time: now - DAY, txs: [native(2, 0, '0.75'), erc20(PRT, 0, 4, '10')] },
    { time: now - 2 * 3600, txs: [erc20(PUSD, 0, 1, '5'), native(5, 0, '0.05')] },
  )
  return blocks
}

/**
 * Seeds a fresh devnet whose genesis is {@link seedGenesisTimestamp} (see the module comment).
 * Takes ~100–300 ms. Throws {@link SeedError} when dev account 0 is not at nonce 22 (not a
 * fresh devnet with the test tokens) or a transaction fails that should not.
 *
 * @example
 * const devnet = await startDevnet({ port: 0, seed: { apiUrl: 'http://127.0.0.1:4300' } })
 * // or, on a devnet started with an old genesis:
 * await seedDevnet({ rpcUrl: devnet.rpcUrl, apiUrl: 'http://127.0.0.1:4300' })
 */
export async function seedDevnet(parameters: SeedDevnetParameters): Promise<SeedDevnetReturnType> {
  const { rpcUrl, apiUrl, now = Math.floor(Date.now() / 1000) } = parameters
  let id = 0
  const rpc = async (calls: { method: string; params: unknown[] }[]): Promise<unknown[]> => {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(calls.map((call) => ({ jsonrpc: '2.0', id: ++id, ...call }))),
    })
    const answers = (await response.json()) as {
      id: number
      result?: unknown
      error?: { message: string }
    }[]
    const byId = new Map(answers.map((answer) => [answer.id, answer]))
    const first = id - calls.length + 1
    return calls.map((call, i) => {
      const answer = byId.get(first + i)
      if (!answer || answer.error)
        throw new SeedError(`${call.method}: ${answer?.error?.message ?? 'no answer'}`)
      return answer.result
    })
  }

  const plan = seedPlan(apiUrl, now)
  const senders = [...new Set(plan.flatMap((block) => block.txs.map((tx) => tx.from)))]
  const counts = await rpc(
    senders.map((address) => ({ method: 'eth_getTransactionCount', params: [address, 'pending'] })),
  )
  const nonces = new Map(senders.map((address, i) => [address, Number(counts[i] as Hex)]))
  if (nonces.get(DEPLOYER.address) !== SEED_FIRST_NONCE)
    throw new SeedError(
      `dev account 0 is at nonce ${nonces.get(DEPLOYER.address)}, not ${SEED_FIRST_NONCE}: seed only a fresh devnet with the test tokens`,
    )
  const [latest] = (await rpc([{ method: 'eth_getBlockByNumber', params: ['latest', false] }])) as {
    timestamp: Hex
  }[]
  if (Number(hexToBigInt(latest!.timestamp)) >= plan[0]!.time)
    throw new SeedError('the devnet must start with an old genesis (see seedGenesisTimestamp)')

  const hashes: { hash: Hex; fails: boolean }[] = []
  await rpc([{ method: 'evm_setAutomine', params: [false] }])
  try {
    for (const block of plan) {
      const sent = await rpc(
        block.txs.map((tx) => {
          const nonce = nonces.get(tx.from)!
          nonces.set(tx.from, nonce + 1)
          return {
            method: 'eth_sendTransaction',
            params: [
              {
                from: tx.from,
                ...(tx.to ? { to: tx.to } : {}),
                ...(tx.value ? { value: toHex(tx.value) } : {}),
                ...(tx.data ? { data: tx.data } : {}),
                gas: toHex(tx.gas),
                nonce: toHex(nonce),
                maxFeePerGas: toHex(parseGwei('20')),
                maxPriorityFeePerGas: toHex(parseGwei('1')),
              },
            ],
          }
        }),
      )
      sent.forEach((hash, i) => {
        hashes.push({ hash: hash as Hex, fails: block.txs[i]!.fails === true })
      })
      await rpc([{ method: 'evm_mine', params: [block.time] }])
    }
  } finally {
    await rpc([
      { method: 'evm_setAutomine', params: [true] },
      { method: 'anvil_setTime', params: [now] },
    ])
  }
  const receipts = (await rpc(
    hashes.map(({ hash }) => ({ method: 'eth_getTransactionReceipt', params: [hash] })),
  )) as ({ status: Hex; contractAddress: Address | null } | null)[]
  receipts.forEach((receipt, i) => {
    const expected = hashes[i]!.fails ? '0x0' : '0x1'
    if (receipt?.status !== expected)
      throw new SeedError(`seed transaction ${hashes[i]!.hash} ended with ${receipt?.status}`)
  })
  SEED_COLLECTIONS.forEach((collection, i) => {
    const address = getContractAddress({
      from: DEPLOYER.address,
      nonce: BigInt(SEED_FIRST_NONCE + i),
    })
    if (
      address !== collection.address ||
      receipts[i]?.contractAddress?.toLowerCase() !== address.toLowerCase()
    )
      throw new SeedError(
        `${collection.name} deployed at ${receipts[i]?.contractAddress}, expected ${collection.address}`,
      )
  })
  return { collections: [...SEED_COLLECTIONS], transactions: hashes.length, blocks: plan.length }
}
