/**
 * `npm run stack:prod`: the production stack (`prod.ts`) until Ctrl-C or SIGTERM, with its
 * control endpoint (`prodControl.ts`). Prints what runs where, and once what a real deployment
 * must change (`productionProblems` of the replicas' configuration).
 */
import { PROD_ENV, prodPorts, startProdStack } from './prod.js'
import { startProdControl } from './prodControl.js'

const started = performance.now()
// Children run in process groups of their own (stopped in order by `stack.stop()`): a signal
// during the start waits for it, then stops everything.
let interrupted: string | undefined
const early = (signal: NodeJS.Signals) => {
  interrupted ??= signal
  console.log(`\n${signal}: stopping once the start completes…`)
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, early)
const stack = await startProdStack({ log: (line) => console.log(`  ${line}`) }).catch(
  (error: unknown) => {
    console.error(`\nThe production stack could not start: ${(error as Error).message}`)
    process.exit(1)
  },
)
let control: Awaited<ReturnType<typeof startProdControl>> | undefined
let stopping = false
const shutdown = async (signal: string) => {
  if (stopping) return
  stopping = true
  console.log(`\n${signal}: stopping (nginx, replicas drained, services, Redis, PostgreSQL)…`)
  await control?.close()
  await stack.stop()
  console.log('Stopped.')
  process.exit(0)
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.off(signal, early)
  process.on(signal, () => void shutdown(signal))
}
if (interrupted) await shutdown(interrupted)
control = await startProdControl(stack, prodPorts().controlUrl).catch(async (error: unknown) => {
  console.error(`\nThe control endpoint could not start: ${(error as Error).message}`)
  await stack.stop()
  process.exit(1)
})

const { urls } = stack
console.log(`
Porthole production stack is running (${Math.round(performance.now() - started)} ms).

  Demo dapp         ${urls.demo}   (through nginx: the modal, wallet and API below)
  nginx             ${urls.modal} (modal, /sdk.js)   ${urls.wallet} (wallet)   ${urls.api} (API; /metrics denied)
  API replicas      ${stack.replicas.map((r) => `${r.id} ${r.url}`).join('   ')}   (/healthz /readyz /metrics each)
  PostgreSQL        ${stack.state().databaseUrl}
  Redis             ${stack.state().redisUrl}
  Recovery service  ${urls.recovery}
  Relay             ${urls.relay}   (/metrics: porthole_relay_connections)
  E-mail inbox      ${urls.mail}
  Control           ${control.url}/state   (the load test's faults: npm run loadtest)
  Files and logs    ${stack.dir}   (logs: ${stack.logsDir}; ${process.env[PROD_ENV.dir] ? 'kept' : 'removed on stop'})

What a real deployment must change (PORTHOLE_ENV=production refuses to start on these; on
loopback http URLs it cannot be set, since the public URLs themselves are among them):
${stack.productionProblems.map((problem) => `  - ${problem}`).join('\n')}

Press Ctrl-C to stop.
`)
