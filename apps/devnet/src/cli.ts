/**
 * Runs the two local devnets until interrupted: chain 31337 at PORTHOLE_DEVNET_RPC
 * (default http://127.0.0.1:8545) and chain 31338 at PORTHOLE_DEVNET_B_RPC (default
 * http://127.0.0.1:8546). Run: `npm start -w @porthole/devnet`.
 */
import { DEVNET_B_CHAIN_ID, DEVNET_CHAIN_ID } from './chain.ts'
import { startDevnet } from './index.ts'

const networks = [
  { chainId: DEVNET_CHAIN_ID, url: process.env.PORTHOLE_DEVNET_RPC || 'http://127.0.0.1:8545' },
  { chainId: DEVNET_B_CHAIN_ID, url: process.env.PORTHOLE_DEVNET_B_RPC || 'http://127.0.0.1:8546' },
]

const started = performance.now()
const devnets = await Promise.all(
  networks.map(({ chainId, url }) => {
    const { hostname, port } = new URL(url)
    return startDevnet({ chainId, host: hostname, port: Number(port || 80), silent: true })
  }),
)
for (const devnet of devnets)
  console.log(
    `devnet ${devnet.chainId} at ${devnet.rpcUrl}: ${devnet.tokens.map((t) => `${t.symbol} ${t.address}`).join(', ')}`,
  )
console.log(`ready in ${Math.round(performance.now() - started)} ms`)

const shutdown = async () => {
  await Promise.all(devnets.map((devnet) => devnet.stop()))
  process.exit(0)
}
process.once('SIGINT', shutdown)
process.once('SIGTERM', shutdown)
