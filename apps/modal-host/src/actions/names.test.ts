import type { EmbeddedUser } from '@porthole/protocol'
import { evmCoinType, HttpError } from '@porthole/shared'
import { hexToString } from 'viem'
import { beforeEach, describe, expect, test, vi } from 'vitest'

// The registry and the wallet are replaced at their module edges; the registration flow, its
// navigation, the stored profile name and the Send lookup run for real against the store.
const edge = vi.hoisted(() => ({
  account: vi.fn(),
  suggestions: vi.fn(),
  register: vi.fn(),
  wallet: vi.fn(),
}))
vi.mock('../api/names.js', async (original) => ({
  ...(await original<typeof import('../api/names.js')>()),
  getNameAccount: edge.account,
  getNameSuggestions: edge.suggestions,
  postNameRegistration: edge.register,
}))
vi.mock('./connection.js', () => ({ connectorRequest: edge.wallet }))

const Names = await import('./names.js')
const { identityOf } = await import('./identity.js')
const { store, initialState } = await import('../store/store.js')

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const NOW = 1_764_000_000_000
const authUser: EmbeddedUser = {
  email: 'alice@ph.test',
  address: ADDRESS,
  chainId: 31337,
  accounts: [],
  userName: null,
  socialProvider: null,
  preferredAccountType: 'eoa',
  smartAccountDeployed: false,
}

function connect(options: { embedded?: boolean; network?: string } = {}) {
  store.setState(initialState())
  store.setState({
    open: true,
    authUser: options.embedded === false ? null : authUser,
    connection: {
      status: 'connected',
      connector: { id: 'auth', type: 'AUTH', name: 'Email' },
      address: ADDRESS,
      caipNetworkId: options.network ?? 'eip155:31337',
    },
    history: [{ view: 'Account' }, { view: 'RegisterAccountName' }],
  })
}

beforeEach(() => {
  for (const fn of Object.values(edge)) fn.mockReset()
  Names.clock.now = () => NOW
  connect()
})

describe('registering a name (spec §4)', () => {
  test('signs the JSON message with the embedded wallet, registers it, stores the name, shows success', async () => {
    edge.wallet.mockResolvedValue('0xsigned')
    edge.register.mockImplementation(async () => {
      expect(store.getState().loading).toBe(true)
      return { success: true, account: {} }
    })
    await Names.registerAccountName('alice.porthole.id')

    const [method, params, namespace] = edge.wallet.mock.calls[0] as [
      string,
      [string, string],
      string,
    ]
    expect([method, namespace, params[1]]).toEqual(['personal_sign', 'eip155', ADDRESS])
    const message = hexToString(params[0] as `0x${string}`)
    expect(JSON.parse(message)).toEqual({
      name: 'alice.porthole.id',
      attributes: {},
      timestamp: NOW / 1000,
    })
    expect(edge.register).toHaveBeenCalledWith({
      coin_type: evmCoinType(31337),
      address: ADDRESS,
      message,
      signature: '0xsigned',
    })
    const state = store.getState()
    expect(identityOf(state, ADDRESS)?.name).toBe('alice.porthole.id')
    expect(state.history).toEqual([
      { view: 'Account' },
      { view: 'RegisterAccountNameSuccess', name: 'alice.porthole.id' },
    ])
    expect(state.loading).toBe(false)
  })

  test('the wallet card over the view is replaced too, whenever its own event arrives', async () => {
    edge.wallet.mockImplementation(async () => {
      store.setState((s) => ({
        history: [...s.history, { view: 'ApproveTransaction', method: 'personal_sign' }],
      }))
      return '0xsigned'
    })
    edge.register.mockResolvedValue({ success: true, account: {} })
    await Names.registerAccountName('alice.porthole.id')
    expect(store.getState().history.map((s) => s.view)).toEqual([
      'Account',
      'RegisterAccountNameSuccess',
    ])
  })

  test("a refused signature returns to RegisterAccountName with 'Error registering name {name}'", async () => {
    edge.wallet.mockRejectedValue(Object.assign(new Error('User rejected'), { code: 4001 }))
    await expect(Names.registerAccountName('alice.porthole.id')).rejects.toThrow(
      'Error registering name alice.porthole.id',
    )
    expect(edge.register).not.toHaveBeenCalled()
    expect(store.getState().history.at(-1)).toEqual({
      view: 'RegisterAccountName',
      name: 'alice.porthole.id',
      error: 'Error registering name alice.porthole.id',
    })
    expect(identityOf(store.getState(), ADDRESS)).toBeUndefined()
    expect(store.getState().loading).toBe(false)
  })

  test("the registry's first reason is shown rather than the fallback", async () => {
    edge.wallet.mockResolvedValue('0xsigned')
    edge.register.mockRejectedValue(
      new HttpError(409, {
        code: 'NAME_TAKEN',
        message: 'Name is already taken',
        reasons: [{ name: 'taken', description: 'Name is already taken' }],
      }),
    )
    await expect(Names.registerAccountName('alice.porthole.id')).rejects.toThrow(
      'Name is already taken',
    )
    expect(store.getState().history.at(-1)).toMatchObject({
      view: 'RegisterAccountName',
      error: 'Name is already taken',
    })
  })

  test("needs the auth connector and an EVM address: 'Address or auth connector not found'", async () => {
    connect({ embedded: false })
    await expect(Names.registerAccountName('alice.porthole.id')).rejects.toThrow(
      'Address or auth connector not found',
    )
    connect({ network: 'solana:DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P' })
    await expect(Names.registerAccountName('alice.porthole.id')).rejects.toThrow(
      'Address or auth connector not found',
    )
    expect(edge.wallet).not.toHaveBeenCalled()
  })
})

test("suggestions fail with the registry's reason, else 'Error fetching name suggestions'", async () => {
  edge.suggestions.mockResolvedValueOnce({
    suggestions: [{ name: 'alice.porthole.id', registered: true }],
  })
  expect(await Names.suggestNames('alice')).toEqual([
    { name: 'alice.porthole.id', registered: true },
  ])
  edge.suggestions.mockRejectedValueOnce(new HttpError(500, undefined))
  await expect(Names.suggestNames('alice')).rejects.toThrow('Error fetching name suggestions')
})

describe('a name typed as the Send receiver', () => {
  const account = (addresses: Record<string, string>) => ({
    name: 'alice.porthole.id',
    registered: 1,
    updated: 1,
    attributes: {},
    addresses: Object.fromEntries(
      Object.entries(addresses).map(([coin, address]) => [coin, { address, created: '' }]),
    ),
  })

  test("resolves to the address of the active network's coin type, then the default EVM one", async () => {
    edge.account.mockResolvedValueOnce(account({ [evmCoinType(31337)]: OTHER }))
    expect(await Names.resolveNameAddress('alice.porthole.id')).toBe(OTHER)
    expect(Names.resolvedProfile('ALICE.porthole.id')?.name).toBe('alice.porthole.id')
    edge.account.mockResolvedValueOnce(account({ [evmCoinType(31338)]: OTHER }))
    expect(await Names.resolveNameAddress('alice.porthole.id')).toBeNull()
    edge.account.mockResolvedValueOnce(account({ [String(0x80000000)]: OTHER }))
    expect(await Names.resolveNameAddress('alice.porthole.id')).toBe(OTHER)
    edge.account.mockResolvedValueOnce(null)
    expect(await Names.resolveNameAddress('nobody.porthole.id')).toBeNull()
  })
})
