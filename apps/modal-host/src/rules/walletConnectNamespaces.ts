/**
 * The namespaces a WalletConnect pairing asks for, per the configured networks (issue 4):
 * eip155 (reads through `rpcUrl`), solana, bip122, polkadot and cosmos when such networks are
 * configured. All are optional namespaces: a wallet approves what it supports.
 */
import type { Network } from '@porthole/shared'

/** Methods and events per namespace. */
export const NAMESPACE_METHODS = {
  eip155: {
    methods: [
      'eth_accounts',
      'eth_requestAccounts',
      'eth_sendTransaction',
      'eth_sign',
      'personal_sign',
      'eth_signTypedData',
      'eth_signTypedData_v4',
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'wallet_getCapabilities',
      'wallet_sendCalls',
      'wallet_getCallsStatus',
      'wallet_grantPermissions',
      'wallet_getAssets',
    ],
    events: ['accountsChanged', 'chainChanged'],
  },
  solana: {
    methods: [
      'solana_signMessage',
      'solana_signTransaction',
      'solana_signAndSendTransaction',
      'solana_signAllTransactions',
    ],
    events: [],
  },
  bip122: {
    methods: ['signMessage', 'sendTransfer', 'signPsbt', 'getAccountAddresses'],
    events: ['bip122_addressesChanged'],
  },
  polkadot: { methods: ['polkadot_signTransaction', 'polkadot_signMessage'], events: [] },
  cosmos: { methods: ['cosmos_getAccounts', 'cosmos_signDirect', 'cosmos_signAmino'], events: [] },
} as const

type Namespace = {
  methods: string[]
  chains: string[]
  events: string[]
  rpcMap?: Record<string, string>
}

/**
 * The optional namespaces for `networks`; `rpcUrl` names the read endpoint of an EVM chain.
 *
 * @example
 * walletConnectNamespaces(networks, (id) => `${api}/v1?chainId=${id}`)
 * // { eip155: { chains: ['eip155:1'], methods: [...], events: [...], rpcMap: { '1': '…' } } }
 */
export function walletConnectNamespaces(
  networks: readonly Network[],
  rpcUrl: (caipNetworkId: string) => string,
): Record<string, Namespace> {
  const out: Record<string, Namespace> = {}
  for (const network of networks) {
    const known = NAMESPACE_METHODS[network.chainNamespace]
    if (!known) continue
    const entry = out[network.chainNamespace] ?? {
      methods: [...known.methods],
      chains: [],
      events: [...known.events],
    }
    out[network.chainNamespace] = entry
    if (entry.chains.includes(network.caipNetworkId)) continue
    entry.chains.push(network.caipNetworkId)
    if (network.chainNamespace === 'eip155') {
      entry.rpcMap ??= {}
      entry.rpcMap[String(network.id)] = rpcUrl(network.caipNetworkId)
    }
  }
  return out
}
