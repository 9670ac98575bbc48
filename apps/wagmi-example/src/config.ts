/**
 * The example's wagmi config: the two local devnets and the Porthole connector. The addresses
 * come from the page (the local stack's server writes them into `#root`), else the defaults.
 */
import { porthole } from '@porthole/wagmi'
import { defineChain } from 'viem'
import { createConfig, http } from 'wagmi'

const page = document.getElementById('root')?.dataset ?? {}
/** A value the server filled in, or `fallback` (the placeholder is still there under `vite`). */
const setting = (value: string | undefined, fallback: string) =>
  value && !value.startsWith('__') ? value : fallback

/** The local devnet (anvil), chain 31337. */
export const devnet = defineChain({
  id: 31337,
  name: 'Porthole Devnet',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [setting(page.devnetRpc, 'http://127.0.0.1:8545')] } },
  testnet: true,
})

/** The second local devnet, chain 31338. */
export const devnetB = defineChain({
  ...devnet,
  id: 31338,
  name: 'Porthole Devnet B',
  rpcUrls: { default: { http: [setting(page.devnetBRpc, 'http://127.0.0.1:8546')] } },
})

/** The one line that puts the app on Porthole is the connector. */
export const config = createConfig({
  chains: [devnet, devnetB],
  connectors: [
    porthole({
      projectId: setting(page.projectId, 'porthole-demo'),
      modalUrl: setting(page.modalUrl, 'http://127.0.0.1:4100'),
      metadata: { name: 'Porthole + wagmi example', url: location.origin },
    }),
  ],
  transports: { [devnet.id]: http(), [devnetB.id]: http() },
  // The page's browser wallets are offered inside the Porthole modal: no second list here.
  multiInjectedProviderDiscovery: false,
})

declare module 'wagmi' {
  interface Register {
    config: typeof config
  }
}
