/**
 * Runs the local WalletConnect relay until SIGINT/SIGTERM: `npm start -w @porthole/relay`.
 * PORTHOLE_RELAY_URL (default ws://127.0.0.1:4400), PORTHOLE_RELAY_DATABASE_URL (mailbox,
 * default file:.data/relay.db).
 */
import { endpoints, portOf } from '@porthole/shared'
import { startRelay } from './startRelay.js'

const { relay: url } = endpoints()
const relay = await startRelay({
  port: portOf(url),
  host: new URL(url).hostname.replace(/^\[|\]$/g, ''),
  publicUrl: url,
  ...(process.env.PORTHOLE_RELAY_DATABASE_URL
    ? { databaseUrl: process.env.PORTHOLE_RELAY_DATABASE_URL }
    : {}),
})
console.log(`WalletConnect relay (development only) at ${relay.url}`)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    if (stopping) return
    stopping = true
    void relay.close().then(() => process.exit(0))
  })
