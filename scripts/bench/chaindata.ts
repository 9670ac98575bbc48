/**
 * Blockchain data service benchmarks, each on its own devnet and API (free ports, temp SQLite):
 * - balance endpoint under load: the API runs as its own process (`apps/api/src/main.ts`) on a
 *   seeded devnet with its indexer; autocannon (50 connections, 5 s) asks for dev account 0's
 *   balances, served from the 5 s cache and with `forceUpdate=true` (every request reads the
 *   chain: one JSON-RPC batch);
 * - indexer catch-up: a fresh anvil holding 10,000 transfers (1,000 blocks of 5 native, 3 pUSD
 *   and 2 PRT transfers between the dev accounts) indexed from block 0 into an empty database.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createIndexer } from '@porthole/api/chaindata'
import { openDatabase } from '@porthole/api/db'
import { DEV_ACCOUNTS, startDevnet, TEST_TOKENS, testErc20Abi } from '@porthole/devnet'
import autocannon from 'autocannon'
import { encodeFunctionData, parseGwei, toHex } from 'viem'
import { freePort } from '../../apps/api/test/freePort.js'

const ROOT = resolve(import.meta.dirname, '../..')
const CHAIN = 'eip155:31337'

/** One autocannon run's figures. */
export type LoadFigures = {
  requests: number
  perSecond: number
  p50: number
  p99: number
  non2xx: number
  errors: number
}

async function load(url: string, seconds: number): Promise<LoadFigures> {
  const result = await autocannon({ url, connections: 50, duration: seconds })
  return {
    requests: result.requests.total,
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  }
}

/**
 * Balance endpoint latency and throughput under load (see the module comment).
 *
 * @example
 * const { cached, forceUpdate } = await balanceLoadBenchmark()
 */
