import type { PortholeState } from '@porthole/protocol'
import { describe, expect, test } from 'vitest'
import { initialState } from '../store/store.js'
import { providerEvents, toPortholeState } from './bridge.js'

const base: PortholeState = {
  open: false,
  status: 'disconnected',
  address: null,
  caipAddress: null,
  caipNetworkId: 'eip155:1',
  chainId: 1,
  connector: null,
  view: null,
  error: null,
  connections: [],
  session: null,
}
const connected = (address: string, chainId: number): PortholeState => ({
  ...base,
  status: 'connected',
  address,
  caipAddress: `eip155:${chainId}:${address}`,
  caipNetworkId: `eip155:${chainId}`,
  chainId,
  connections: [
    {
      connectorId: 'io.metamask',
      namespace: 'eip155',
      address,
      caipAddress: `eip155:${chainId}:${address}`,
      active: true,
    },
  ],
})
const SOL = 'solana:DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P'
const withSolana = (state: PortholeState, address: string, active = true): PortholeState => ({
  ...state,
  connections: [
    ...state.connections,
    {
      connectorId: 'solana:Dev',
      namespace: 'solana',
      address,
      caipAddress: `${SOL}:${address}`,
      active,
    },
  ],
})

describe('provider events follow connection changes', () => {
  test('connecting emits connect then accountsChanged', () => {
    expect(providerEvents(base, connected('0xA', 1))).toEqual([
      { event: 'connect', data: { chainId: '0x1' } },
      { event: 'accountsChanged', data: ['0xA'] },
    ])
  })
  test('an account switch emits accountsChanged only', () => {
    expect(providerEvents(connected('0xA', 1), connected('0xB', 1))).toEqual([
      { event: 'accountsChanged', data: ['0xB'] },
    ])
  })
  test('a chain switch emits chainChanged in hex', () => {
    expect(providerEvents(connected('0xA', 1), connected('0xA', 31337))).toEqual([
      { event: 'chainChanged', data: '0x7a69' },
    ])
  })
  test('disconnecting emits accountsChanged [] and disconnect 4900', () => {
    expect(providerEvents(connected('0xA', 1), base)).toEqual([
      { event: 'accountsChanged', data: [] },
      { event: 'disconnect', data: { code: 4900, message: 'Disconnected' } },
    ])
  })
  test('a Solana connection emits on the Solana provider only, with its namespace', () => {
    const evm = connected('0xA', 1)
    expect(providerEvents(evm, withSolana(evm, 'So1'))).toEqual([
      { event: 'connect', data: { chainId: SOL }, namespace: 'solana' },
      { event: 'accountsChanged', data: ['So1'], namespace: 'solana' },
    ])
  })
  test('making Solana the active namespace leaves the EVM provider alone (no stale address)', () => {
    const both = withSolana(connected('0xA', 1), 'So1')
    const solanaActive: PortholeState = {
      ...both,
      address: 'So1',
      caipAddress: `${SOL}:So1`,
      caipNetworkId: SOL,
      chainId: 'DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P',
    }
    expect(providerEvents(both, solanaActive)).toEqual([])
  })
  test('disconnecting the EVM wallet while Solana stays: only the EVM provider disconnects', () => {
    const both = withSolana(connected('0xA', 1), 'So1')
    const solanaOnly = withSolana({ ...base, status: 'connected' }, 'So1')
    expect(providerEvents(both, solanaOnly)).toEqual([
      { event: 'accountsChanged', data: [] },
      { event: 'disconnect', data: { code: 4900, message: 'Disconnected' } },
    ])
  })
  test('nothing changes, nothing is emitted', () => {
    expect(providerEvents(connected('0xA', 1), { ...connected('0xA', 1), open: true })).toEqual([])
  })
})

describe('getState() view of the store', () => {
  test('disconnected: the active network shows, no address', () => {
    const state = toPortholeState({ ...initialState(), activeNetworkId: 'eip155:31337' })
    expect(state).toMatchObject({
      status: 'disconnected',
      address: null,
      caipNetworkId: 'eip155:31337',
      chainId: 31337,
    })
  })
  test('connected: CAIP-10 address and the connector', () => {
    const state = toPortholeState({
      ...initialState(),
      open: true,
      history: [{ view: 'Account' }],
      connection: {
        status: 'connected',
        address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        caipNetworkId: 'eip155:31337',
        connector: {
          id: 'io.metamask',
          type: 'ANNOUNCED',
          name: 'MetaMask',
          rdns: 'io.metamask',
          uuid: 'u',
        },
      },
    })
    expect(state).toMatchObject({
      open: true,
      view: 'Account',
      caipAddress: 'eip155:31337:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      connector: { name: 'MetaMask' },
    })
  })
})
