/**
 * The devnet side of the load test: JSON-RPC to anvil (its dev accounts are unlocked, and it
 * mines each transaction in a block of its own), and PostgreSQL queries through psql.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

/**
 * anvil's dev accounts 7 and 8 (public test keys), which send the load test's transfers: no
 * other test or service sends from them (e2e funds from 9, the demo and benches use 0).
 */
export const LOADTEST_ACCOUNTS = [
  '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
  '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f',
] as const

/** The ten anvil dev accounts: the addresses whose balances the load asks for. */
export const DEV_ADDRESSES = [
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
  '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
  '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
  '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
  ...LOADTEST_ACCOUNTS,
  '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
] as const

/**
 * One JSON-RPC call; throws the node's error.
 *
 * @example
 * const head = await rpc<string>('http://127.0.0.1:8545', 'eth_blockNumber')
 */
export async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  })
  const body = (await response.json()) as { result?: T; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result as T
}

/** The head block number. */
export async function blockNumber(url: string): Promise<number> {
  return Number(await rpc<string>(url, 'eth_blockNumber'))
}

/** A block: its hash and its transactions' hashes and values. */
export type ChainBlock = {
  number: number
  hash: string
  transactions: { hash: string; value: bigint; to: string | null }[]
}

/** Block `number` with its transactions. */
export async function getBlock(url: string, number: number): Promise<ChainBlock> {
  const block = await rpc<{
    hash: string
    transactions: { hash: string; value: string; to: string | null }[]
  }>(url, 'eth_getBlockByNumber', [`0x${number.toString(16)}`, true])
  return {
    number,
    hash: block.hash,
    transactions: block.transactions.map((tx) => ({
      hash: tx.hash,
      value: BigInt(tx.value),
      to: tx.to,
    })),
  }
}

/**
 * Sends a transaction from an unlocked dev account (anvil mines it at once); resolves with its
 * hash and block number.
 *
 * @example
 * await send(rpcUrl, { from: LOADTEST_ACCOUNTS[0], to: LOADTEST_ACCOUNTS[1], value: 1n })
 */
export async function send(
  url: string,
  tx: { from: string; to: string; value?: bigint; data?: string },
): Promise<{ hash: string; blockNumber: number }> {
  const hash = await rpc<string>(url, 'eth_sendTransaction', [
    {
      from: tx.from,
      to: tx.to,
      ...(tx.value === undefined ? {} : { value: `0x${tx.value.toString(16)}` }),
      ...(tx.data === undefined ? {} : { data: tx.data }),
    },
  ])
  for (let i = 0; i < 100; i++) {
    const receipt = await rpc<{ blockNumber: string } | null>(url, 'eth_getTransactionReceipt', [
      hash,
    ])
    if (receipt) return { hash, blockNumber: Number(receipt.blockNumber) }
    await new Promise((done) => setTimeout(done, 50))
  }
  throw new Error(`${hash} was not mined`)
}

/** Calldata of ERC-20 `transfer(to, amount)`. */
export function erc20Transfer(to: string, amount: bigint): string {
  return `0xa9059cbb${to.slice(2).toLowerCase().padStart(64, '0')}${amount.toString(16).padStart(64, '0')}`
}

/**
 * Runs one SQL statement with psql against `databaseUrl`; rows as arrays of strings.
 *
 * @example
 * const rows = psql(url, 'SELECT number, hash FROM chain_blocks LIMIT 2') // [['1', '0x…'], …]
 */
export function psql(databaseUrl: string, sql: string): string[][] {
  const binary = ['/usr/bin/psql', '/usr/local/bin/psql'].find(existsSync) ?? 'psql'
  const output = execFileSync(binary, [databaseUrl, '-AtqX', '-F', '\t', '-c', sql], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return output
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => line.split('\t'))
}
