import { beforeEach, describe, expect, test, vi } from 'vitest'

// Unit tests, not e2e: signIn runs from the SIWXSignMessage view's button, and these states are
// the view outliving what it signs for (the wallet disconnects, leaves every network, or its
// connector goes in the moment between showing the view and the click). A host cannot reach
// them through the SDK: its calls never start a sign-in. No request is made in any of them.
vi.mock('./modal.js', () => ({ close: vi.fn(), open: vi.fn() }))
const fetchSpy = vi.fn()
vi.stubGlobal('fetch', fetchSpy)

const Siwx = await import('./siwx.js')
const Connection = await import('./connection.js')
const { store, initialState } = await import('../store/store.js')

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const siwx = { required: true }

beforeEach(() => {
  store.setState(initialState(), true)
  fetchSpy.mockClear()
})

const connection = (status: 'connected' | 'disconnected', caipNetworkId: string | null) => ({
  status,
  connector: { id: 'io.metamask', type: 'ANNOUNCED' as const, name: 'MetaMask' },
  address: status === 'connected' ? ADDRESS : null,
  caipNetworkId,
})

describe('SIWX sign-in errors (spec §8)', () => {
  test("without the siwx option: 'SIWX is not enabled'", async () => {
    store.setState({ connection: connection('connected', 'eip155:1') })
    await expect(Siwx.signIn()).rejects.toThrow('SIWX is not enabled')
  })

  test("the account disconnected while the sign view showed: 'No ActiveCaipAddress found'", async () => {
    store.setState((s) => ({
      config: { ...s.config, siwx },
      connection: connection('disconnected', null),
    }))
    await expect(Siwx.signIn()).rejects.toThrow('No ActiveCaipAddress found')
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  test("an account on no network: 'No ActiveCaipNetwork or client found'", async () => {
    store.setState((s) => ({
      config: { ...s.config, siwx },
      connection: connection('connected', null),
    }))
    await expect(Siwx.signIn()).rejects.toThrow('No ActiveCaipNetwork or client found')
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  test("an account whose connector is gone: 'No ConnectionController client found'", async () => {
    store.setState((s) => ({
      config: { ...s.config, siwx },
      connection: connection('connected', 'eip155:1'),
    }))
    expect(Connection.getConnector('io.metamask')).toBeUndefined()
    await expect(Siwx.signIn()).rejects.toThrow('No ConnectionController client found')
    expect(fetchSpy).not.toHaveBeenCalled()
  })
})
