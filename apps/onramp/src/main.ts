/**
 * Runs the local on-ramp provider until SIGINT/SIGTERM: `npm start -w @porthole/onramp`.
 * PORTHOLE_ONRAMP_URL (default http://127.0.0.1:4900) chooses the address; it pays out on
 * PORTHOLE_DEVNET_RPC and PORTHOLE_DEVNET_B_RPC.
 */
import { startOnrampProvider } from './startOnrampProvider.js'

const provider = await startOnrampProvider()
console.log(`On-ramp provider (development only) at ${provider.url}; treasury ${provider.treasury}`)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    if (stopping) return
    stopping = true
    void provider.close().then(() => process.exit(0))
  })
