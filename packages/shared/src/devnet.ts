/**
 * The local devnets' fixed contracts: every address is what dev account 0's nonces give on a
 * fresh chain, the same on both devnets. `@porthole/devnet` deploys them; the API's defaults
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
