/**
 * Runs the local Solana chain until interrupted, at PORTHOLE_SOLANA_RPC (default
 * http://127.0.0.1:8899; PubSub on the next port). Run: `npx tsx apps/solana/src/cli.ts`.
 */
import {
  endpoints,
  listenHostOf,
  portOf,
  SOLANA_LOCAL_TOKEN,
  SOLANA_TEST_ACCOUNTS,
} from '@porthole/shared'
import { startSolana } from './startSolana.js'

const { solana: url } = endpoints()
const started = performance.now()
const chain = await startSolana({ port: portOf(url), host: listenHostOf(url) })
console.log(`solana ${chain.caipNetworkId} at ${chain.url} (PubSub ${chain.wsUrl})`)
console.log(`pUSD mint ${SOLANA_LOCAL_TOKEN.mint}; test accounts (100 SOL, 1,000 pUSD each):`)
for (const account of SOLANA_TEST_ACCOUNTS) console.log(`  ${account.address}`)
console.log(`ready in ${Math.round(performance.now() - started)} ms`)

const shutdown = async () => {
  await chain.stop()
  process.exit(0)
}
process.once('SIGINT', shutdown)
process.once('SIGTERM', shutdown)
