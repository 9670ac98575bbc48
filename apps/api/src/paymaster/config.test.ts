import { DEVNET_AA, PAYMASTER_SIGNER } from '@porthole/shared/devnet'
import { expect, test } from 'vitest'
import { InvalidConfigError, resolveConfig } from '../config.js'
import { productionProblems } from '../production.js'
import { InvalidPaymasterConfigError, resolvePaymasterConfig } from './config.js'
import { DEFAULT_PAYMASTER_POLICY } from './policy.js'

const KEY = `0x${'11'.repeat(32)}` as const

test('development: the devnet paymaster and its signer; production: none unless configured', () => {
  expect(resolvePaymasterConfig({}, { production: false })).toEqual({
    signerKey: PAYMASTER_SIGNER.privateKey,
    addresses: { 'eip155:31337': DEVNET_AA.paymaster, 'eip155:31338': DEVNET_AA.paymaster },
    accountFactories: {
      'eip155:31337': DEVNET_AA.accountFactory,
      'eip155:31338': DEVNET_AA.accountFactory,
    },
    validForSeconds: 600,
    policy: DEFAULT_PAYMASTER_POLICY,
  })
  expect(resolvePaymasterConfig({}, { production: true })).toEqual({
    signerKey: undefined,
    addresses: {},
    accountFactories: {},
    validForSeconds: 600,
    policy: DEFAULT_PAYMASTER_POLICY,
  })
  const env = {
    PORTHOLE_PAYMASTER_KEY: KEY,
    PORTHOLE_PAYMASTERS: JSON.stringify({ 'eip155:8453': DEVNET_AA.accountFactory }),
  }
  expect(resolvePaymasterConfig(env, { production: true })).toMatchObject({
    signerKey: KEY,
    addresses: { 'eip155:8453': DEVNET_AA.accountFactory },
  })
  expect(resolvePaymasterConfig(env, { production: false }).addresses).toEqual({
    'eip155:31337': DEVNET_AA.paymaster,
    'eip155:31338': DEVNET_AA.paymaster,
    'eip155:8453': DEVNET_AA.accountFactory,
  })
})

test('the policy and the account factories from the environment', () => {
  const config = resolvePaymasterConfig(
    {
      PORTHOLE_ACCOUNT_FACTORIES: JSON.stringify({ 'eip155:8453': DEVNET_AA.paymaster }),
      PORTHOLE_PAYMASTER_VALID_SECONDS: '300',
      PORTHOLE_PAYMASTER_MAX_OPERATION_COST: '5000000000000000',
      PORTHOLE_PAYMASTER_BASE_FEE_MULTIPLIER: '2',
      PORTHOLE_PAYMASTER_MIN_TIP_CAP: '100000000',
    },
    { production: true },
  )
  expect(config.accountFactories).toEqual({ 'eip155:8453': DEVNET_AA.paymaster })
  expect(config.validForSeconds).toBe(300)
  expect(config.policy).toEqual({
    ...DEFAULT_PAYMASTER_POLICY,
    maxOperationCost: 5_000_000_000_000_000n,
    baseFeeMultiplier: 2n,
    minTipCap: 100_000_000n,
  })
  for (const [name, value, message] of [
    ['PORTHOLE_PAYMASTER_VALID_SECONDS', '7200', /from 60 to 3600, not "7200"/],
    ['PORTHOLE_PAYMASTER_MAX_OPERATION_COST', '0.01', /whole number of wei/],
    ['PORTHOLE_PAYMASTER_BASE_FEE_MULTIPLIER', '0', /from 1 to 10, not "0"/],
    ['PORTHOLE_ACCOUNT_FACTORIES', '{"eip155:1":"0x1"}', /account factory addresses/],
  ] as const)
    expect(() => resolvePaymasterConfig({ [name]: value }, { production: false })).toThrow(
      new RegExp(`^${name} .*${message.source}`),
    )
})

test('bad paymaster settings are refused with the variable named', () => {
  expect(() =>
    resolvePaymasterConfig({ PORTHOLE_PAYMASTER_KEY: '0x12' }, { production: false }),
  ).toThrow(
    new InvalidPaymasterConfigError(
      'PORTHOLE_PAYMASTER_KEY must be a private key: 0x and 64 hex digits',
    ),
  )
  expect(() => resolvePaymasterConfig({ PORTHOLE_PAYMASTERS: '{' }, { production: false })).toThrow(
    'PORTHOLE_PAYMASTERS is not JSON',
  )
  expect(() =>
    resolvePaymasterConfig({ PORTHOLE_PAYMASTERS: '{"eip155:1":"0x12"}' }, { production: false }),
  ).toThrow(/PORTHOLE_PAYMASTERS must map CAIP-2 ids to paymaster addresses/)
})

test('bundlers: the devnets by default, PORTHOLE_BUNDLER_UPSTREAMS merged over them', () => {
  expect(resolveConfig({}, {}).bundlers).toEqual({
    'eip155:31337': 'http://127.0.0.1:4350',
    'eip155:31338': 'http://127.0.0.1:4351',
  })
  expect(
    resolveConfig(
      {},
      {
        PORTHOLE_BUNDLER_URL: 'http://127.0.0.1:5350',
        PORTHOLE_BUNDLER_UPSTREAMS: '{"eip155:8453":"https://bundler.example"}',
      },
    ).bundlers,
  ).toEqual({
    'eip155:31337': 'http://127.0.0.1:5350',
    'eip155:31338': 'http://127.0.0.1:4351',
    'eip155:8453': 'https://bundler.example',
  })
  expect(resolveConfig({}, { PORTHOLE_ENV: 'production' }).bundlers).toEqual({})
  const bad = () => resolveConfig({}, { PORTHOLE_BUNDLER_UPSTREAMS: '[1]' })
  expect(bad).toThrow(InvalidConfigError)
  expect(bad).toThrow(/^PORTHOLE_BUNDLER_UPSTREAMS must map CAIP-2 ids to http\(s\) URLs/)
})

test('production refuses the devnet paymaster key and a bundler on this machine', () => {
  const config = resolveConfig(
    {},
    {
      PORTHOLE_ENV: 'production',
      PORTHOLE_PAYMASTER_KEY: PAYMASTER_SIGNER.privateKey,
      PORTHOLE_BUNDLER_UPSTREAMS: '{"eip155:8453":"http://127.0.0.1:4350"}',
    },
  )
  const problems = productionProblems(config, { seedDemo: false })
  expect(problems).toContain(
    "PORTHOLE_PAYMASTER_KEY is the devnets' public paymaster key: set a key of your own (or none: no sponsorship)",
  )
  expect(problems).toContain(
    'The ERC-4337 bundler of eip155:8453 is http://127.0.0.1:4350, on this machine',
  )
})
