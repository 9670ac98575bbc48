import { type Address, decodeFunctionData, erc20Abi } from 'viem'
import { describe, expect, test, vi } from 'vitest'
import { initialSendState } from '../store/sendState.js'
import {
  buildSendRequest,
  parseSendAmount,
  prepareSend,
  resolveReceiver,
  SendError,
  type SendErrorReason,
  type SendToken,
  validateSend,
} from './send.js'

const ALICE: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const BOB: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const PUSD: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const DEVNET = 'eip155:31337'

const eth: SendToken = {
  symbol: 'ETH',
  chainId: DEVNET,
  quantity: { decimals: '18', numeric: '10' },
}
const pusd: SendToken = {
  symbol: 'pUSD',
  chainId: DEVNET,
  address: `${DEVNET}:${PUSD}`,
  quantity: { decimals: '6', numeric: '1000' },
}

/** Runs `fn` and returns the SendError it throws (fails the test if it throws nothing else). */
async function refusal(fn: () => unknown): Promise<SendError> {
  try {
    await fn()
  } catch (error) {
    expect(error).toBeInstanceOf(SendError)
    return error as SendError
  }
  throw new Error('expected a SendError')
}

describe('validation with the spec’s errors (spec §4, §5)', () => {
  const valid = { caipNetworkId: DEVNET, token: eth, amount: '1', receiver: BOB }

  test.each<[string, Partial<Parameters<typeof validateSend>[0]>, SendErrorReason, string]>([
    ['no active network', { caipNetworkId: null }, 'unsupportedChain', 'Unsupported chain'],
    [
      'a bip122 network',
      { caipNetworkId: 'bip122:000000000019d6689c085ae165831e93' },
      'unsupportedChain',
      'Unsupported chain',
    ],
    [
      'a polkadot network',
      { caipNetworkId: 'polkadot:91b171bb158e2d3848fa23a9f1c25182' },
      'unsupportedChain',
      'Unsupported chain',
    ],
    [
      'a malformed network id',
      { caipNetworkId: 'eip155' },
      'unsupportedChain',
      'Unsupported chain',
    ],
    [
      'no amount',
      { amount: '' },
      'amountAndReceiverRequired',
      'An amount and receiver address are required',
    ],
    [
      'a blank amount',
      { amount: '   ' },
      'amountAndReceiverRequired',
      'An amount and receiver address are required',
    ],
    [
      'no receiver',
      { receiver: null },
      'amountAndReceiverRequired',
      'An amount and receiver address are required',
    ],
    ['no token', { token: null }, 'tokenRequired', 'A token is required'],
    [
      'a token of another network',
      { token: { ...eth, chainId: 'eip155:1' } },
      'tokenOnOtherNetwork',
      'The token is not on the active network',
    ],
    [
      'a token with decimals that are not a number',
      { token: { ...eth, quantity: { decimals: 'x', numeric: '1' } } },
      'invalidTokenDecimals',
      'The token has invalid decimals',
    ],
    [
      'an ERC-20 with an empty address',
      { token: { ...pusd, address: '' } },
      'tokenAddressRequired',
      'A token address is required for ERC-20 tokens',
    ],
    [
      'an ERC-20 with a malformed address',
      { token: { ...pusd, address: `${DEVNET}:0x1234` } },
      'tokenAddressRequired',
      'A token address is required for ERC-20 tokens',
    ],
    [
      'an ERC-20 with a solana address',
      { token: { ...pusd, address: 'solana:abc:So11111111111111111111111111111111111111112' } },
      'tokenAddressRequired',
      'A token address is required for ERC-20 tokens',
    ],
  ])('%s → %s', async (_, overrides, reason, message) => {
    const error = await refusal(() => validateSend({ ...valid, ...overrides }))
    expect(error.reason).toBe(reason)
    expect(error.message).toBe(message)
    expect(error.shortMessage).toBe(message)
  })

  test('the namespace is checked before the amount (spec §4: the flow branches first)', async () => {
    const error = await refusal(() =>
      validateSend({ caipNetworkId: 'cosmos:cosmoshub-4', token: null, amount: '', receiver: '' }),
    )
    expect(error.message).toBe('Unsupported chain')
  })

  test('the amount and receiver are checked before the token', async () => {
    const error = await refusal(() => validateSend({ ...valid, token: null, amount: '' }))
    expect(error.message).toBe('An amount and receiver address are required')
  })

  test.each([
    [eth, { namespace: 'eip155', kind: 'native', decimals: 18 }],
    [pusd, { namespace: 'eip155', kind: 'erc20', tokenAddress: PUSD, decimals: 6 }],
    [
      { ...pusd, address: PUSD.toLowerCase() },
      { namespace: 'eip155', kind: 'erc20', tokenAddress: PUSD, decimals: 6 },
    ],
  ])('a valid EVM send of %j', (token, expected) => {
    expect(validateSend({ ...valid, token })).toEqual(expected)
  })

  test('solana passes with its native token', () => {
    const sol = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
    const token = { symbol: 'SOL', chainId: sol, quantity: { decimals: '9', numeric: '1' } }
    expect(validateSend({ ...valid, caipNetworkId: sol, token })).toEqual({
      namespace: 'solana',
      kind: 'native',
      decimals: 9,
    })
  })
})

