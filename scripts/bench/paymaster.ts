/**
 * The paymaster's worst case for one request (issue 25), on its own devnet and API (free ports,
 * temp SQLite; the API runs as its own process, `apps/api/src/main.ts`, with the default
 * policy): a stranger (no login, a fresh key, the demo project's id) and a user of the demo
 * project each ask `pm_getPaymasterData` for the most expensive sponsorship the API will sign
 * (the fee caps the refusal names, every gas field at its bound, a call that burns all its gas,
 * fitted to the per-operation cost), and land what they get themselves with
 * `EntryPoint.handleOps` from their own key, as beneficiary and coinbase (so they keep the tips
 * too). Prints the paymaster deposit's drop and the attacker's gain over several runs, and
 * fails when a drop passes the per-operation budget.
 * Run alone: `npm run bench -- paymaster` (or `npx tsx scripts/bench/paymaster.ts`).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DEFAULT_PAYMASTER_POLICY } from '@porthole/api'
import { openDatabase } from '@porthole/api/db'
import { devnetChain, startDevnet, toSimpleAccount } from '@porthole/devnet'
import { DEMO_PROJECT_ID } from '@porthole/shared'
import { ENTRY_POINT_07 } from '@porthole/shared/devnet'
import { createPublicClient, formatEther, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { freePort } from '../../apps/api/test/freePort.js'
import {
  addProjectUser,
  askAndLand,
  mostExpensiveOperation,
  type PaymasterProxy,
  rpcOperation,
} from '../../apps/api/test/paymasterAttacker.js'
import { quantile } from './stats.js'

const ROOT = resolve(import.meta.dirname, '../..')
const CHAIN = 'eip155:31337'

/** A range of wei over the runs. */
export type WeiRange = { min: bigint; max: bigint }

/** What {@link paymasterWorstCase} measures. */
export type PaymasterWorstCaseReturnType = {
  runs: number
  /** The per-operation budget of the API's policy, in wei. */
  budget: bigint
  /** The stranger's asks: how many were refused, with which codes, and the deposit's drop. */
  stranger: { refused: number; codes: number[]; drop: WeiRange }
  /** The project user's landed sponsorships. */
  user: { drop: WeiRange; gain: WeiRange; maxCharge: WeiRange }
  /** Whether every drop stayed within the budget. */
  withinBudget: boolean
  /** How long `pm_getPaymasterData` takes for a user's ordinary operation, in ms (n = runs × 4). */
  latencyMs: { median: number; p95: number }
}

const range = (values: bigint[]): WeiRange => ({
  min: values.reduce((a, b) => (b < a ? b : a)),
  max: values.reduce((a, b) => (b > a ? b : a)),
})

/**
 * Measures the paymaster's worst case (see the module comment) over `runs` runs each.
 *
 * @example
 * const { user, withinBudget } = await paymasterWorstCase(5)
 */
