/**
 * Runs the local bundlers until SIGINT/SIGTERM: `npm start -w @porthole/bundler`. One alto per
 * devnet: `PORTHOLE_BUNDLER_URL` (default http://127.0.0.1:4350) for `PORTHOLE_DEVNET_RPC`
 * (chain 31337) and `PORTHOLE_BUNDLER_B_URL` (4351) for `PORTHOLE_DEVNET_B_RPC` (chain 31338).
 * The devnets must be running (`npm start -w @porthole/devnet`).
 */
import { endpoints, listenHostOf, portOf } from '@porthole/shared'
import { startBundler } from './startBundler.js'

const urls = endpoints()
const bundlers = await Promise.all(
  [
    { url: urls.bundler, rpcUrl: urls.devnet, chainId: 31337 },
    { url: urls.bundlerB, rpcUrl: urls.devnetB, chainId: 31338 },
  ].map(({ url, rpcUrl, chainId }) =>
    startBundler({ port: portOf(url), host: listenHostOf(url), rpcUrl, chainId }),
  ),
).catch((error: unknown) => {
  console.error(`The bundlers could not start: ${(error as Error).message}`)
  process.exit(1)
})
for (const bundler of bundlers)
  console.log(`ERC-4337 bundler (alto) for chain ${bundler.chainId} at ${bundler.url}`)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    if (stopping) return
    stopping = true
    void Promise.all(bundlers.map((b) => b.stop())).then(() => process.exit(0))
  })
