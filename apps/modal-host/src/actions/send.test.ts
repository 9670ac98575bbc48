import { evmCoinType, HttpError, resolveNetwork } from '@porthole/shared'
import { beforeEach, expect, test, vi } from 'vitest'

// The registry is replaced at its module edge; Send's rules and state run for real.
const edge = vi.hoisted(() => ({ account: vi.fn() }))
vi.mock('../api/names.js', async (original) => ({
  ...(await original<typeof import('../api/names.js')>()),
  getNameAccount: edge.account,
}))

const Send = await import('./send.js')
const { store, initialState } = await import('../store/store.js')

const FROM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const eth = {
  name: 'Ether',
  symbol: 'ETH',
  chainId: 'eip155:31337',
  price: 3000,
  quantity: { decimals: '18', numeric: '10' },
  iconUrl: '',
}

beforeEach(() => {
  edge.account.mockReset()
  store.setState(initialState())
  store.setState({
    config: { ...store.getState().config, networks: [resolveNetwork('eip155:31337')!] },
    connection: {
      status: 'connected',
      connector: { id: 'io.metamask', type: 'ANNOUNCED', name: 'MetaMask' },
      address: FROM,
      caipNetworkId: 'eip155:31337',
    },
  })
  Send.setSendToken(eth)
  Send.setSendAmount('0.5')
})

test('a name as the receiver resolves through the registry; the preview gets its address and profile', async () => {
  edge.account.mockResolvedValue({
    name: 'alice.porthole.id',
    registered: 1,
    updated: 1,
    attributes: {},
    addresses: { [evmCoinType(31337)]: { address: ALICE, created: '' } },
  })
  Send.setSendReceiver('Alice.porthole.id')
  const prepared = await Send.previewSend()
  expect(edge.account).toHaveBeenCalledWith('Alice.porthole.id')
  expect(prepared.receiver).toEqual({ address: ALICE, name: 'Alice.porthole.id' })
  expect(prepared.namespace === 'eip155' && prepared.request.to).toBe(ALICE)
  expect(store.getState().send).toMatchObject({
    receiverProfileName: 'alice.porthole.id',
    receiverProfileImageUrl: null,
  })
  // Typing another receiver clears the profile.
  Send.setSendReceiver(ALICE)
  expect(store.getState().send.receiverProfileName).toBeNull()
  await Send.previewSend()
  expect(edge.account).toHaveBeenCalledTimes(1)
})

test('a name nobody has, a failing registry, and text that is no name give the Send errors', async () => {
  edge.account.mockResolvedValueOnce(null)
  Send.setSendReceiver('nobody.porthole.id')
  await expect(Send.previewSend()).rejects.toThrow('No address found for nobody.porthole.id')
  edge.account.mockRejectedValueOnce(new HttpError(500, undefined))
  await expect(Send.previewSend()).rejects.toThrow('Error resolving name')
  Send.setSendReceiver('not a name')
  await expect(Send.previewSend()).rejects.toThrow('Enter a valid address or name')
  expect(edge.account).toHaveBeenCalledTimes(2)
})
