import { resolveNetwork } from '@porthole/shared'
import { beforeEach, expect, test, vi } from 'vitest'

// Analytics is replaced at its module edge: what the switch tracks is under test.
const tracked = vi.hoisted(() => [] as [string, unknown][])
vi.mock('./analytics.js', () => ({
  track: (event: string, properties: unknown) => tracked.push([event, properties]),
  reportError: () => {},
}))

const Network = await import('./network.js')
const { store, initialState } = await import('../store/store.js')

const devnet = resolveNetwork('eip155:31337')!
const devnetB = resolveNetwork('eip155:31338')!
const token = {
  name: 'Ether',
  symbol: 'ETH',
  chainId: 'eip155:31337',
  price: 3000,
  quantity: { decimals: '18', numeric: '1' },
  iconUrl: '',
}

beforeEach(() => {
  tracked.length = 0
  store.setState(initialState())
  store.setState({
    config: { ...store.getState().config, networks: [devnet, devnetB] },
    activeNetworkId: devnet.caipNetworkId,
    send: {
      token,
      sendTokenAmount: '1',
      receiverAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      receiverProfileImageUrl: null,
      receiverProfileName: null,
      loading: false,
    },
  })
})

test('switching the active network resets the send state and tracks SWITCH_NETWORK', async () => {
  await Network.switchNetwork('eip155:31338')
  expect(store.getState().activeNetworkId).toBe('eip155:31338')
  expect(store.getState().send).toEqual(initialState().send)
  expect(tracked).toEqual([['SWITCH_NETWORK', { network: 'eip155:31338' }]])
})

test('switching to the active network does nothing', async () => {
  await Network.switchNetwork('eip155:31337')
  expect(store.getState().send.token).toEqual(token)
  expect(tracked).toEqual([])
})

test("a namespace with no configured network: 'Chain adapter not found' (-32602); a configured one passes", () => {
  // The browser path (connect({ namespace: 'solana' }) on an EVM-only page) is e2e/tests/errors.spec.ts.
  expect(() => Network.requireNamespace('solana')).toThrow(
    expect.objectContaining({ code: -32602, message: 'Chain adapter not found' }),
  )
  expect(() => Network.requireNamespace('eip155')).not.toThrow()
})
