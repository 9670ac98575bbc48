import { resolveNetwork } from '@porthole/shared'
import { beforeEach, expect, test, vi } from 'vitest'

// The convert API and the wallet are replaced at their module edges; Swap's rules and state run
// for real.
const edge = vi.hoisted(() => ({
  quotes: vi.fn(),
  build: vi.fn(),
  request: vi.fn(),
}))
vi.mock('../api/trade.js', async (original) => ({
  ...(await original<typeof import('../api/trade.js')>()),
  getSwapQuotes: edge.quotes,
  buildSwapTransaction: edge.build,
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
