/**
 * Serves the built modal (+ sdk.js) and wallet apps until interrupted, on the addresses of
 * `endpoints()` (PORTHOLE_MODAL_URL, PORTHOLE_WALLET_URL, PORTHOLE_API_URL, PORTHOLE_RELAY_URL).
 * Run: `npm start -w @porthole/static-hosting`.
 */
import { startFrontends } from './frontends.ts'

const frontends = await startFrontends()
console.log(`modal + sdk.js at ${frontends.modal.url}, wallet at ${frontends.wallet.url}`)

const shutdown = async () => {
  await frontends.close()
  process.exit(0)
}
process.once('SIGINT', shutdown)
process.once('SIGTERM', shutdown)
