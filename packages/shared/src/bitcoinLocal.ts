/**
 * The local Bitcoin regtest of the stack (`@porthole/bitcoin`, an in-process stand-in: Debian
 * has no bitcoind). Regtest's real genesis block, so its CAIP-2 id is the standard one.
 */

/** Regtest's genesis block hash. */
export const BITCOIN_REGTEST_GENESIS =
  '0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206'

/** Its CAIP-2 id: `bip122:` and the first 32 hex characters of the genesis hash. */
export const BITCOIN_REGTEST_CAIP = `bip122:${BITCOIN_REGTEST_GENESIS.slice(0, 32)}` as const

/** The Wallet Standard chain name wallets declare for it. */
export const BITCOIN_REGTEST_STANDARD_CHAIN = 'bitcoin:regtest'
