import { describe, expect, test } from 'vitest'
import { onrampOptions, priceQuote, QuoteError, quoteJson } from './offering.js'

const usdc = { purchaseCurrency: 'USDC', paymentCurrency: 'USD', network: 'eip155:31337' }

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run()
  } catch (error) {
    if (error instanceof QuoteError) return { code: error.code, message: error.message }
    throw error
  }
  throw new Error('not refused')
}

describe('priceQuote', () => {
  test('50 USD of USDC: 1.5 % fee and a 0.10 network fee come out, the rest buys pUSD 1:1', () => {
    const quote = priceQuote({ ...usdc, amount: '50' })
    expect(quote).toMatchObject({
      paymentTotal: 5000n,
      providerFee: 75n,
      networkFee: 10n,
      paymentSubtotal: 4915n,
      purchase: 49_150_000n,
    })
    expect(quoteJson(quote)).toEqual({
      paymentMethod: 'card',
      network: 'eip155:31337',
      paymentTotal: { amount: '50.00', currency: 'USD' },
      paymentSubtotal: { amount: '49.15', currency: 'USD' },
      providerFee: { amount: '0.75', currency: 'USD' },
      networkFee: { amount: '0.10', currency: 'USD' },
      purchaseAmount: { amount: '49.15', currency: 'USDC' },
    })
  })

  test('EUR buys ETH at 1.08 USD per euro and 3000 USD per ether', () => {
    const quote = priceQuote({
      purchaseCurrency: 'ETH',
      paymentCurrency: 'EUR',
      network: 'eip155:31338',
      amount: '100.00',
    })
    // Fee 1.50; network fee 0.50 USD = 0.46 EUR; 98.04 EUR = 105.8832 USD = 0.0352944 ETH.
    expect(quoteJson(quote)).toMatchObject({
      providerFee: { amount: '1.50', currency: 'EUR' },
      networkFee: { amount: '0.46', currency: 'EUR' },
      paymentSubtotal: { amount: '98.04', currency: 'EUR' },
      purchaseAmount: { amount: '0.0352944', currency: 'ETH' },
    })
  })

  test('a crypto amount is delivered exactly for the least total that covers it', () => {
    const quote = priceQuote({ ...usdc, cryptoAmount: '10' })
    expect(quote.purchase).toBe(10_000_000n)
    // 10.25 pays 0.15 fee + 0.10 network fee + 10.00; 10.24 would leave 9.99.
    expect(quote.paymentTotal).toBe(1025n)
    expect(quote.paymentSubtotal).toBe(1000n)
    const eth = priceQuote({ ...usdc, purchaseCurrency: 'ETH', cryptoAmount: '0.01' })
    expect(eth.purchase).toBe(10n ** 16n)
    // 0.01 ETH = 30.00 USD, plus 0.50 network fee and 0.46 fee.
    expect([eth.paymentSubtotal, eth.paymentTotal]).toEqual([3000n, 3096n])
  })

  test('refuses totals outside the method’s limits, saying which', () => {
    expect(refusal(() => priceQuote({ ...usdc, amount: '4.99' }))).toEqual({
      code: 'AMOUNT_OUT_OF_RANGE',
      message: 'Amount must be between 5.00 and 5000.00 USD for card (asked 4.99)',
    })
    expect(refusal(() => priceQuote({ ...usdc, amount: '5000.01' })).code).toBe(
      'AMOUNT_OUT_OF_RANGE',
    )
    expect(priceQuote({ ...usdc, amount: '5000' }).paymentTotal).toBe(500_000n)
    expect(
      priceQuote({ ...usdc, paymentMethod: 'ach_bank_account', amount: '20000' }).paymentTotal,
    ).toBe(2_000_000n)
    expect(
      refusal(() => priceQuote({ ...usdc, paymentCurrency: 'EUR', amount: '4600' })).message,
    ).toBe('Amount must be between 5.00 and 4500.00 EUR for card (asked 4600.00)')
  })

  test('refuses malformed amounts and unknown currencies, methods and networks', () => {
    for (const amount of ['0', '0.00', '-1', '1.234', 'abc', '1e3', '', ' 5'])
      expect(refusal(() => priceQuote({ ...usdc, amount })).code, amount).toBe('INVALID_AMOUNT')
    expect(refusal(() => priceQuote({ ...usdc, cryptoAmount: '1.0000001' })).message).toBe(
      'cryptoAmount must be a decimal number above 0 with at most 6 decimal places',
    )
    expect(refusal(() => priceQuote(usdc)).code).toBe('INVALID_AMOUNT')
    expect(refusal(() => priceQuote({ ...usdc, amount: '10', cryptoAmount: '1' })).code).toBe(
      'INVALID_AMOUNT',
    )
    expect(refusal(() => priceQuote({ ...usdc, paymentCurrency: 'GBP', amount: '10' }))).toEqual({
      code: 'UNSUPPORTED_PAYMENT_CURRENCY',
      message: 'Payment currency GBP is not supported (USD, EUR)',
    })
    expect(refusal(() => priceQuote({ ...usdc, purchaseCurrency: 'BTC', amount: '10' }))).toEqual({
      code: 'UNSUPPORTED_PURCHASE_CURRENCY',
      message: 'Purchase currency BTC is not supported (USDC, ETH)',
    })
    expect(refusal(() => priceQuote({ ...usdc, network: 'eip155:1', amount: '10' }))).toEqual({
      code: 'UNSUPPORTED_NETWORK',
      message: 'Network eip155:1 is not supported (eip155:31337, eip155:31338)',
    })
    expect(refusal(() => priceQuote({ ...usdc, paymentMethod: 'paypal', amount: '10' })).code).toBe(
      'UNSUPPORTED_PAYMENT_METHOD',
    )
    // Inherited object keys are not currencies.
    expect(
      refusal(() => priceQuote({ ...usdc, paymentCurrency: 'toString', amount: '10' })).code,
    ).toBe('UNSUPPORTED_PAYMENT_CURRENCY')
  })
})

test('options list both methods’ limits per currency and the tokens on both devnets', () => {
  const options = onrampOptions()
  expect(options.paymentCurrencies).toEqual([
    {
      id: 'USD',
      limits: [
        { id: 'card', min: '5.00', max: '5000.00' },
        { id: 'ach_bank_account', min: '5.00', max: '20000.00' },
      ],
    },
    {
      id: 'EUR',
      limits: [
        { id: 'card', min: '5.00', max: '4500.00' },
        { id: 'ach_bank_account', min: '5.00', max: '18000.00' },
      ],
    },
  ])
  expect(options.purchaseCurrencies.map((c) => [c.id, c.symbol])).toEqual([
    ['USDC', 'pUSD'],
    ['ETH', 'ETH'],
  ])
  expect(options.purchaseCurrencies[0]?.networks).toEqual([
    {
      name: 'porthole-devnet',
      display_name: 'Porthole Devnet',
      chain_id: '31337',
      contract_address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    },
    {
      name: 'porthole-devnet-b',
      display_name: 'Porthole Devnet B',
      chain_id: '31338',
      contract_address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    },
  ])
  expect(options.purchaseCurrencies[1]?.networks[0]?.contract_address).toBe(
    '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
  )
})
