/**
 * The local Solana chain of the stack (`@porthole/solana`, litesvm behind JSON-RPC): its fixed
 * genesis hash, funded test accounts and the pUSD-like SPL token minted to them. Test keys
 * only — the seeds are public.
 */

/** The genesis hash the local chain reports (`getGenesisHash`): base58 of sha256('porthole-solana-localnet'). */
export const SOLANA_LOCALNET_GENESIS = 'DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8PADQx6ZiPzUxP'

/** Its CAIP-2 id: `solana:` and the first 32 characters of the genesis hash. */
export const SOLANA_LOCALNET_CAIP = `solana:${SOLANA_LOCALNET_GENESIS.slice(0, 32)}` as const

/** The Wallet Standard chain name wallets declare for it. */
export const SOLANA_LOCALNET_STANDARD_CHAIN = 'solana:localnet'

/**
 * Funded test accounts: ed25519 seeds (hex, sha256 of 'porthole solana test account <i>')
 * and their addresses. Each holds 100 SOL and 1,000 pUSD on a fresh chain.
 *
 * @example
 * SOLANA_TEST_ACCOUNTS[0].address // '61UAJ1bKEr1fAZrwXYvvdCvExdMQHA7meRCN4txEvjys'
 */
export const SOLANA_TEST_ACCOUNTS = [
  {
    seed: '94697ab7614dc237688547029631e82f3f4f147f8a1dab8f622d1f135898dcc0',
    address: '61UAJ1bKEr1fAZrwXYvvdCvExdMQHA7meRCN4txEvjys',
  },
  {
    seed: '5a4076701b9d34fb5378f6d911d165c183792490eee892f03385041d1e41d72b',
    address: '4MDqfpxHQbWrZs4LLBhiDZXbNQsaQv9dgg3eUJrvUFWx',
  },
  {
    seed: '25d41e771f793c5f7b5927481c29b7350b3dacdca8b9a3944fe97a8b15330515',
    address: 'FWtZG74VnMD9UjtPkxFERkkMCq79NRuf2kVMq5RS5Dvj',
  },
] as const

/** The pUSD-like SPL token (6 decimals); its mint key seed is sha256('porthole solana pUSD mint'). */
export const SOLANA_LOCAL_TOKEN = {
  mint: 'D7H6SUokngbq8FcKMRxVHykdWrveHNupeJyZZQFbHJEA',
  mintSeed: '61b0e7bb2be114c50996467f087f441df477b9dcc6f0b5d1dd0b42c9321626cf',
  name: 'Porthole USD',
  symbol: 'pUSD',
  decimals: 6,
} as const
