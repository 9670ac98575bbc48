import { resolveNetwork } from '@porthole/shared'
import { beforeEach, describe, expect, test, vi } from 'vitest'
import type { Connector, ConnectorAccount } from '../connectors/types.js'

// Edges faked: balances (a chain read), analytics. The alert rules run against the real store.
vi.mock('./balance.js', () => ({ refresh: vi.fn(async () => {}) }))
vi.mock('./analytics.js', () => ({ track: () => {}, reportError: () => {} }))

const Alerts = await import('./alerts.js')
const Connection = await import('./connection.js')
const Network = await import('./network.js')
const { store, initialState } = await import('../store/store.js')
const { partialize, merge } = await import('../store/persist.js')

const EVM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const devnet = resolveNetwork('eip155:31337')!

function connector(type: 'WALLET_CONNECT' | 'AUTH' | 'ANNOUNCED', accounts: ConnectorAccount[]) {
  const fake: Connector = {
    info: { id: type === 'ANNOUNCED' ? 'io.metamask' : type, type, name: type },
    namespaces: ['eip155'],
    connect: async () => accounts,
    getAccounts: async () => accounts,
    request: async () => null,
    disconnect: async () => {},
  }
  return fake
}
const ACCOUNT: ConnectorAccount = {
  namespace: 'eip155',
  address: EVM,
  caipNetworkId: 'eip155:31337',
}

/** Connects `type`, then reloads: the restored connector gives `restored` accounts. */
async function reloadWith(
  type: 'WALLET_CONNECT' | 'AUTH' | 'ANNOUNCED',
  restored: ConnectorAccount[],
) {
  Connection.setConnected(connector(type, [ACCOUNT]), [ACCOUNT], { silent: true })
  const stored = JSON.parse(JSON.stringify(partialize(store.getState())))
  store.setState(merge(stored, initialState()), true)
  store.setState({ config: { ...store.getState().config, networks: [devnet] } })
  Connection.registerConnectorKind(type, { restore: async () => connector(type, restored) })
  await Connection.restoreSession()
}

beforeEach(() => {
  store.setState(initialState(), true)
  store.setState({
    config: { ...store.getState().config, networks: [devnet] },
    activeNetworkId: devnet.caipNetworkId,
  })
})

describe("'Session Expired'", () => {
  test('a saved WalletConnect or embedded session that gives no account after a reload', async () => {
    for (const type of ['WALLET_CONNECT', 'AUTH'] as const) {
      store.setState(initialState(), true)
      await reloadWith(type, [])
      expect(store.getState().alert).toEqual({
        code: 4900,
        message: 'Session Expired',
        fatal: false,
      })
      expect(store.getState().connection.status).toBe('disconnected')
    }
  })

  test('not for a session that comes back, nor for a browser wallet that forgot the site', async () => {
    await reloadWith('WALLET_CONNECT', [ACCOUNT])
    expect(store.getState().alert).toBeNull()
    expect(store.getState().connection.status).toBe('connected')
    store.setState(initialState(), true)
    await reloadWith('ANNOUNCED', [])
    expect(store.getState().alert).toBeNull()
  })

  test('goes away once an account is connected again', async () => {
    Alerts.watchAlerts()
    await reloadWith('AUTH', [])
    expect(store.getState().alert?.message).toBe('Session Expired')
    Connection.setConnected(connector('AUTH', [ACCOUNT]), [ACCOUNT], { silent: true })
    expect(store.getState().alert).toBeNull()
  })
})

describe("'Network Not Found'", () => {
  test('a switch to a network the dapp did not configure', async () => {
    await expect(Network.switchNetwork('eip155:8453')).rejects.toThrow('Network not found')
    expect(store.getState().alert).toEqual({
      code: 4902,
      message: 'Network Not Found',
      fatal: false,
    })
    Alerts.dismissAlert()
    expect(store.getState().alert).toBeNull()
  })

  test('never replaces a fatal alert', async () => {
    store.setState({ alert: { code: 4100, message: 'Invalid Project ID', fatal: true } })
    await expect(Network.switchNetwork('eip155:8453')).rejects.toThrow()
    Alerts.dismissAlert()
    expect(store.getState().alert?.message).toBe('Invalid Project ID')
  })
})
