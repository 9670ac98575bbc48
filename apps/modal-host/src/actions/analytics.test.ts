import { beforeEach, expect, test, vi } from 'vitest'

// The API is the edge: every request the analytics client makes is recorded.
const requests = vi.hoisted(() => [] as string[])
vi.stubGlobal(
  'fetch',
  vi.fn(async (url: string) => {
    requests.push(String(url))
    return new Response(JSON.stringify({ isAnalyticsEnabled: true }), { status: 200 })
  }),
)

vi.mock('../runtime.js', () => ({
  runtime: { apiUrl: 'http://api.test', hostOrigin: 'https://dapp.example' },
  SDK_TYPE: 'porthole',
  SDK_VERSION: '0.1.0',
}))

const Analytics = await import('./analytics.js')
const { store } = await import('../store/store.js')

beforeEach(() => {
  requests.length = 0
  store.setState({
    config: {
      ...store.getState().config,
      projectId: 'porthole-demo',
      features: { ...store.getState().config.features, analytics: true },
    },
  })
  Analytics.startAnalytics()
})

test('nothing is sent before the modal first opens; after that, events go out', async () => {
  Analytics.track('SWITCH_NETWORK', { network: 'eip155:1' })
  Analytics.reportError(new Error('boom'))
  await new Promise((resolve) => setTimeout(resolve, 20))
  expect(requests).toEqual([])

  store.setState({ open: true })
  store.setState({ open: false })
  Analytics.track('SWITCH_NETWORK', { network: 'eip155:1' })
  await vi.waitFor(() => expect(requests.some((url) => new URL(url).pathname === '/e')).toBe(true))
  expect(requests.map((url) => new URL(url).pathname)).toEqual(['/getAnalyticsConfig', '/e'])
})
