/**
 * `npm run test-wallet -- '<wc: URI>'`: pairs the WalletKit test wallet (anvil account 2 on
 * the devnets) with a WalletConnect URI copied from the modal, then approves and answers every
 * request (personal_sign, typed data, transactions on the devnet) until Ctrl-C.
 */
import { startTestWallet } from '../e2e/support/testWallet.js'

const uri = process.argv[2]
if (!uri?.startsWith('wc:')) {
  console.error(
    "Usage: npm run test-wallet -- 'wc:…' (copy the link from the modal's WalletConnect view)",
  )
  process.exit(2)
}
const wallet = await startTestWallet({
  privateKey: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  relayUrl: process.env.PORTHOLE_RELAY_URL ?? 'ws://127.0.0.1:4400',
})
await wallet.pair(uri)
console.log(`Paired as ${wallet.address()}; answering requests. Ctrl-C stops.`)
process.once('SIGINT', () => {
  void wallet.close().then(() => process.exit(0))
})
