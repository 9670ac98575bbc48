/**
 * Runs the regtest stand-in until interrupted, at PORTHOLE_BITCOIN_URL (default
 * http://127.0.0.1:18443), with the test accounts funded. Run: `npm start -w @porthole/bitcoin`.
 */
import { BITCOIN_TEST_ACCOUNTS, endpoints, listenHostOf, portOf } from '@porthole/shared'
import { startBitcoin } from './index.ts'

const url = endpoints().bitcoin
const bitcoin = await startBitcoin({ port: portOf(url), host: listenHostOf(url) })
console.log(`bitcoin regtest (Esplora API) at ${bitcoin.url}, tip ${bitcoin.chain.tip().height}`)
for (const account of BITCOIN_TEST_ACCOUNTS)
  console.log(
    `  account ${account.index}: payment ${account.payment.address} (1 BTC), ordinal ${account.ordinal.address}`,
  )

const shutdown = async () => {
  await bitcoin.stop()
  process.exit(0)
}
process.once('SIGINT', shutdown)
process.once('SIGTERM', shutdown)
