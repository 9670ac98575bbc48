/**
 * Swap quote endpoint under load, on its own devnet and API (free ports, temp SQLite): the API
 * runs as its own process (`apps/api/src/main.ts`, no indexer) over a devnet with the Uniswap V2
 * AMM; autocannon (50 connections, 5 s) asks `GET /v1/convert/quotes` for 1 ETH → pUSD (one
 * pool) and for 1,000 pUSD → PRT (two routes compared: direct and through WETH). Every quote
 * reads the chain (one JSON-RPC batch: `getAmountsOut` per route, the pools' reserves, the gas
 * price). Run alone: `npx tsx scripts/bench/quotes.ts`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DEV_ACCOUNTS, startDevnet, TEST_TOKENS } from '@porthole/devnet'
import autocannon from 'autocannon'
import { freePort } from '../../apps/api/test/freePort.js'
import type { LoadFigures } from './chaindata.js'

const ROOT = resolve(import.meta.dirname, '../..')
const CHAIN = 'eip155:31337'
const ETH = `${CHAIN}:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee`
const PUSD = `${CHAIN}:${TEST_TOKENS[0].address}`
const PRT = `${CHAIN}:${TEST_TOKENS[1].address}`

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
 * Quote endpoint latency and throughput under load (see the module comment).
 *
 * @example
 * const { ethToPusd, pusdToPrt } = await quoteLoadBenchmark()
 */
export async function quoteLoadBenchmark(
  seconds = 5,
): Promise<{ ethToPusd: LoadFigures; pusdToPrt: LoadFigures }> {
  const dir = mkdtempSync(join(tmpdir(), 'porthole-bench-quotes-'))
  const port = await freePort()
  const apiUrl = `http://127.0.0.1:${port}`
  const devnet = await startDevnet({ port: 0, silent: true })
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
        PORTHOLE_INDEXER: 'off',
      },
      stdio: 'ignore',
    })
    const user = `${CHAIN}:${DEV_ACCOUNTS[0].address}`
    const path = (from: string, to: string, amount: string) =>
      `${apiUrl}/v1/convert/quotes?${new URLSearchParams({ amount, from, to, userAddress: user, projectId: 'porthole-demo', st: 'appkit', sv: 'bench' })}`
    const ethToPusd = path(ETH, PUSD, '1000000000000000000')
    const pusdToPrt = path(PUSD, PRT, '1000000000')
    const deadline = Date.now() + 30_000
    for (;;) {
      const response = await fetch(ethToPusd).catch(() => undefined)
      if (response?.ok) break
      if (Date.now() > deadline) throw new Error('the API did not answer quotes in 30 s')
      await new Promise((done) => setTimeout(done, 100))
    }
    return { ethToPusd: await load(ethToPusd, seconds), pusdToPrt: await load(pusdToPrt, seconds) }
  } finally {
    api?.kill('SIGTERM')
    await new Promise((done) => (api && api.exitCode === null ? api.once('exit', done) : done(0)))
    await devnet.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Runs the quote benchmark and prints it; returns the figures for `bench-results.json`.
 *
 * @example
 * const quotes = await quoteBenchmarks()
 */
export async function quoteBenchmarks() {
  const figures = await quoteLoadBenchmark()
  const line = (name: string, f: LoadFigures) =>
    `  ${name}: p50 ${f.p50} ms, p99 ${f.p99} ms, ${Math.round(f.perSecond)} requests/s (${f.requests} in 5 s, ${f.non2xx + f.errors} failed)`
  console.log(
    'Swap quote endpoint under load (autocannon, 50 connections, each quote reads the chain)',
  )
  console.log(line('1 ETH → pUSD (one pool)', figures.ethToPusd))
  console.log(line('1,000 pUSD → PRT (direct and through WETH compared)', figures.pusdToPrt))
  console.log('')
  return figures
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  await quoteBenchmarks()
