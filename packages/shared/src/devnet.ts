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

/**
 * Who deploys the devnets' AMM (Uniswap V2: WETH9, factory, Router02 at its nonces 0, 1 and 2)
 * and provides the pools' liquidity: a key of its own, so the AMM lands at the same addresses on
 * every devnet. Public: devnet only.
 */
export const AMM_DEPLOYER = {
  privateKey: '0xa881b16244c326aee5b8caf51c5910504760ce02d269ba143f17cc47705f850f',
  address: '0xe509576D51B61C3b39a267d89B31A280B38c9168',
} as const

/**
 * The devnets' Uniswap V2 contracts (both chains): {@link AMM_DEPLOYER}'s nonces 0, 1 and 2.
 *
 * @example
 * await client.readContract({ address: DEVNET_AMM.router, abi, functionName: 'getAmountsOut', args: [amount, path] })
 */
export const DEVNET_AMM = {
  weth: '0x781C2eaEF52c262f6a77E6745d4807B9E3Ec2565',
  factory: '0x2DddA3d6203973b607253a2FaE21BC21c0E9AFAb',
  router: '0x9C2E0D25F519D2645f780FA62820f821ff79a52D',
} as const

/**
 * The local on-ramp provider's treasury: it pays out what a checkout buys (pUSD or ETH) on the
 * devnets. Funded when a devnet starts. Public: devnet only.
 */
export const ONRAMP_TREASURY = {
  privateKey: '0x407bc8276abfb72351c8213b24279d1b037bedd9f794f7006ed4a29ece473dec',
  address: '0x8963DFD81827E0975095067307be2C808Bf81485',
} as const

/**
 * The Uniswap V2 Router02 functions the API's swap quoter and the devnet use: quotes
 * (`getAmountsOut`), the three exact-input swaps, and the router's factory and WETH.
 *
 * @example
 * await client.readContract({ address: DEVNET_AMM.router, abi: uniswapV2RouterAbi, functionName: 'getAmountsOut', args: [10n ** 18n, [DEVNET_AMM.weth, DEVNET_TOKENS[0].address]] })
 */
export const uniswapV2RouterAbi = [
  {
    type: 'function',
    name: 'factory',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'address' }],
  },
  {
    type: 'function',
    name: 'WETH',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'address' }],
  },
  {
    type: 'function',
    name: 'getAmountsOut',
    stateMutability: 'view',
    inputs: [
      { name: 'amountIn', type: 'uint256' },
      { name: 'path', type: 'address[]' },
    ],
    outputs: [{ name: 'amounts', type: 'uint256[]' }],
  },
  {
    type: 'function',
    name: 'swapExactETHForTokens',
    stateMutability: 'payable',
    inputs: [
      { name: 'amountOutMin', type: 'uint256' },
      { name: 'path', type: 'address[]' },
      { name: 'to', type: 'address' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [{ name: 'amounts', type: 'uint256[]' }],
  },
  {
    type: 'function',
    name: 'swapExactTokensForETH',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'amountIn', type: 'uint256' },
      { name: 'amountOutMin', type: 'uint256' },
      { name: 'path', type: 'address[]' },
      { name: 'to', type: 'address' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [{ name: 'amounts', type: 'uint256[]' }],
  },
  {
    type: 'function',
    name: 'swapExactTokensForTokens',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'amountIn', type: 'uint256' },
      { name: 'amountOutMin', type: 'uint256' },
      { name: 'path', type: 'address[]' },
      { name: 'to', type: 'address' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [{ name: 'amounts', type: 'uint256[]' }],
  },
] as const

/**
 * The Uniswap V2 factory's pair lookup (zero address: no pool).
 *
 * @example
 * await client.readContract({ address: DEVNET_AMM.factory, abi: uniswapV2FactoryAbi, functionName: 'getPair', args: [a, b] })
 */
export const uniswapV2FactoryAbi = [
  {
    type: 'function',
    name: 'getPair',
    stateMutability: 'view',
    inputs: [
      { name: 'tokenA', type: 'address' },
      { name: 'tokenB', type: 'address' },
    ],
    outputs: [{ name: 'pair', type: 'address' }],
  },
] as const

/**
 * A Uniswap V2 pair's reserves and token order (`token0` is the lower address).
 *
 * @example
 * const [reserve0, reserve1] = await client.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: 'getReserves' })
 */
export const uniswapV2PairAbi = [
  {
    type: 'function',
    name: 'getReserves',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { name: 'reserve0', type: 'uint112' },
      { name: 'reserve1', type: 'uint112' },
      { name: 'blockTimestampLast', type: 'uint32' },
    ],
  },
  {
    type: 'function',
    name: 'token0',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'address' }],
  },
] as const