describe('amount conversion with the token decimals (spec §5)', () => {
  test.each<[string, SendToken, bigint]>([
    ['1', eth, 10n ** 18n],
    ['1.5', pusd, 1_500_000n],
    ['0.000001', pusd, 1n],
    ['.5', pusd, 500_000n],
    ['2.', pusd, 2_000_000n],
    [' 3 ', pusd, 3_000_000n],
    ['1.50000000', pusd, 1_500_000n],
    ['1000', pusd, 1_000_000_000n],
    ['0.000000000000000001', eth, 1n],
  ])('%s %s → %s', (amount, token, expected) => {
    expect(parseSendAmount({ amount, token })).toBe(expected)
  })

  test.each<[string, SendToken, SendErrorReason, string]>([
    ['abc', pusd, 'invalidAmount', 'Enter a valid amount'],
    ['1,5', pusd, 'invalidAmount', 'Enter a valid amount'],
    ['1e3', pusd, 'invalidAmount', 'Enter a valid amount'],
    ['1.2.3', pusd, 'invalidAmount', 'Enter a valid amount'],
    ['.', pusd, 'invalidAmount', 'Enter a valid amount'],
    ['0x10', pusd, 'invalidAmount', 'Enter a valid amount'],
    ['0', pusd, 'amountNotPositive', 'The amount must be greater than 0'],
    ['0.000', pusd, 'amountNotPositive', 'The amount must be greater than 0'],
    ['-1', pusd, 'amountNotPositive', 'The amount must be greater than 0'],
    ['- 0.5', pusd, 'amountNotPositive', 'The amount must be greater than 0'],
    ['0.0000001', pusd, 'tooManyDecimals', 'pUSD has at most 6 decimal places'],
    ['1.0000000000000000001', eth, 'tooManyDecimals', 'ETH has at most 18 decimal places'],
    ['1000.000001', pusd, 'insufficientBalance', 'Insufficient pUSD balance'],
    ['11', eth, 'insufficientBalance', 'Insufficient ETH balance'],
  ])('%s %s → %s', async (amount, token, reason, message) => {
    const error = await refusal(() => parseSendAmount({ amount, token }))
    expect([error.reason, error.message]).toEqual([reason, message])
  })
})

