/**
 * `npm run bench`: size budget and browser timings on the real local stack. Prints a report
 * and writes `bench-results.json`; exits non-zero when sdk.js is over its budget.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { spawnStack } from '@porthole/local-stack/spawn'
import { BENCH_ORIGIN, browserBenchmarks } from './browser.js'
import { chainDataBenchmarks } from './chaindata.js'
import { embeddedBenchmarks } from './embedded.js'
import { SDK_BROTLI_BUDGET, sdkSize } from './sdkSize.js'
import { bytes, ms } from './stats.js'
import { relayThroughput, walletConnectBenchmarks } from './walletconnect.js'

const ROOT = resolve(import.meta.dirname, '../..')

const size = sdkSize(ROOT)
console.log('\nsdk.js')
console.log(
  `  raw ${bytes(size.raw)} (${size.raw} B), gzip ${bytes(size.gzip)} (${size.gzip} B), brotli ${bytes(size.brotli)} (${size.brotli} B)`,
)
console.log(`  budget ${SDK_BROTLI_BUDGET} B brotli: ${size.withinBudget ? 'within' : 'OVER'}`)

const dir = mkdtempSync(join(tmpdir(), 'porthole-bench-'))
const env = {
  PORTHOLE_DATABASE_URL: `file:${join(dir, 'bench.db')}`,
  // The recovery service refuses a folder that holds databases: give it its own.
  PORTHOLE_RECOVERY_DATA_DIR: join(dir, 'recovery'),
  PORTHOLE_RELAY_DATABASE_URL: `file:${join(dir, 'relay.db')}`,
}
const stack = await spawnStack(env)
let results: Awaited<ReturnType<typeof browserBenchmarks>>
let embedded: Awaited<ReturnType<typeof embeddedBenchmarks>>
let walletConnect: Awaited<ReturnType<typeof walletConnectBenchmarks>>
try {
  const allow = spawnSync(
    'npm',
    ['run', '--silent', 'admin', '--', 'project', 'allow', 'porthole-demo', BENCH_ORIGIN],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    },
  )
  if (allow.status !== 0) throw new Error(`Could not allow ${BENCH_ORIGIN}: ${allow.stderr}`)
  results = await browserBenchmarks(ROOT)
  embedded = await embeddedBenchmarks(ROOT)
  walletConnect = await walletConnectBenchmarks()
} finally {
  await stack.stop()
  rmSync(dir, { recursive: true, force: true })
}

const { beforeClick, preloaded, cold, roundTrip, chainId } = results
console.log('\nHost page before the first click (frames included)')
console.log(
  `  ${beforeClick.requests} requests, ${bytes(beforeClick.brotli)} brotli (${beforeClick.brotli} B), ${bytes(beforeClick.transferred)} transferred`,
)
for (const file of beforeClick.files.slice(0, 8))
  console.log(`    ${bytes(file.brotli).padStart(9)}  ${file.url}`)
console.log('\nClick → modal frame visible (first animation frame with a box)')
console.log(`  preloaded: median ${ms(preloaded.box.median)}, p95 ${ms(preloaded.box.p95)} (n=20)`)
console.log(`  cold:      median ${ms(cold.box.median)}, p95 ${ms(cold.box.p95)} (n=20)`)
console.log('Click → modal view rendered (modal confirms open)')
console.log(`  preloaded: median ${ms(preloaded.view.median)}, p95 ${ms(preloaded.view.p95)}`)
console.log(`  cold:      median ${ms(cold.view.median)}, p95 ${ms(cold.view.p95)}`)
console.log('\nHost ↔ modal round trip, no-op request (n=1000)')
console.log(
  `  median ${ms(roundTrip.median)}, p99 ${ms(roundTrip.p99)}, mean ${ms(roundTrip.mean)} (timer resolution 0.1 ms)`,
)
console.log('\neth_chainId (1000 calls, per-call mean of 10 batches)')
console.log(
  `  through the SDK provider: median ${ms(chainId.sdk.median)}, p99 ${ms(chainId.sdk.p99)}`,
)
console.log(
  `  directly on the wallet:   median ${ms(chainId.direct.median)}, p99 ${ms(chainId.direct.p99)}`,
)
console.log(`  added: ${ms(chainId.sdk.median - chainId.direct.median)} (median)\n`)

const { frameLoad, toCodeView, toCodeViewTyped, toConnected, approveToSignature } = embedded
console.log('Embedded wallet frame, first load (HTML, JS, CSS, worker)')
console.log(
  `  ${frameLoad.requests} requests, ${bytes(frameLoad.brotli)} brotli (${frameLoad.brotli} B), ${bytes(frameLoad.transferred)} transferred`,
)
for (const file of frameLoad.files.slice(0, 6))
  console.log(`    ${bytes(file.brotli).padStart(9)}  ${file.url}`)
console.log(
  `  + signer Worker ${bytes(frameLoad.workerBrotli)} brotli, fetched by the frame as it starts (size read from dist/)`,
)
console.log(`E-mail login, machine time only (n=${toCodeView.n}, new user each)`)
console.log(
  `  e-mail submitted at once → code view (frame cold): median ${ms(toCodeView.median)}, p95 ${ms(toCodeView.p95)}`,
)
console.log(
  `  after 1.5 s of typing → code view (frame warmed):  median ${ms(toCodeViewTyped.median)}, p95 ${ms(toCodeViewTyped.p95)}`,
)
console.log(
  `  code entered → connected (key made, split, shares stored): median ${ms(toConnected.median)}, p95 ${ms(toConnected.p95)}`,
)
console.log(
  `  total (typed): median ${ms(toCodeViewTyped.median + toConnected.median)}; cold: ${ms(toCodeView.median + toConnected.median)}`,
)
console.log(`Approve click → signature in the host page (personal_sign, n=${approveToSignature.n})`)
console.log(`  median ${ms(approveToSignature.median)}, p95 ${ms(approveToSignature.p95)}\n`)

console.log('WalletConnect over the local relay (Chromium + WalletKit test wallet)')
console.log(
  `  WalletConnect click → URI: median ${ms(walletConnect.toUri.median)}, p95 ${ms(walletConnect.toUri.p95)} (n=${walletConnect.toUri.n})`,
)
console.log(
  `  … clicked as soon as Connect shows (provider still loading): median ${ms(walletConnect.toUriCold.median)}, p95 ${ms(walletConnect.toUriCold.p95)} (n=${walletConnect.toUriCold.n})`,
)
console.log(
  `  pair → connected: median ${ms(walletConnect.pairToConnected.median)}, p95 ${ms(walletConnect.pairToConnected.p95)} (n=${walletConnect.pairToConnected.n})`,
)
console.log(
  `  personal_sign round trip: median ${ms(walletConnect.roundTrip.median)}, p95 ${ms(walletConnect.roundTrip.p95)} (n=${walletConnect.roundTrip.n})`,
)
const relay = await relayThroughput()
const relayFile = await relayThroughput(
  100,
  200,
  `file:${join(mkdtempSync(join(tmpdir(), 'porthole-relay-')), 'relay.db')}`,
)
for (const [label, r] of [
  ['in memory', relay],
  ['in a file (as npm start runs it)', relayFile],
] as const)
  console.log(
    `Relay alone, mailbox ${label}: ${r.clients} clients, ${r.messages} messages delivered in ${r.seconds.toFixed(2)} s = ${Math.round(r.perSecond)} messages/s`,
  )
console.log('')
const chaindata = await chainDataBenchmarks()

writeFileSync(
  resolve(ROOT, 'bench-results.json'),
  `${JSON.stringify({ date: new Date().toISOString(), sdk: size, ...results, embedded, walletConnect, relay, relayFile, chaindata }, null, 2)}\n`,
)
if (!size.withinBudget) process.exit(1)