/**
 * The local on-ramp provider's partner keys (`npm start -w @porthole/onramp` and the API's
 * defaults): `apiKey` authenticates the API's server-to-server calls, `publicKey` names the
 * partner in checkout links. Public: development only; a real provider's are configuration
 * (`PORTHOLE_ONRAMP_API_KEY`, `PORTHOLE_ONRAMP_PUBLIC_KEY`).
 *
 * @example
 * fetch(`${endpoints().onramp}/api/options`, { headers: { authorization: `Bearer ${ONRAMP_LOCAL_KEYS.apiKey}` } })
 */
export const ONRAMP_LOCAL_KEYS = {
  apiKey: 'porthole-local-onramp-api-key',
  publicKey: 'porthole-local-onramp-public-key',
} as const

/** ERC-4337 EntryPoint v0.7 at its canonical address (both devnets; `anvil_setCode`). */
export const ENTRY_POINT_07 = '0x0000000071727De22E5E9d8BAf0edAc6f37da032' as const

/** EntryPoint v0.7's canonical SenderCreator (its runtime code is patched to point at it). */
export const SENDER_CREATOR_07 = '0xEFC2c1444eBCC4Db75e7613d20C6a62fF67A167C' as const

/**
 * Who deploys the devnets' account factory and paymaster (nonces 0 and 1): a key of its own, so
 * they land at the same addresses on every devnet. Public: devnet only.
 */
export const AA_DEPLOYER = {
  privateKey: '0x160e7d9d5add0636ec5594d4711bf6d28b9593fa0aa58c351f81ac6966550ce5',
  address: '0x4D9A94326C1F3b5329B48a375cD1146B82eF6b4C',
} as const

/**
 * The devnets' ERC-4337 contracts: eth-infinitism's SimpleAccountFactory v0.7 (AA_DEPLOYER nonce
 * 0) and VerifyingPaymaster v0.7 (nonce 1, its verifying signer {@link PAYMASTER_SIGNER}).
 */
export const DEVNET_AA = {
  entryPoint: ENTRY_POINT_07,
  accountFactory: '0x9D85fb8880ee8F8653DCE0cAa4F06Ca3Ad1F0F0B',
  paymaster: '0x787c01675e3a719eECc406C7Fe05f8F0Ac25A34C',
} as const

/** The verifying paymaster's signer on the devnets (the API signs sponsorships with it). */
export const PAYMASTER_SIGNER = {
  privateKey: '0x563d32796620027bb7e237a7d051475977810fdf80e8aa8de253826d14406ef7',
  address: '0xE8D9458827e2D6C548A967ec8590F223EF781270',
} as const

/** The local bundler's (alto) executor and utility keys, funded when a devnet starts. */
export const BUNDLER_KEYS = {
  executor: {
    privateKey: '0x10c44b50f4cd0fba703da0532736d4ece63ddeb877b60b158eb9eceba0ee3367',
    address: '0x9f8582CAA452940f75576Ee2755e438a4e8A24C7',
  },
  utility: {
    privateKey: '0x8ece8e6bf69e15ba7eb4eaf1dd81b77e1357d5f50d5236eaabe889dc0e888bbf',
    address: '0x871c42A4d92909A8e38ECE1C562a19086b4F3745',
  },
} as const
