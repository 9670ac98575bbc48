/**
 * Networks (spec §3 "Network"): a registry of the ones Porthole knows by CAIP-2 id, and the
 * resolution of a dapp's `networks` option (ids or objects) into full network values.
 */
import type { NetworkInput } from '@porthole/protocol'
import { BITCOIN_REGTEST_CAIP } from './bitcoinLocal.js'
import { type ChainNamespace, isChainNamespace, parseCaipNetworkId } from './caip.js'
import { SOLANA_LOCALNET_CAIP } from './solanaLocal.js'

/** A network as the modal uses it. */
export type Network = {
  id: number | string
  chainNamespace: ChainNamespace
  caipNetworkId: string
  name: string
  nativeCurrency: { name: string; symbol: string; decimals: number }
  rpcUrls: { default: { http: string[] }; chainDefault?: { http: string[] } }
  blockExplorers?: { default: { name: string; url: string } }
  testnet: boolean
  assets: { imageId: string; imageUrl?: string }
}

const ETH = { name: 'Ether', symbol: 'ETH', decimals: 18 }

function evm(
  id: number,
  name: string,
  rpc: string,
  explorer?: [string, string],
  extra: { testnet?: boolean; nativeCurrency?: Network['nativeCurrency'] } = {},
): Network {
  return {
    id,
    chainNamespace: 'eip155',
    caipNetworkId: `eip155:${id}`,
    name,
    nativeCurrency: extra.nativeCurrency ?? ETH,
    rpcUrls: { default: { http: [rpc] } },
    ...(explorer ? { blockExplorers: { default: { name: explorer[0], url: explorer[1] } } } : {}),
    testnet: extra.testnet ?? false,
    assets: { imageId: `eip155:${id}` },
  }
}

/** Networks known by id; a dapp may name these by CAIP-2 id alone. */
export const KNOWN_NETWORKS: readonly Network[] = [
  evm(1, 'Ethereum', 'https://eth.merkle.io', ['Etherscan', 'https://etherscan.io']),
  evm(10, 'OP Mainnet', 'https://mainnet.optimism.io', [
    'Optimism Explorer',
    'https://optimistic.etherscan.io',
  ]),
  evm(137, 'Polygon', 'https://polygon-rpc.com', ['PolygonScan', 'https://polygonscan.com'], {
    nativeCurrency: { name: 'POL', symbol: 'POL', decimals: 18 },
  }),
  evm(8453, 'Base', 'https://mainnet.base.org', ['Basescan', 'https://basescan.org']),
  evm(42161, 'Arbitrum One', 'https://arb1.arbitrum.io/rpc', ['Arbiscan', 'https://arbiscan.io']),
  evm(
    56,
    'BNB Smart Chain',
    'https://bsc-dataseed1.bnbchain.org',
    ['BscScan', 'https://bscscan.com'],
    {
      nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    },
  ),
  evm(
    11155111,
    'Sepolia',
    'https://rpc.sepolia.org',
    ['Etherscan', 'https://sepolia.etherscan.io'],
    {
      testnet: true,
    },
  ),
  evm(31337, 'Porthole Devnet', 'http://127.0.0.1:8545', undefined, { testnet: true }),
  evm(31338, 'Porthole Devnet B', 'http://127.0.0.1:8546', undefined, { testnet: true }),
  {
    id: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    chainNamespace: 'solana',
    caipNetworkId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    name: 'Solana',
    nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
    rpcUrls: { default: { http: ['https://api.mainnet-beta.solana.com'] } },
    blockExplorers: { default: { name: 'Solscan', url: 'https://solscan.io' } },
    testnet: false,
    assets: { imageId: 'solana' },
  },
  {
    id: '000000000019d6689c085ae165831e93',
    chainNamespace: 'bip122',
    caipNetworkId: 'bip122:000000000019d6689c085ae165831e93',
    name: 'Bitcoin',
    nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
    rpcUrls: { default: { http: [] } },
    blockExplorers: { default: { name: 'Mempool', url: 'https://mempool.space' } },
    testnet: false,
    assets: { imageId: 'bip122' },
  },
  {
    id: SOLANA_LOCALNET_CAIP.slice('solana:'.length),
    chainNamespace: 'solana',
    caipNetworkId: SOLANA_LOCALNET_CAIP,
    name: 'Porthole Solana Localnet',
    nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
    rpcUrls: { default: { http: ['http://127.0.0.1:8899'] } },
    testnet: true,
    assets: { imageId: 'solana' },
  },
  {
    id: BITCOIN_REGTEST_CAIP.slice('bip122:'.length),
    chainNamespace: 'bip122',
    caipNetworkId: BITCOIN_REGTEST_CAIP,
    name: 'Bitcoin Regtest',
    nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
    rpcUrls: { default: { http: ['http://127.0.0.1:18443'] } },
    testnet: true,
    assets: { imageId: 'bip122' },
  },
]