export async function paymasterWorstCase(runs = 5): Promise<PaymasterWorstCaseReturnType> {
  const dir = mkdtempSync(join(tmpdir(), 'porthole-bench-paymaster-'))
  const apiUrl = `http://127.0.0.1:${await freePort()}`
  const databaseUrl = `file:${join(dir, 'api.db')}`
  const devnet = await startDevnet({ port: 0, silent: true })
  let api: ChildProcess | undefined
  try {
    api = spawn(resolve(ROOT, 'node_modules/.bin/tsx'), [resolve(ROOT, 'apps/api/src/main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORTHOLE_API_URL: apiUrl,
        PORTHOLE_DATABASE_URL: databaseUrl,
        PORTHOLE_API_KEY_DIR: dir,
        PORTHOLE_RATE_LIMIT_PER_SECOND: '0',
        PORTHOLE_RPC_UPSTREAMS: JSON.stringify({ [CHAIN]: devnet.rpcUrl }),
        PORTHOLE_INDEXER_CHAINS: CHAIN,
        PORTHOLE_INDEXER: 'off',
      },
      stdio: 'ignore',
    })
    const deadline = Date.now() + 30_000
    for (;;) {
      const response = await fetch(`${apiUrl}/health`).catch(() => undefined)
      if (response?.ok) break
      if (Date.now() > deadline) throw new Error('the API did not answer in 30 s')
      await new Promise((done) => setTimeout(done, 100))
    }
    const url = `${apiUrl}/v1?${new URLSearchParams({ chainId: CHAIN, projectId: DEMO_PROJECT_ID, st: 'bench', sv: '1' })}`
    const proxy: PaymasterProxy = async (method, params) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
      return (await response.json()) as Awaited<ReturnType<PaymasterProxy>>
    }
    const client = createPublicClient({
      chain: devnetChain({ chainId: 31337, rpcUrl: devnet.rpcUrl }),
      transport: http(devnet.rpcUrl),
    })
    const db = await openDatabase({ url: databaseUrl })
    const newAccount = async (member: boolean) => {
      const owner = privateKeyToAccount(generatePrivateKey())
      if (member) await addProjectUser(db, DEMO_PROJECT_ID, owner.address)
      return toSimpleAccount({ client, owner })
    }
    const latencies: number[] = []
    const stranger = { refused: 0, codes: new Set<number>(), drops: [] as bigint[] }
    const user = { drops: [] as bigint[], gains: [] as bigint[], charges: [] as bigint[] }
    try {
      for (let run = 0; run < runs; run++) {
        // The user's most expensive operation; the stranger asks the same of its own account.
        const account = await newAccount(true)
        const op = await mostExpensiveOperation({ proxy, rpcUrl: devnet.rpcUrl, account })
        const landed = await askAndLand({ proxy, rpcUrl: devnet.rpcUrl, account, op })
        if (!landed.landed)
          throw new Error(`The project user was refused: ${JSON.stringify(landed.refused)}`)
        user.drops.push(landed.landed.drop)
        user.gains.push(landed.landed.gain)
        user.charges.push(landed.landed.maxCharge)
        const strangerAccount = await newAccount(false)
        const { factory, factoryData } = await strangerAccount.getFactoryArgs()
        const asked = await askAndLand({
          proxy,
          rpcUrl: devnet.rpcUrl,
          account: strangerAccount,
          op: {
            ...op,
            sender: strangerAccount.address,
            nonce: 0n,
            factory,
            factoryData,
            callData: await strangerAccount.encodeCalls([{ to: strangerAccount.address }]),
          },
        })
        if (asked.refused) {
          stranger.refused++
          stranger.codes.add(asked.refused.code)
        }
        stranger.drops.push(asked.landed?.drop ?? 0n)
        // What the checks cost a user: an ordinary first operation, asked 4 times.
        const ordinary = await newAccount(true)
        const args = await ordinary.getFactoryArgs()
        const params = [
          rpcOperation({
            sender: ordinary.address,
            nonce: 0n,
            ...args,
            callData: await ordinary.encodeCalls([{ to: ordinary.address }]),
            callGasLimit: 100_000n,
            verificationGasLimit: 400_000n,
            preVerificationGas: 60_000n,
            maxFeePerGas: op.maxFeePerGas / 2n,
            maxPriorityFeePerGas: op.maxPriorityFeePerGas / 2n,
          }),
          ENTRY_POINT_07,
          '0x7a69',
          {},
        ]
        for (let i = 0; i < 4; i++) {
          const started = performance.now()
          const answer = await proxy('pm_getPaymasterData', params)
          latencies.push(performance.now() - started)
          if (answer.error)
            throw new Error(`The ordinary operation was refused: ${answer.error.message}`)
        }
      }
    } finally {
      await db.close()
    }
    const budget = DEFAULT_PAYMASTER_POLICY.maxOperationCost
    const drops = [...user.drops, ...stranger.drops]
    return {
      runs,
      budget,
      stranger: {
        refused: stranger.refused,
        codes: [...stranger.codes],
        drop: range(stranger.drops),
      },
      user: { drop: range(user.drops), gain: range(user.gains), maxCharge: range(user.charges) },
      withinBudget: drops.every((drop) => drop <= budget),
      latencyMs: { median: quantile(latencies, 0.5), p95: quantile(latencies, 0.95) },
    }
  } finally {
    api?.kill('SIGTERM')
    await new Promise((done) => (api && api.exitCode === null ? api.once('exit', done) : done(0)))
    await devnet.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Runs {@link paymasterWorstCase} and prints it; returns the figures (wei as strings) for
 * `bench-results.json`.
 *
 * @example
 * const paymaster = await paymasterBenchmarks()
 */
export async function paymasterBenchmarks(runs = 5) {
  const result = await paymasterWorstCase(runs)
  const eth = ({ min, max }: WeiRange) =>
    min === max ? `${formatEther(min)} ETH` : `${formatEther(min)}–${formatEther(max)} ETH`
  console.log(
    `Paymaster worst case for one request (${runs} runs each; per-operation budget ${formatEther(result.budget)} ETH; the attacker lands it with its own handleOps, as beneficiary and coinbase)`,
  )
  console.log(
    `  stranger (no login, fresh key, the demo's id): refused ${result.stranger.refused} of ${runs} (${result.stranger.codes.join(', ')}); deposit drop ${eth(result.stranger.drop)}`,
  )
  console.log(
    `  project user, most expensive sponsorship signed: deposit drop ${eth(result.user.drop)}, attacker gain ${eth(result.user.gain)} (maximum charge signed ${eth(result.user.maxCharge)})`,
  )
  console.log(`  ${result.withinBudget ? 'within' : 'OVER'} the per-operation budget`)
  console.log(
    `  pm_getPaymasterData for an ordinary first operation (account, nonce, fee and reservation checks): median ${Math.round(result.latencyMs.median)} ms, p95 ${Math.round(result.latencyMs.p95)} ms\n`,
  )
  const wei = ({ min, max }: WeiRange) => ({ min: min.toString(), max: max.toString() })
  return {
    runs,
    budgetWei: result.budget.toString(),
    stranger: { ...result.stranger, drop: wei(result.stranger.drop) },
    user: {
      drop: wei(result.user.drop),
      gain: wei(result.user.gain),
      maxCharge: wei(result.user.maxCharge),
    },
    withinBudget: result.withinBudget,
    latencyMs: result.latencyMs,
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { withinBudget } = await paymasterBenchmarks()
  process.exit(withinBudget ? 0 : 1)
}
