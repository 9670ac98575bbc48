import { describe, expect, test } from 'vitest'
import { resolveConfig } from '../config.js'
import {
  DEFAULT_BALANCE_CACHE_MS,
  DEVNET_SPAM_COLLECTION,
  InvalidChainDataConfigError,
  indexerEnabled,
  resolveChainDataConfig,
} from './config.js'

const upstreams = {
  'eip155:31337': 'http://127.0.0.1:8545',
  'eip155:31338': 'http://127.0.0.1:8546',
  'eip155:11155111': 'https://sepolia.example',
}

describe('resolveChainDataConfig', () => {
  test('defaults: the two devnets from block 0, devnet tokens and prices, the seeded spam collection', () => {
    const config = resolveChainDataConfig({}, { upstreams })
    expect(config.chains).toEqual([
      { chainId: 'eip155:31337', rpcUrl: 'http://127.0.0.1:8545', startBlock: 0, confirmations: 0 },
      { chainId: 'eip155:31338', rpcUrl: 'http://127.0.0.1:8546', startBlock: 0, confirmations: 0 },
    ])
    expect(config.knownTokens['eip155:31337']!.map((t) => t.symbol)).toEqual(['pUSD', 'PRT'])
    expect(config.prices['eip155:31338:native']).toBe(3000)
    expect(config.spamContracts).toEqual([
      `eip155:31337:${DEVNET_SPAM_COLLECTION.toLowerCase()}`,
      `eip155:31338:${DEVNET_SPAM_COLLECTION.toLowerCase()}`,
    ])
    expect(config.balanceCacheMs).toBe(DEFAULT_BALANCE_CACHE_MS)
    expect(config.externalUrl).toBeUndefined()
  })

  test('devnets without an RPC are not indexed', () => {
    expect(resolveChainDataConfig({}, { upstreams: {} }).chains).toEqual([])
  })

  test('PORTHOLE_INDEXER_CHAINS as a list or as JSON with start block and confirmations', () => {
    expect(
      resolveChainDataConfig({ PORTHOLE_INDEXER_CHAINS: 'eip155:11155111' }, { upstreams }).chains,
    ).toEqual([
      {
        chainId: 'eip155:11155111',
        rpcUrl: 'https://sepolia.example',
        startBlock: 0,
        confirmations: 0,
      },
    ])
    const json = resolveChainDataConfig(
      {
        PORTHOLE_INDEXER_CHAINS: JSON.stringify({
          'eip155:11155111': { startBlock: 'latest', confirmations: 3 },
          'eip155:10': { startBlock: 120_000_000, rpcUrl: 'https://op.example' },
        }),
      },
      { upstreams },
    )
    expect(json.chains).toEqual([
      {
        chainId: 'eip155:11155111',
        rpcUrl: 'https://sepolia.example',
        startBlock: 'latest',
        confirmations: 3,
      },
      {
        chainId: 'eip155:10',
        rpcUrl: 'https://op.example',
        startBlock: 120_000_000,
        confirmations: 0,
      },
    ])
  })

  test('prices, known tokens, spam list and caches from the environment', () => {
    const config = resolveChainDataConfig(
      {
        PORTHOLE_PRICES:
          '{"eip155:31337:native": 2500, "eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48": 1}',
        PORTHOLE_KNOWN_TOKENS:
          '{"eip155:1":[{"address":"0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48","name":"USD Coin","symbol":"USDC","decimals":6}]}',
        PORTHOLE_SPAM_CONTRACTS: 'eip155:1:0x0000000000000000000000000000000000000BAD',
        PORTHOLE_BALANCE_CACHE_MS: '0',
        PORTHOLE_NFT_METADATA_ORIGINS: 'https://meta.example/x, https://other.example',
        PORTHOLE_CHAIN_DATA_URL: 'https://data.example?projectId=abc',
      },
      { upstreams },
    )
    expect(config.prices['eip155:31337:native']).toBe(2500)
    expect(config.prices['eip155:1:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48']).toBe(1)
    expect(config.prices['eip155:31337:0x5fbdb2315678afecb367f032d93f642f64180aa3']).toBe(1)
    expect(config.knownTokens['eip155:1']![0]!.symbol).toBe('USDC')
    expect(config.spamContracts).toEqual(['eip155:1:0x0000000000000000000000000000000000000bad'])
    expect(config.balanceCacheMs).toBe(0)
    expect(config.nftMetadataOrigins).toEqual(['https://meta.example', 'https://other.example'])
    expect(config.externalUrl).toBe('https://data.example?projectId=abc')
  })

  test.each([
    ['PORTHOLE_INDEXER_CHAINS', 'eip155:1'], // no RPC for it
    ['PORTHOLE_INDEXER_CHAINS', 'solana:mainnet'],
    ['PORTHOLE_INDEXER_CHAINS', '{"eip155:1": {"startBlock": -1}}'],
    ['PORTHOLE_PRICES', 'not json'],
    ['PORTHOLE_PRICES', '{"ETH": 3000}'],
    ['PORTHOLE_KNOWN_TOKENS', '{"eip155:1":[{"address":"0x1"}]}'],
    ['PORTHOLE_SPAM_CONTRACTS', '0x0000000000000000000000000000000000000bad'],
    ['PORTHOLE_BALANCE_CACHE_MS', '-5'],
    ['PORTHOLE_CHAIN_DATA_URL', 'ftp://data.example'],
  ])('refuses an invalid %s (%s)', (name, value) => {
    expect(() => resolveChainDataConfig({ [name]: value }, { upstreams })).toThrow(
      InvalidChainDataConfigError,
    )
  })

  test('resolveConfig carries it, overrides win', () => {
    const config = resolveConfig({ chainData: { balanceCacheMs: 1 } }, {})
    expect(config.chainData.balanceCacheMs).toBe(1)
    expect(config.chainData.chains.map((chain) => chain.chainId)).toEqual([
      'eip155:31337',
      'eip155:31338',
    ])
  })
})

test.each([
  [undefined, true],
  ['on', true],
  ['off', false],
  ['OFF', false],
  ['0', false],
  ['false', false],
])('PORTHOLE_INDEXER=%s runs the indexer: %s', (value, expected) => {
  expect(indexerEnabled({ PORTHOLE_INDEXER: value })).toBe(expected)
})
