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

/**
 * Address parameters of Bitcoin regtest (`bcrt1…` segwit addresses, `m…`/`n…` legacy, `2…`
 * script hash, WIF prefix 0xef), in the shape `@scure/btc-signer` takes as its network.
 *
 * @example
 * p2wpkh(publicKey, BITCOIN_REGTEST_NETWORK).address // 'bcrt1q…'
 */
export const BITCOIN_REGTEST_NETWORK = {
  bech32: 'bcrt',
  pubKeyHash: 0x6f,
  scriptHash: 0xc4,
  wif: 0xef,
} as const

/** The mnemonic the regtest's test accounts derive from (public: test keys only). */
export const BITCOIN_TEST_MNEMONIC = 'test test test test test test test test test test test junk'

/** What each test account's payment address holds on a fresh regtest: 1 BTC. */
export const BITCOIN_TEST_ACCOUNT_BALANCE_SATS = 100_000_000n

/**
 * Funded test accounts of the local regtest, derived from {@link BITCOIN_TEST_MNEMONIC}:
 * account `i` has a payment address (BIP84, P2WPKH, `m/84'/1'/0'/0/i`, holding 1 BTC) and an
 * ordinal address (BIP86, P2TR key path, `m/86'/1'/0'/0/i`, empty). `publicKey` is hex: the
 * 33-byte compressed key for payment, the 32-byte x-only internal key (untweaked) for ordinal.
 * Constants, so browser code needs no key derivation to know them.
 *
 * @example
 * BITCOIN_TEST_ACCOUNTS[0].payment.address // 'bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw'
 */
export const BITCOIN_TEST_ACCOUNTS = [
  {
    index: 0,
    payment: {
      path: "m/84'/1'/0'/0/0",
      address: 'bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw',
      publicKey: '03f3d474c86c9be5b82e251cc3cc438d3cc361527b4b9799516c4bd513caf9e5f6',
    },
    ordinal: {
      path: "m/86'/1'/0'/0/0",
      address: 'bcrt1pfewlxm8meyyvgjydfu7v8j4ej64symj6ut8sf66h9germp94qgzs92e5zv',
      publicKey: '8c7fc6552af4384a13791e63bac79ff2bcfeedf143a88d6dc4b6080a8829cdc1',
    },
  },
  {
    index: 1,
    payment: {
      path: "m/84'/1'/0'/0/1",
      address: 'bcrt1qlqj2pdsteppkcr8jkp9ms0wpvey89tna8v72sj',
      publicKey: '034f1ed3cf19a0d6fbb1db423f5f61608a61d6c321a16dbc8400d76a45f80d7ff3',
    },
    ordinal: {
      path: "m/86'/1'/0'/0/1",
      address: 'bcrt1p6g8r5e8jvnvukaqgdauwag8lfkzvz3dng4057kv7avnpxpkghdkszxhwd4',
      publicKey: '94cea1919bdcdefc478f8533a7bf8954867dc227da79754642cb2e41f7e300d8',
    },
  },
  {
    index: 2,
    payment: {
      path: "m/84'/1'/0'/0/2",
      address: 'bcrt1qwqwxn0pae964jk3zu8zxr3lu2jyj0p7mk8hkdv',
      publicKey: '028a76a4ddbfd85e75b9a3f478873824da290dbdd9507947d9e3bae7706c2380a7',
    },
    ordinal: {
      path: "m/86'/1'/0'/0/2",
      address: 'bcrt1pw4n0e9av3evnyt7j7x3wgrjrttqr4482x7kwpp78g7wnue59mvnse7srs6',
      publicKey: '67428cfe9f4cc0ee625ef2174f203b589500818913c3d6eec0562b49af02cf0d',
    },
  },
] as const

/** One of {@link BITCOIN_TEST_ACCOUNTS}. */
export type BitcoinTestAccount = (typeof BITCOIN_TEST_ACCOUNTS)[number]