const byId = new Map(KNOWN_NETWORKS.map((n) => [n.caipNetworkId, n]))

/**
 * The known network with this CAIP-2 id, if any.
 *
 * @example
 * getKnownNetwork('eip155:8453')?.name // 'Base'
 */
export function getKnownNetwork(caipNetworkId: string): Network | undefined {
  return byId.get(caipNetworkId)
}

/**
 * Turns one entry of the `networks` option into a {@link Network}: ids must be known; objects
 * are completed (namespace eip155 by default, CAIP id from `id`). Returns `undefined` for an
 * unknown id or an object that cannot be completed. An object naming a known network keeps
 * that network's name and native currency: they are the wallet's word on approval cards, and a
 * host page must not make 1 ETH read 10⁻¹⁸ of something (its RPC URLs and explorer it may give).
 *
 * @example
 * resolveNetwork('eip155:1')?.name // 'Ethereum'
 */
export function resolveNetwork(input: string | NetworkInput): Network | undefined {
  if (typeof input === 'string') return getKnownNetwork(input)
  const namespace = input.chainNamespace ?? 'eip155'
  if (!isChainNamespace(namespace)) return undefined
  const caipNetworkId = input.caipNetworkId ?? `${namespace}:${input.id}`
  try {
    if (parseCaipNetworkId(caipNetworkId).namespace !== namespace) return undefined
  } catch {
    return undefined
  }
  const known = getKnownNetwork(caipNetworkId)
  const http = input.rpcUrls.default?.http ?? known?.rpcUrls.default.http ?? []
  const explorer = input.blockExplorers?.default ?? known?.blockExplorers?.default
  return {
    id: input.id,
    chainNamespace: namespace,
    caipNetworkId,
    name: known?.name ?? input.name,
    nativeCurrency: { ...(known?.nativeCurrency ?? input.nativeCurrency) },
    rpcUrls: { default: { http: [...http] } },
    ...(explorer
      ? { blockExplorers: { default: { name: explorer.name, url: explorer.url } } }
      : {}),
    testnet: input.testnet ?? known?.testnet ?? false,
    assets: {
      imageId: input.assets?.imageId ?? known?.assets.imageId ?? caipNetworkId,
      ...(input.assets?.imageUrl ? { imageUrl: input.assets.imageUrl } : {}),
    },
  }
}

/**
 * Resolves the whole `networks` option: unknown entries are dropped (and returned apart so
 * the caller can report them), duplicates keep the first.
 *
 * @example
 * const { networks, unknown } = resolveNetworks(['eip155:1', 'eip155:999999'])
 */
export function resolveNetworks(inputs: readonly (string | NetworkInput)[]): {
  networks: Network[]
  unknown: string[]
} {
  const networks: Network[] = []
  const unknown: string[] = []
  for (const input of inputs) {
    const network = resolveNetwork(input)
    if (!network) unknown.push(typeof input === 'string' ? input : String(input.id))
    else if (!networks.some((n) => n.caipNetworkId === network.caipNetworkId))
      networks.push(network)
  }
  return { networks, unknown }
}

/**
 * The chain id as wallets want it for eip155 (`0x`-hex), e.g. for `wallet_switchEthereumChain`.
 *
 * @example
 * toHexChainId(8453) // '0x2105'
 */
export function toHexChainId(id: number | string): `0x${string}` {
  return `0x${Number(id).toString(16)}`
}
