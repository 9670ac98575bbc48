import { afterEach, beforeEach, expect, test, vi } from 'vitest'

// Issue 25, finding 10: the checkout URL comes from the API and was put in the popup as it was;
// a `javascript:` (or `data:`) URL from a compromised API would run on the modal's origin. The API
// is replaced at its module edge; the popup is a stand-in window recording where it was sent.
const edge = vi.hoisted(() => ({ generate: vi.fn(), order: vi.fn() }))
vi.mock('../api/trade.js', async (original) => ({
  ...(await original<typeof import('../api/trade.js')>()),
  generateOnrampUrl: edge.generate,
  getOnrampOrder: edge.order,
}))

const { startPurchase, reopenCheckout, onrampState } = await import('./onramp.js')
const { store, initialState } = await import('../store/store.js')

type FakePopup = { hrefs: string[]; closed: boolean; opener: unknown; close(): void }
let popups: FakePopup[] = []

beforeEach(() => {
  popups = []
  vi.stubGlobal('window', {
    open: () => {
      const popup: FakePopup = {
        hrefs: [],
        closed: false,
        opener: {},
        close() {
          this.closed = true
        },
      }
      Object.defineProperty(popup, 'location', {
        value: {
          set href(url: string) {
            popup.hrefs.push(url)
          },
        },
      })
      popups.push(popup)
      return popup
    },
  })
  store.setState(initialState())
  store.setState({
    connection: {
      status: 'connected',
      connector: { id: 'io.metamask', type: 'ANNOUNCED', name: 'MetaMask' },
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      caipNetworkId: 'eip155:31337',
    },
  })
  edge.order.mockResolvedValue({ id: 'order-1', status: 'created' })
})
afterEach(() => {
  vi.unstubAllGlobals()
  edge.generate.mockReset()
})

const settle = () => new Promise((resolve) => setTimeout(resolve, 10))

test.each([
  'javascript:alert(document.domain)',
  'JavaScript:alert(1)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'http://checkout.example.com/pay',
  'not a url',
])(
  'a checkout URL %j from the API is never opened; the popup closes with an error',
  async (url) => {
    edge.generate.mockResolvedValue({ url, orderId: 'order-1' })
    startPurchase()
    await settle()
    expect(popups).toHaveLength(1)
    expect(popups[0]!.hrefs).toEqual([])
    expect(popups[0]!.closed).toBe(true)
    expect(onrampState().error).toBeTruthy()
    expect(onrampState().checkoutUrl).toBeFalsy()
  },
)

test('an https checkout (and an http one on loopback, the local provider) opens', async () => {
  for (const url of ['https://pay.example.com/checkout?id=1', 'http://127.0.0.1:4900/checkout/1']) {
    popups = []
    edge.generate.mockResolvedValue({ url, orderId: 'order-1' })
    startPurchase()
    await settle()
    expect(popups[0]!.hrefs).toEqual([url])
    expect(popups[0]!.opener).toBeNull()
  }
})

test('reopening the checkout re-checks the remembered URL', async () => {
  store.setState({ onramp: { ...onrampState(), checkoutUrl: 'javascript:alert(1)' } })
  reopenCheckout('order-1')
  expect(popups.flatMap((p) => p.hrefs)).toEqual([])
  expect(onrampState().error).toBeTruthy()
})
