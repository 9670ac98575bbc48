/**
 * `npm start`: runs the local stack until Ctrl-C, printing the URLs and the demo project id.
 */
import { startStack } from './index.js'

const started = performance.now()
const stack = await startStack({ log: (line) => console.log(`  ${line}`) }).catch(
  (error: unknown) => {
    console.error(`\nPorthole could not start: ${(error as Error).message}`)
    process.exit(1)
  },
)

console.log(`
Porthole is running (${Math.round(performance.now() - started)} ms).

  Demo dapp         ${stack.urls.demo}   (no extension? ${stack.urls.demo}/?devWallet=1)
  Demo project id   ${stack.projectId}
  Demo, own domain  ${stack.customDomain.demo}   (frames on ${stack.customDomain.modal} and ${stack.customDomain.wallet})
  wagmi example     ${stack.urls.wagmiExample}   (wagmi hooks with porthole() from @porthole/wagmi)
  sdk.js            ${stack.urls.modal}/sdk.js
  E-mail inbox      ${stack.urls.mail}   (login codes, device approvals, wallet notices)
  Social logins     ${stack.urls.oidc}   (local OpenID provider: any e-mail signs in)
  Farcaster relay   ${stack.urls.farcaster}   (npm run test-farcaster -- '<farcaster://connect link>')
  On-ramp checkout  ${stack.urls.onramp}   (test card 4242 4242 4242 4242; pays out devnet pUSD/ETH)
  Bundlers          ${stack.urls.bundler} (chain 31337), ${stack.urls.bundlerB} (chain 31338)   (ERC-4337; gas sponsored through the API's RPC proxy)
  Test tokens       ${stack.tokens.map((t) => `${t.symbol} ${t.address} (chain ${t.chainId})`).join('\n                    ')}

Press Ctrl-C to stop.
`)

let stopping = false
const shutdown = async (signal: string) => {
  if (stopping) return
  stopping = true
  console.log(`\n${signal}: stopping…`)
  await stack.stop()
  console.log('Stopped.')
  process.exit(0)
}
process.on('SIGINT', () => void shutdown('SIGINT'))
// SIGUSR2 restarts the WalletConnect relay (as a relay deploy would): the e2e tests check that
// sessions survive it.
process.on('SIGUSR2', () => {
  console.log('SIGUSR2: restarting the WalletConnect relay…')
  void stack.restartRelay().then(
    () => console.log('relay restarted'),
    (error: unknown) => console.error(`relay restart failed: ${(error as Error).message}`),
  )
})
process.on('SIGTERM', () => void shutdown('SIGTERM'))
