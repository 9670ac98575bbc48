import { HttpError } from '@porthole/shared'
import { describe, expect, test } from 'vitest'
import {
  displayAmount,
  fromForTo,
  isNativeToken,
  minimumReceived,
  nativeTokenId,
  needsApproval,
  networkFeeUsd,
  parseSwapAmount,
  quoteRate,
  sameToken,
  swapErrorMessage,
  swapTokenId,
} from './swap.js'

const PUSD = 'eip155:31337:0x5fbdb2315678afecb367f032d93f642f64180aa3'

describe('swap rules', () => {
  test('token ids: the native token is 0xeeee…, tokens keep their CAIP-10 id', () => {
    expect(swapTokenId({ chainId: 'eip155:31337' })).toBe(
      'eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
    )
    expect(
      swapTokenId({
        chainId: 'eip155:31337',
        address: 'eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3',
      }),
    ).toBe(PUSD)
    expect(
      swapTokenId({
        chainId: 'eip155:31337',
        address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      }),
    ).toBe(PUSD)
    expect(isNativeToken('eip155:1:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE')).toBe(true)
    expect(isNativeToken(PUSD)).toBe(false)
    expect(sameToken(PUSD, PUSD.toUpperCase())).toBe(true)
    expect(sameToken(PUSD, undefined)).toBe(false)
  })

  test("amounts: base units, with the send rules' refusals and the balance check", () => {
    const pUSD = { symbol: 'pUSD', decimals: 6, balance: '10' }
    expect(parseSwapAmount('1.5', pUSD)).toBe(1_500_000n)
    expect(() => parseSwapAmount('abc', pUSD)).toThrow('Enter a valid amount')
    expect(() => parseSwapAmount('0', pUSD)).toThrow('The amount must be greater than 0')
    expect(() => parseSwapAmount('1.0000001', pUSD)).toThrow('pUSD has at most 6 decimal places')
    expect(() => parseSwapAmount('10.01', pUSD)).toThrow('Insufficient pUSD balance')
    // As typed in a decimal-comma locale; the point is refused there, the comma in English.
    expect(parseSwapAmount('1,5', pUSD, 'de')).toBe(1_500_000n)
    expect(() => parseSwapAmount('10,01', pUSD, 'fr')).toThrow('Insufficient pUSD balance')
    expect(() => parseSwapAmount('1.5', pUSD, 'de')).toThrow('Enter a valid amount')
    expect(() => parseSwapAmount('1,5', pUSD, 'en')).toThrow('Enter a valid amount')
    // No balance known (the to-side): no balance check.
    expect(parseSwapAmount('99', { ...pUSD, balance: undefined })).toBe(99_000_000n)
  })

  test('minimum received at the 1 % tolerance, rounded down', () => {
    expect(minimumReceived(1000n)).toBe(990n)
    expect(minimumReceived(999n)).toBe(989n)
    expect(minimumReceived(1000n, 0.5)).toBe(995n)
  })

  test('approval: never for the native token; when the allowance is short or unknown', () => {
    const native = 'eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
    expect(needsApproval({ from: native, amount: 10n, allowance: 0n })).toBe(false)
    expect(needsApproval({ from: PUSD, amount: 10n, allowance: 9n })).toBe(true)
    expect(needsApproval({ from: PUSD, amount: 10n, allowance: 10n })).toBe(false)
    expect(needsApproval({ from: PUSD, amount: 10n, allowance: null })).toBe(true)
  })

  test('display amounts, rates and the from-amount for a wanted to-amount', () => {
    expect(displayAmount(1_234_567n, 6)).toBe('1.234567')
    expect(displayAmount(1_234_567n, 6, 3)).toBe('1.234')
    expect(displayAmount(2_000_000n, 6)).toBe('2')
    expect(
      quoteRate({
        fromAmount: 10n ** 18n,
        toAmount: 2_990_000_000n,
        fromDecimals: 18,
        toDecimals: 6,
      }),
    ).toBe('2990')
    expect(quoteRate({ fromAmount: 0n, toAmount: 1n, fromDecimals: 18, toDecimals: 6 })).toBe('0')
    // 1 ETH buys 2990 pUSD: 299 pUSD needs 0.1 ETH; rounding goes up.
    expect(
      fromForTo({ toAmount: 299_000_000n, quoteFrom: 10n ** 18n, quoteTo: 2_990_000_000n }),
    ).toBe(10n ** 17n)
    expect(fromForTo({ toAmount: 1n, quoteFrom: 3n, quoteTo: 2n })).toBe(2n)
    expect(fromForTo({ toAmount: 1n, quoteFrom: 1n, quoteTo: 0n })).toBe(0n)
  })

  test('errors: slippage and liquidity get sentences, API messages and refusals show as such', () => {
    expect(
      swapErrorMessage(
        new Error('execution reverted: UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT'),
      ),
    ).toBe(
      'The price moved more than the 1% slippage tolerance, so nothing was swapped. Get a new quote and try again.',
    )
    expect(swapErrorMessage({ shortMessage: 'UniswapV2Library: INSUFFICIENT_LIQUIDITY' })).toBe(
      'Not enough liquidity for this amount',
    )
    expect(
      swapErrorMessage(
        new HttpError(400, {
          code: 'SWAP_NETWORK_UNSUPPORTED',
          message: 'Network not supported for Swaps',
        }),
      ),
    ).toBe('Network not supported for Swaps')
    expect(swapErrorMessage({ code: 4001, message: 'User rejected the request.' })).toBe(
      'You declined the request in your wallet',
    )
    expect(swapErrorMessage(new Error('boom'))).toBe('boom')
  })
})

test("a quote's network fee: gas × the network's gas price × the native price, else the API's figure", () => {
  const quote = { gas: '150000', gasPrice: '1000000000', networkFeeUsd: 0.1 }
  const base = { quote, gasPrice: '2000000000', nativePrice: 3000, nativeDecimals: 18 }
  expect(networkFeeUsd(base)).toBeCloseTo(0.9, 10)
  // The quote's own gas price when the network's is not known.
  expect(networkFeeUsd({ ...base, gasPrice: null })).toBeCloseTo(0.45, 10)
  // No native price, a price of 0, no gas or a malformed figure: the API's own.
  expect(networkFeeUsd({ ...base, nativePrice: undefined })).toBe(0.1)
  expect(networkFeeUsd({ ...base, nativePrice: 0 })).toBe(0.1)
  expect(networkFeeUsd({ ...base, quote: { ...quote, gas: undefined } })).toBe(0.1)
  expect(networkFeeUsd({ ...base, quote: { ...quote, gas: '1.5' } })).toBe(0.1)
  expect(networkFeeUsd({ ...base, quote: { gas: '1.5' } })).toBeUndefined()
  expect(nativeTokenId('eip155:1')).toBe('eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')
})