describe('amounts as typed in the user’s locale (decimal comma)', () => {
  test.each<[string, string, bigint]>([
    ['1,5', 'de', 1_500_000n],
    ['1,5', 'es', 1_500_000n],
    ['1,5', 'fr', 1_500_000n],
    ['1,5', 'pt-BR', 1_500_000n],
    ['1,5', 'tr', 1_500_000n],
    [' 0,000001 ', 'de', 1n],
    [',5', 'fr', 500_000n],
    ['1000', 'de', 1_000_000_000n],
    ['1.5', 'en', 1_500_000n],
    ['1.5', 'ja', 1_500_000n],
    ['١٫٥', 'ar', 1_500_000n],
    ['1.5', 'ar', 1_500_000n],
  ])('%s in %s → %s', (amount, locale, expected) => {
    expect(parseSendAmount({ amount, token: pusd, locale })).toBe(expected)
  })

  test.each<[string, string]>([
    // A thousand to an English reader, 1 to a decimal-comma one: refused, never guessed.
    ['1,000', 'en'],
    ['1,5', 'en'],
    ['1,5', 'ja'],
    // A thousand to a German reader, 1 to a dot-decimal one.
    ['1.000', 'de'],
    ['1.5', 'de'],
    ['1.000,5', 'de'],
    ['1,000.5', 'en'],
    ['1,2,3', 'fr'],
  ])('%s in %s is not a valid amount', async (amount, locale) => {
    const error = await refusal(() => parseSendAmount({ amount, token: pusd, locale }))
    expect([error.reason, error.message]).toEqual(['invalidAmount', 'Enter a valid amount'])
  })

  test('the other rules see the read amount: too many decimals, the balance, not positive', async () => {
    const errors = await Promise.all(
      ['0,0000001', '1000,000001', '0,0', '-1,5'].map((amount) =>
        refusal(() => parseSendAmount({ amount, token: pusd, locale: 'de' })),
      ),
    )
    expect(errors.map((e) => e.reason)).toEqual([
      'tooManyDecimals',
      'insufficientBalance',
      'amountNotPositive',
      'amountNotPositive',
    ])
  })

  test('prepareSend reads the amount in the locale given', async () => {
    const prepared = await prepareSend({
      caipNetworkId: DEVNET,
      token: pusd,
      amount: '2,5',
      receiver: BOB,
      from: ALICE,
      locale: 'de',
    })
    expect(prepared.amount).toBe(2_500_000n)
  })
})

describe('the receiver (EIP-55, names)', () => {
  test.each([
    [BOB, BOB],
    [BOB.toLowerCase(), BOB],
    [`0x${BOB.slice(2).toUpperCase()}`, BOB],
    [BOB.slice(2).toLowerCase(), BOB],
    [`  ${BOB}  `, BOB],
  ])('%s is %s', async (receiver, address) => {
    expect(await resolveReceiver({ receiver })).toEqual({ address, name: null })
  })

  test.each<[string, SendErrorReason]>([
    ['0x1234', 'invalidReceiver'],
    [`${BOB}00`, 'invalidReceiver'],
    [`0x${'g'.repeat(40)}`, 'invalidReceiver'],
    [BOB.replace('C5', 'c5'), 'invalidChecksum'],
    ['alice.eth', 'invalidReceiver'],
  ])('%s → %s', async (receiver, reason) => {
    expect((await refusal(() => resolveReceiver({ receiver }))).reason).toBe(reason)
  })

  test('a name goes through the resolver', async () => {
    const resolveName = vi.fn(async (name: string) =>
      name === 'bob.eth' ? BOB.toLowerCase() : null,
    )
    expect(await resolveReceiver({ receiver: 'bob.eth', resolveName })).toEqual({
      address: BOB,
      name: 'bob.eth',
    })
    expect(resolveName).toHaveBeenCalledWith('bob.eth')
    const missing = await refusal(() => resolveReceiver({ receiver: 'nobody.eth', resolveName }))
    expect(missing.message).toBe('No address found for nobody.eth')
  })

  test('a resolver that fails or answers nonsense gives the spec’s name fallback', async () => {
    const failing = async () => {
      throw new Error('offline')
    }
    const error = await refusal(() =>
      resolveReceiver({ receiver: 'bob.eth', resolveName: failing }),
    )
    expect(error.message).toBe('Error resolving name')
    expect((error.cause as Error).message).toBe('offline')
    const nonsense = await refusal(() =>
      resolveReceiver({ receiver: 'bob.eth', resolveName: async () => 'not-an-address' }),
    )
    expect(nonsense.message).toBe('Error resolving name')
  })

  test('an address never reaches the resolver', async () => {
    const resolveName = vi.fn(async () => ALICE)
    expect((await resolveReceiver({ receiver: BOB, resolveName })).address).toBe(BOB)
    expect(resolveName).not.toHaveBeenCalled()
  })
})

