/**
 * Sponsored user operations through the API, on their own devnet, bundler (alto) and API (free
 * ports, temp SQLite): the API runs as its own process (`apps/api/src/main.ts`, no indexer);
 * a SimpleAccount holding no ETH sends N user operations one after the other through the API's
 * RPC proxy alone (`POST /v1`: `pm_getPaymasterStubData`, `eth_estimateUserOperationGas`,
 * `pm_getPaymasterData`, `eth_sendUserOperation`, then `eth_getUserOperationReceipt` polled
 * every 20 ms). The first one (which also deploys the account) is a warm-up, not counted.
 * Run alone: `npx tsx scripts/bench/userOps.ts`.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { openDatabase } from '@porthole/api/db'
import { startBundler } from '@porthole/bundler'
import { devnetChain, startDevnet, toSimpleAccount } from '@porthole/devnet'
import { DEMO_PROJECT_ID } from '@porthole/shared'
import { createPublicClient, type Hex, http } from 'viem'
import { createBundlerClient } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { freePort } from '../../apps/api/test/freePort.js'
import { addProjectUser } from '../../apps/api/test/paymasterAttacker.js'
import { quantile } from './stats.js'

const ROOT = resolve(import.meta.dirname, '../..')
const CHAIN = 'eip155:31337'

/** Timings of one kind, in milliseconds. */
export type UserOpFigures = { n: number; median: number; p95: number; max: number }

/** What {@link userOpBenchmark} measures. */
export type UserOpBenchmarkReturnType = {
  /** Send (prepare, sponsor, sign, `eth_sendUserOperation`) → receipt: the round trip. */
  roundTrip: UserOpFigures
  /** Of which: preparing (stub data, gas estimate, final paymaster data) and signing. */
  prepare: UserOpFigures
  /** Of which: `eth_sendUserOperation` answered → receipt seen. */
  sendToReceipt: UserOpFigures
  /** How long the bundler took to start (ms). */
  bundlerStartMs: number
}

const figures = (samples: number[]): UserOpFigures => ({
  n: samples.length,
  median: quantile(samples, 0.5),
  p95: quantile(samples, 0.95),
  max: Math.max(...samples),
})

/**
 * Round trips of sponsored user operations through the API proxy (see the module comment).
 *
 * @example
 * const { roundTrip } = await userOpBenchmark(20)
 */
