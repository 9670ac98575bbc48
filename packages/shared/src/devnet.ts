/**
 * The local devnets' fixed contracts: every address is what dev account 0's nonces give on a
 * fresh chain (the Farcaster IdRegistry: its own deployer's nonce 0), the same on both devnets. `@porthole/devnet` deploys them; the API's defaults
 * (known tokens, spam list, NFT metadata) name them.
 */

/** The two local devnets (`npm start`). */
export const DEVNET_CHAIN_IDS = ['eip155:31337', 'eip155:31338'] as const

/**
 * The test ERC-20 tokens in deployment order (nonces 0 and 1).
 *
 * @example
 * DEVNET_TOKENS[0] // { name: 'Porthole USD', symbol: 'pUSD', decimals: 6, address: '0x5FbD…' }
 */
export const DEVNET_TOKENS = [
  {
    address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    name: 'Porthole USD',
    symbol: 'pUSD',
    decimals: 6,
  },
  {
    address: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    name: 'Porthole Token',
    symbol: 'PRT',
    decimals: 18,
  },
] as const

/**
 * The seeded ERC-721 collections (nonces 22 and 23): Porthole Pals, and Reward Vouchers, spam
 * airdropped to every dev account. `slug` names their metadata on the API
 * (`<api>/nft/v1/<slug>/<id>`).
 *
 * @example
 * DEVNET_COLLECTIONS.find((c) => c.spam)?.address // '0x3228…6c44'
 */
export const DEVNET_COLLECTIONS = [
  {
    slug: 'porthole-pals',
    name: 'Porthole Pals',
    symbol: 'PALS',
    address: '0x4ed7c70F96B99c776995fB64377f0d4aB3B0e1C1',
    spam: false,
  },
  {
    slug: 'reward-vouchers',
    name: 'Reward Vouchers',
    symbol: 'RWD',
    address: '0x322813Fd9A801c5507c9de605d63CEA4f2CE6c44',
    spam: true,
  },
] as const

/**
 * Who deploys the devnets' IdRegistry: a key of its own (not a dev account), so the registry
 * lands at its nonce 0 on every devnet whatever else happened there. Public: devnet only.
 */
export const FARCASTER_ID_REGISTRY_DEPLOYER = {
  privateKey: '0x4e2215213b12d822cd039410ed7a5140a2dd7e6e3f9ebfa3f97547b19f2fca43',
  address: '0xD4C0ca982337EFE6F05cB4D04E02a80A0E3Bc292',
} as const

/**
 * The IdRegistry of the local devnets (both chains): the deployer's nonce 0.
 *
 * @example
 * await client.readContract({ address: FARCASTER_ID_REGISTRY, abi: idRegistryReadAbi, functionName: 'custodyOf', args: [fid] })
 */
export const FARCASTER_ID_REGISTRY = '0x3eC65bfD8DeF6f6ca505a92d4BD141c8cDd05543' as const

/** The network whose IdRegistry the local stack checks (the first devnet). */
export const FARCASTER_DEVNET_NETWORK = 'eip155:31337' as const

/**
 * The IdRegistry functions a relying party (`custodyOf`, `idOf`, as on Farcaster's own registry)
 * and the test client (`register`, the devnet stand-in's) use.
 */
export const idRegistryReadAbi = [
  {
    type: 'function',
    name: 'custodyOf',
    stateMutability: 'view',
    inputs: [{ name: 'fid', type: 'uint256' }],
    outputs: [{ name: '', type: 'address' }],
  },
  {
    type: 'function',
    name: 'idOf',
    stateMutability: 'view',
    inputs: [{ name: 'owner', type: 'address' }],
    outputs: [{ name: '', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'register',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'fid', type: 'uint256' }],
    outputs: [{ name: '', type: 'uint256' }],
  },
] as const