describe('the EVM request (spec §7 wallet transfers)', () => {
  test('native: value in hex and empty data', () => {
    expect(buildSendRequest({ from: ALICE, to: BOB, amount: 1_500_000_000_000_000_000n })).toEqual({
      from: ALICE,
      to: BOB,
      value: '0x14d1120d7b160000',
      data: '0x',
    })
  })

  test('ERC-20: a transfer(to, amount) call to the token with no value', () => {
    const request = buildSendRequest({
      from: ALICE,
      to: BOB,
      amount: 25_000_000n,
      tokenAddress: PUSD,
    })
    expect(request).toMatchObject({ from: ALICE, to: PUSD, value: '0x0' })
    expect(request.data.slice(0, 10)).toBe('0xa9059cbb')
    expect(decodeFunctionData({ abi: erc20Abi, data: request.data })).toEqual({
      functionName: 'transfer',
      args: [BOB, 25_000_000n],
    })
  })

  test('prepareSend puts every rule together', async () => {
    const resolveName = async () => BOB
    const prepared = await prepareSend({
      caipNetworkId: DEVNET,
      token: pusd,
      amount: '2.5',
      receiver: 'bob.eth',
      from: ALICE,
      resolveName,
    })
    expect(prepared).toMatchObject({
      kind: 'erc20',
      amount: 2_500_000n,
      receiver: { address: BOB, name: 'bob.eth' },
      request: { from: ALICE, to: PUSD, value: '0x0' },
    })
    const native = await prepareSend({
      caipNetworkId: DEVNET,
      token: eth,
      amount: '1',
      receiver: BOB,
      from: ALICE,
    })
    expect(native).toMatchObject({
      namespace: 'eip155',
      request: { from: ALICE, to: BOB, value: '0xde0b6b3a7640000', data: '0x' },
    })
  })

  test('prepareSend refuses what validation refuses; Solana needs a Solana receiver', async () => {
    const base = { caipNetworkId: DEVNET, token: eth, amount: '1', receiver: BOB, from: ALICE }
    expect((await refusal(() => prepareSend({ ...base, amount: '20' }))).reason).toBe(
      'insufficientBalance',
    )
    const sol = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
    const solToken = {
      ...eth,
      chainId: sol,
      symbol: 'SOL',
      quantity: { decimals: '9', numeric: '10' },
    }
    const onSolana = { ...base, caipNetworkId: sol, token: solToken }
    expect((await refusal(() => prepareSend(onSolana))).reason).toBe('invalidReceiver')
    const receiver = '4MDqfpxHQbWrZs4LLBhiDZXbNQsaQv9dgg3eUJrvUFWx'
    expect(await prepareSend({ ...onSolana, amount: '0.25', receiver })).toEqual({
      namespace: 'solana',
      kind: 'native',
      amount: 250_000_000n,
      receiver: { address: receiver, name: null },
    })
  })
})

describe('send state (spec §3, §4)', () => {
  test('starts empty and not loading', () => {
    expect(initialSendState).toEqual({
      token: null,
      sendTokenAmount: null,
      receiverAddress: null,
      receiverProfileImageUrl: null,
      receiverProfileName: null,
      loading: false,
    })
  })
})