export async function userOpBenchmark(n = 20): Promise<UserOpBenchmarkReturnType> {
  const dir = mkdtempSync(join(tmpdir(), 'porthole-bench-userops-'))
  const apiUrl = `http://127.0.0.1:${await freePort()}`
  const databaseUrl = `file:${join(dir, 'api.db')}`
  const devnet = await startDevnet({ port: 0, silent: true })
  let api: ChildProcess | undefined
  let bundler: Awaited<ReturnType<typeof startBundler>> | undefined
  try {
    const bundlerStarted = performance.now()
    bundler = await startBundler({ port: 0, rpcUrl: devnet.rpcUrl, chainId: 31337, silent: true })
    const bundlerStartMs = performance.now() - bundlerStarted
    const env = {
      ...process.env,
      PORTHOLE_API_URL: apiUrl,
      PORTHOLE_DATABASE_URL: databaseUrl,
      PORTHOLE_API_KEY_DIR: dir,
      PORTHOLE_RATE_LIMIT_PER_SECOND: '0',
      PORTHOLE_RPC_UPSTREAMS: JSON.stringify({ [CHAIN]: devnet.rpcUrl }),
      PORTHOLE_BUNDLER_UPSTREAMS: JSON.stringify({ [CHAIN]: bundler.url }),
      PORTHOLE_INDEXER_CHAINS: CHAIN,
      PORTHOLE_INDEXER: 'off',
    }
    api = spawn(resolve(ROOT, 'node_modules/.bin/tsx'), [resolve(ROOT, 'apps/api/src/main.ts')], {
      cwd: ROOT,
      env,
      stdio: 'ignore',
    })
    const deadline = Date.now() + 30_000
    for (;;) {
      const response = await fetch(`${apiUrl}/health`).catch(() => undefined)
      if (response?.ok) break
      if (Date.now() > deadline) throw new Error('the API did not answer in 30 s')
      await new Promise((done) => setTimeout(done, 100))
    }
    // The demo project is sponsored, 20 a day per account: this account sends n + 1.
    const admin = spawnSync(
      resolve(ROOT, 'node_modules/.bin/tsx'),
      [
        resolve(ROOT, 'apps/api/src/admin/cli.ts'),
        'project',
        'sponsorship',
        DEMO_PROJECT_ID,
        'on',
        '--daily-cap',
        String(n + 10),
      ],
      { cwd: ROOT, env, encoding: 'utf8' },
    )
    if (admin.status !== 0) throw new Error(`Could not set the daily cap: ${admin.stderr}`)

    const proxy = http(
      `${apiUrl}/v1?${new URLSearchParams({ chainId: CHAIN, projectId: DEMO_PROJECT_ID, st: 'bench', sv: '1' })}`,
    )
    const client = createPublicClient({
      chain: devnetChain({ chainId: 31337, rpcUrl: devnet.rpcUrl }),
      transport: proxy,
      pollingInterval: 20,
    })
    // The paymaster sponsors the accounts of the project's users: this owner becomes one.
    const owner = privateKeyToAccount(generatePrivateKey())
    const db = await openDatabase({ url: databaseUrl })
    await addProjectUser(db, DEMO_PROJECT_ID, owner.address).finally(() => db.close())
    const account = await toSimpleAccount({ client, owner })
    const bundlerClient = createBundlerClient({
      account,
      client,
      transport: proxy,
      paymaster: true,
      pollingInterval: 20,
      // The bundler's own price, as the wallet asks it (viem's default doubles the chain's tip,
      // which on anvil doubles again with each bundle: the paymaster's fee cap refuses that).
      userOperation: {
        async estimateFeesPerGas() {
          const { standard } = await client.request<{
            Method: 'pimlico_getUserOperationGasPrice'
            Parameters: []
            ReturnType: { standard: { maxFeePerGas: Hex; maxPriorityFeePerGas: Hex } }
          }>({ method: 'pimlico_getUserOperationGasPrice', params: [] })
          return {
            maxFeePerGas: BigInt(standard.maxFeePerGas),
            maxPriorityFeePerGas: BigInt(standard.maxPriorityFeePerGas),
          }
        },
      },
    })
    const to = privateKeyToAccount(generatePrivateKey()).address
    const samples = {
      roundTrip: [] as number[],
      prepare: [] as number[],
      sendToReceipt: [] as number[],
    }
    for (let i = 0; i <= n; i++) {
      const started = performance.now()
      const prepared = await bundlerClient.prepareUserOperation({
        calls: [{ to, value: 0n }],
      })
      const signature = await account.signUserOperation(prepared)
      const signed = performance.now()
      const hash = await bundlerClient.sendUserOperation({ ...prepared, signature })
      const sent = performance.now()
      const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
      const done = performance.now()
      if (!receipt.success) throw new Error(`user operation ${hash} failed`)
      if ((await client.getBalance({ address: receipt.sender })) !== 0n)
        throw new Error('the account paid for gas: the paymaster did not sponsor it')
      if (i === 0) continue
      samples.roundTrip.push(done - started)
      samples.prepare.push(signed - started)
      samples.sendToReceipt.push(done - sent)
    }
    return {
      roundTrip: figures(samples.roundTrip),
      prepare: figures(samples.prepare),
      sendToReceipt: figures(samples.sendToReceipt),
      bundlerStartMs,
    }
  } finally {
    api?.kill('SIGTERM')
    await new Promise((done) => (api && api.exitCode === null ? api.once('exit', done) : done(0)))
    await bundler?.stop()
    await devnet.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Runs the user operation benchmark and prints it; returns the figures for
 * `bench-results.json`.
 *
 * @example
 * const userOps = await userOpBenchmarks()
 */
export async function userOpBenchmarks(n = 20) {
  const result = await userOpBenchmark(n)
  const line = (label: string, f: UserOpFigures) =>
    `  ${label}: median ${Math.round(f.median)} ms, p95 ${Math.round(f.p95)} ms (n=${f.n}, max ${Math.round(f.max)} ms)`
  console.log(
    'Sponsored user operation through the API proxy (SimpleAccount, no ETH; alto bundler, verifying paymaster)',
  )
  console.log(line('send → receipt (round trip)', result.roundTrip))
  console.log(line('  prepare + sponsor + sign', result.prepare))
  console.log(line('  eth_sendUserOperation → receipt', result.sendToReceipt))
  console.log(`  (bundler started in ${Math.round(result.bundlerStartMs)} ms)`)
  console.log('')
  return result
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  await userOpBenchmarks()
