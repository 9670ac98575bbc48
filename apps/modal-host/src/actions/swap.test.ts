import { resolveNetwork } from '@porthole/shared'
import { beforeEach, expect, test, vi } from 'vitest'

// The convert API and the wallet are replaced at their module edges; Swap's rules and state run
// for real.
const edge = vi.hoisted(() => ({
  quotes: vi.fn(),
  build: vi.fn(),
  request: vi.fn(),
  gasPrice: vi.fn(),
  prices: vi.fn(),
  tokens: vi.fn(),
}))
vi.mock('../api/trade.js', async (original) => ({
  ...(await original<typeof import('../api/trade.js')>()),
  getSwapQuotes: edge.quotes,
  buildSwapTransaction: edge.build,
  getSwapGasPrice: edge.gasPrice,
  getSwapTokens: edge.tokens,
}))
vi.mock('../api/blockchain.js', async (original) => ({
  ...(await original<typeof import('../api/blockchain.js')>()),
  getPrices: edge.prices,
}))
vi.mock('./tokens.js', async (original) => ({
  ...(await original<typeof import('./tokens.js')>()),
  refreshTokens: async () => {},
}))
vi.mock('./connection.js', async (original) => ({
  ...(await original<typeof import('./connection.js')>()),
  connectorRequest: edge.request,
}))

const Swapping = await import('./swap.js')
const { store, initialState } = await import('../store/store.js')
const { initialSwapState } = await import('../store/swapState.js')

const USER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const ROUTER = '0x9C2E0D25F519D2645f780FA62820f821ff79a52D'
const eth = {
  address: 'eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
  symbol: 'ETH',
  name: 'Ether',
  decimals: 18,
  balance: '5',
}
const pusd = {
  address: 'eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3',
  symbol: 'pUSD',
  name: 'Porthole USD',
  decimals: 6,
}
const quote = (toAmount: string) => ({
  fromAmount: '1000000000000000000',
  fromAccount: eth.address,
  toAmount,
  toAccount: pusd.address,
})

beforeEach(() => {
  for (const fn of Object.values(edge)) fn.mockReset()
  store.setState(initialState())
  store.setState({
    config: { ...store.getState().config, networks: [resolveNetwork('eip155:31337')!] },
    connection: {
      status: 'connected',
      connector: { id: 'io.metamask', type: 'ANNOUNCED', name: 'MetaMask' },
      address: USER,
      caipNetworkId: 'eip155:31337',
    },
  })
  // After the connection: a network switch starts the swap over.
  store.setState({
    swap: {
      ...initialSwapState,
      caipNetworkId: 'eip155:31337',
      fromToken: eth,
      toToken: pusd,
      fromAmount: '1',
    },
  })
})

test('a swap refused for slippage keeps its message through the background quote refresh', async () => {
  edge.quotes.mockResolvedValue({ quotes: [quote('2985000000')] })
  await Swapping.requestQuote()
  expect(Swapping.swapState()).toMatchObject({ error: null, quote: { toAmount: '2985000000' } })
  edge.build.mockResolvedValue({
    tx: {
      from: `eip155:31337:${USER}`,
      to: `eip155:31337:${ROUTER}`,
      data: '0x7ff36ab5',
      amount: '1000000000000000000',
      eip155: { gas: '150000', gasPrice: '1000000000' },
    },
  })
  // The wallet's gas estimate meets the moved price.
  edge.request.mockRejectedValue(
    new Error('execution reverted: UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT'),
  )
  await Swapping.swap()
  const refused =
    'The price moved more than the 1% slippage tolerance, so nothing was swapped. Get a new quote and try again.'
  expect(Swapping.swapState()).toMatchObject({ step: 'idle', failure: refused })

  // The 10 s refresh brings the moved price; the refusal stays beside it.
  edge.quotes.mockResolvedValue({ quotes: [quote('2074000000')] })
  await Swapping.requestQuote()
  expect(Swapping.swapState()).toMatchObject({
    failure: refused,
    error: null,
    quote: { toAmount: '2074000000' },
    fromAmount: '1',
  })

  // Asking for something else clears it.
  Swapping.setAmount('from', '0.5')
  expect(Swapping.swapState().failure).toBeNull()
})

