import { beforeEach, expect, test, vi } from 'vitest'

// The data service is replaced at its module edge; the 5-minute cache is under test.
const edge = vi.hoisted(() => ({ identity: vi.fn() }))
vi.mock('../api/blockchain.js', () => ({ getIdentity: edge.identity }))

const Identity = await import('./identity.js')
const { store, initialState } = await import('../store/store.js')

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
let now = 0

beforeEach(() => {
  now = 1_000_000
  Identity.clock.now = () => now
  edge.identity.mockReset()
  edge.identity.mockResolvedValue({ name: 'alice.porthole', avatar: null })
  store.setState(initialState())
  store.setState({
    connection: {
      status: 'connected',
      connector: { id: 'x', type: 'ANNOUNCED', name: 'X' },
      address: ADDRESS,
      caipNetworkId: 'eip155:1',
    },
  })
})

test('a name is asked once per address and reused for 5 minutes', async () => {
  await Promise.all([Identity.refreshIdentity(), Identity.refreshIdentity()])
  expect(edge.identity).toHaveBeenCalledTimes(1)
  expect(edge.identity).toHaveBeenCalledWith(ADDRESS, { sender: ADDRESS })
  expect(Identity.identityOf(store.getState(), ADDRESS.toLowerCase())?.name).toBe('alice.porthole')
  now += 5 * 60_000 - 1
  await Identity.refreshIdentity()
  expect(edge.identity).toHaveBeenCalledTimes(1)
  now += 1
  await Identity.refreshIdentity()
  expect(edge.identity).toHaveBeenCalledTimes(2)
})

test('a failed lookup is quiet and leaves no name', async () => {
  edge.identity.mockRejectedValueOnce(new Error('HTTP status code: 500'))
  await Identity.refreshIdentity()
  expect(Identity.identityOf(store.getState(), ADDRESS)).toBeUndefined()
  expect(store.getState().toast).toBeNull()
})
