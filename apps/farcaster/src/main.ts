/**
 * Runs the local Farcaster auth relay until SIGINT/SIGTERM: `npm start -w @porthole/farcaster`.
 * PORTHOLE_FARCASTER_URL (default http://127.0.0.1:4800) chooses the address.
 */
import { startFarcasterRelay } from './startFarcasterRelay.js'

const relay = await startFarcasterRelay()
console.log(`Farcaster auth relay (development only) at ${relay.url}`)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    if (stopping) return
    stopping = true
    void relay.close().then(() => process.exit(0))
  })