test('a failing quote after a refused swap shows the quote error but keeps the refusal', async () => {
  edge.quotes.mockResolvedValue({ quotes: [quote('2985000000')] })
  await Swapping.requestQuote()
  edge.build.mockRejectedValue(new Error('UniswapV2Library: INSUFFICIENT_LIQUIDITY'))
  await Swapping.swap()
  expect(Swapping.swapState().failure).toBe('Not enough liquidity for this amount')
  edge.quotes.mockRejectedValue(new Error('offline'))
  await Swapping.requestQuote()
  expect(Swapping.swapState()).toMatchObject({
    error: 'offline',
    failure: 'Not enough liquidity for this amount',
  })
})

test("the network fee is the quote's gas at the network's gas price (/v1/convert/gas-price) and ether's price (/v1/fungible/price); quotes carry that gas price", async () => {
  store.setState({ swap: { ...initialSwapState } })
  edge.tokens.mockResolvedValue({
    tokens: [
      { ...eth, logoUri: null },
      { ...pusd, logoUri: null },
    ],
  })
  edge.gasPrice.mockResolvedValue({
    standard: '2000000000',
    fast: '3000000000',
    instant: '4000000000',
  })
  edge.prices.mockImplementation(async ([id]: string[]) => ({
    fungibles:
      id === eth.address ? [{ name: 'Ether', symbol: 'ETH', iconUrl: '', price: 3000 }] : [],
  }))
  await Swapping.openSwap()
  await vi.waitFor(() => expect(Swapping.swapState().gasPrice).toBe('2000000000'))
  expect(edge.gasPrice).toHaveBeenCalledWith('eip155:31337')
  expect(edge.prices).toHaveBeenCalledWith([eth.address])
  Swapping.chooseToken('to', pusd)
  // The user holds 5 ETH (the balances are not loaded here).
  store.setState((s) => ({ swap: { ...s.swap!, fromToken: eth } }))
  Swapping.setAmount('from', '1')
  edge.quotes.mockResolvedValue({
    quotes: [{ ...quote('2985000000'), gas: '150000', gasPrice: '1000000000', networkFeeUsd: 0.1 }],
  })
  await Swapping.requestQuote()
  expect(edge.quotes).toHaveBeenCalledWith(expect.objectContaining({ gasPrice: '2000000000' }))
  // 150,000 gas × 2 gwei = 0.0003 ETH at $3,000: $0.90 (not the API's $0.10, nor its 1 gwei).
  expect(Swapping.quoteNetworkFee(Swapping.swapState())).toBeCloseTo(0.9, 10)
})

test("without the gas price or ether's price the fee is the API's own figure; a token not held gets its price from /v1/fungible/price", async () => {
  store.setState({ swap: { ...initialSwapState } })
  edge.tokens.mockResolvedValue({
    tokens: [
      { ...eth, logoUri: null },
      { ...pusd, logoUri: null },
    ],
  })
  edge.gasPrice.mockRejectedValue(new Error('Network not supported for Gas Price'))
  edge.prices.mockImplementation(async ([id]: string[]) => ({
    fungibles:
      id === pusd.address ? [{ name: 'Porthole USD', symbol: 'pUSD', iconUrl: '', price: 1 }] : [],
  }))
  await Swapping.openSwap()
  Swapping.chooseToken('to', pusd)
  await vi.waitFor(() => expect(Swapping.swapState().toToken?.price).toBe(1))
  // The user holds 5 ETH (the balances are not loaded here).
  store.setState((s) => ({ swap: { ...s.swap!, fromToken: eth } }))
  Swapping.setAmount('from', '1')
  edge.quotes.mockResolvedValue({
    quotes: [{ ...quote('2985000000'), gas: '150000', gasPrice: '1000000000', networkFeeUsd: 0.1 }],
  })
  await Swapping.requestQuote()
  expect(edge.quotes.mock.calls[0]?.[0]).not.toHaveProperty('gasPrice')
  expect(Swapping.quoteNetworkFee(Swapping.swapState())).toBe(0.1)
})