export async function balanceLoadBenchmark(
  seconds = 5,
): Promise<{ cached: LoadFigures; forceUpdate: LoadFigures; balances: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'porthole-bench-chaindata-'))
  const port = await freePort()
  const apiUrl = `http://127.0.0.1:${port}`
  const devnet = await startDevnet({ port: 0, silent: true, seed: { apiUrl } })
  let api: ChildProcess | undefined
  try {
    api = spawn(resolve(ROOT, 'node_modules/.bin/tsx'), [resolve(ROOT, 'apps/api/src/main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORTHOLE_API_URL: apiUrl,
        PORTHOLE_DATABASE_URL: `file:${join(dir, 'api.db')}`,
        PORTHOLE_API_KEY_DIR: dir,
        PORTHOLE_RATE_LIMIT_PER_SECOND: '0',
        PORTHOLE_RPC_UPSTREAMS: JSON.stringify({ [CHAIN]: devnet.rpcUrl }),
        PORTHOLE_INDEXER_CHAINS: CHAIN,
        PORTHOLE_INDEXER: 'on',
      },
      stdio: 'ignore',
    })
    const account = DEV_ACCOUNTS[0].address
    const path = `/v1/account/${account}/balance?currency=usd&chainId=${CHAIN}&projectId=porthole-demo&st=appkit&sv=bench`
    // Ready once the index has the seeded history.
    const deadline = Date.now() + 30_000
    for (;;) {
      const history = await fetch(
        `${apiUrl}/v1/account/${account}/history?projectId=porthole-demo`,
      ).catch(() => undefined)
      if (history?.ok && ((await history.json()) as { data: unknown[] }).data.length > 10) break
      if (Date.now() > deadline) throw new Error('the API did not index the devnet in 30 s')
      await new Promise((done) => setTimeout(done, 100))
    }
    const first = (await (await fetch(`${apiUrl}${path}`)).json()) as { balances: unknown[] }
    const cached = await load(`${apiUrl}${path}`, seconds)
    const forceUpdate = await load(`${apiUrl}${path}&forceUpdate=true`, seconds)
    return { cached, forceUpdate, balances: first.balances.length }
  } finally {
    api?.kill('SIGTERM')
    await new Promise((done) => (api && api.exitCode === null ? api.once('exit', done) : done(0)))
    await devnet.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Figures of {@link indexerCatchUpBenchmark}. */
export type CatchUpFigures = {
  blocks: number
  transfers: number
  seconds: number
  blocksPerSecond: number
  transfersPerSecond: number
  /** Time to put the 10,000 transfers on the devnet (not part of the figure). */
  generateSeconds: number
}

/**
 * Indexer catch-up on 10,000 transfers (see the module comment).
 *
 * @example
 * const { blocksPerSecond } = await indexerCatchUpBenchmark()
 */
export async function indexerCatchUpBenchmark(
  databaseUrl?: string,
  blocks = 1000,
): Promise<CatchUpFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'porthole-bench-indexer-'))
  const devnet = await startDevnet({ port: 0, silent: true })
  let id = 0
  const rpc = async (calls: { method: string; params: unknown[] }[]) => {
    const response = await fetch(devnet.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(calls.map((call) => ({ jsonrpc: '2.0', id: ++id, ...call }))),
    })
    const answers = (await response.json()) as { error?: { message: string } }[]
    const failed = answers.find((answer) => answer.error)
    if (failed) throw new Error(failed.error!.message)
    return answers
  }
  try {
    const generateStart = performance.now()
    const nonces = (await rpc(
      DEV_ACCOUNTS.map((account) => ({
        method: 'eth_getTransactionCount',
        params: [account.address, 'pending'],
      })),
    )) as { result: string }[]
    const next = nonces.map((answer) => Number(answer.result))
    await rpc([{ method: 'evm_setAutomine', params: [false] }])
    const fees = {
      maxFeePerGas: toHex(parseGwei('20')),
      maxPriorityFeePerGas: toHex(parseGwei('1')),
    }
    for (let b = 0; b < blocks; b++) {
      const calls = []
      for (let i = 0; i < 10; i++) {
        const from = (b + i) % 10
        const to = (from + 1 + (b % 9)) % 10
        const nonce = toHex(next[from]!++)
        const base = { from: DEV_ACCOUNTS[from]!.address, nonce, ...fees }
        if (i < 5)
          calls.push({
            method: 'eth_sendTransaction',
            params: [
              {
                ...base,
                to: DEV_ACCOUNTS[to]!.address,
                value: toHex(1000n + BigInt(b)),
                gas: '0x5208',
              },
            ],
          })
        else {
          const token = TEST_TOKENS[i < 8 ? 0 : 1]
          calls.push({
            method: 'eth_sendTransaction',
            params: [
              {
                ...base,
                to: token.address,
                gas: toHex(80_000),
                data: encodeFunctionData({
                  abi: testErc20Abi,
                  functionName: 'transfer',
                  args: [DEV_ACCOUNTS[to]!.address, 1000n + BigInt(b)],
                }),
              },
            ],
          })
        }
      }
      await rpc(calls)
      await rpc([{ method: 'evm_mine', params: [] }])
    }
    await rpc([{ method: 'evm_setAutomine', params: [true] }])
    const generateSeconds = (performance.now() - generateStart) / 1000

    const db = await openDatabase({ url: databaseUrl ?? `file:${join(dir, 'index.db')}` })
    try {
      const indexer = createIndexer({
        db,
        chains: [{ chainId: CHAIN, rpcUrl: devnet.rpcUrl, startBlock: 0, confirmations: 0 }],
        log: () => undefined,
      })
      const start = performance.now()
      const { blocks: indexed } = await indexer.catchUp(CHAIN)
      const seconds = (performance.now() - start) / 1000
      const [row] = await db.query<{ n: number }>(
        'SELECT COUNT(*) AS n FROM chain_transfers WHERE chain_id = ?',
        [CHAIN],
      )
      // The generated transfers, plus the devnet seed's own (token grants, the AMM's, the
      // on-ramp treasury's: their exact count is createIndexer.test.ts's to check).
      const transfers = Number(row!.n)
      if (transfers < blocks * 10)
        throw new Error(`indexed ${transfers} transfers, expected at least ${blocks * 10}`)
      return {
        blocks: indexed,
        transfers,
        seconds,
        blocksPerSecond: indexed / seconds,
        transfersPerSecond: transfers / seconds,
        generateSeconds,
      }
    } finally {
      await db.close()
    }
  } finally {
    await devnet.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Runs both benchmarks and prints them; returns the figures for `bench-results.json`.
 *
 * @example
 * const chaindata = await chainDataBenchmarks()
 */
export async function chainDataBenchmarks() {
  const balance = await balanceLoadBenchmark()
  const indexer = await indexerCatchUpBenchmark()
  const line = (name: string, f: LoadFigures) =>
    `  ${name}: p50 ${f.p50} ms, p99 ${f.p99} ms, ${Math.round(f.perSecond)} requests/s (${f.requests} in 5 s, ${f.non2xx + f.errors} failed)`
  console.log(
    `Balance endpoint under load (autocannon, 50 connections, ${balance.balances} balances per answer)`,
  )
  console.log(line('cached (5 s per account)', balance.cached))
  console.log(line('forceUpdate=true (chain read each time)', balance.forceUpdate))
  console.log(
    `Indexer catch-up, empty SQLite database: ${indexer.blocks} blocks, ${indexer.transfers} transfers in ${indexer.seconds.toFixed(2)} s = ${Math.round(indexer.blocksPerSecond)} blocks/s, ${Math.round(indexer.transfersPerSecond)} transfers/s\n`,
  )
  return { balance, indexer }
}
