/**
 * A stand-in for the SDK's `createPorthole` in the connector's tests: the instance as a page sees
 * it (state, `connect`, `switchNetwork`, the EIP-1193 provider and its events), driven by the
 * test in the modal's place. Its provider answers the account methods from state, as the SDK's
 * does, and signs `personal_sign` with a real key.
 */
import type {
  ConnectResult,
  EIP1193Provider,
  Porthole,
  PortholeOptions,
  PortholeState,
} from '@porthole/sdk'
import { type Hex, numberToHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/** anvil's first test key. */
export const FAKE_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
export const FAKE_ADDRESS = privateKeyToAccount(FAKE_KEY).address

/** The SDK's state before the modal's first message. */
const INITIAL: PortholeState = {
  open: false,
  status: 'disconnected',
  address: null,
  caipAddress: null,
  caipNetworkId: null,
  chainId: null,
  connector: null,
  view: null,
  error: null,
  connections: [],
  session: null,
}

/** What the test controls and sees. */
export type FakePorthole = Porthole & {
  options: PortholeOptions
  /** Calls the connector made, in order (`connect`, `switchNetwork:eip155:31338`, …). */
  calls: string[]
  /** The modal sends a state (the first one ends the handshake). */
  push(state: Partial<PortholeState>): void
  /** The modal connects `address` on `chainId` (state, then `connect` / `accountsChanged`). */
  connectAccount(address: string, chainId: number): void
  /** The modal emits a provider event. */
  emit(event: string, ...args: unknown[]): void
  /** What the next `connect()` does: connect this account, or reject with this error. */
  onConnect: { address: string; chainId: number } | Error
  /** What the next `switchNetwork()` does: switch (the default) or reject with this error. */
  onSwitch: 'switch' | 'stay' | Error
}

/** An EIP-1193 style error (what the SDK rebuilds from the modal's answer). */
export function rpcError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code })
}

/**
 * Creates the fake instance for `options`.
 *
 * @example
 * const fake = createFakePorthole({ projectId: 'p' })
 * fake.push({ caipNetworkId: 'eip155:31337', chainId: 31337 })
 */
export function createFakePorthole(options: PortholeOptions): FakePorthole {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>()
  const emit = (event: string, ...args: unknown[]) => {
    for (const listener of [...(listeners.get(event) ?? [])]) listener(...args)
  }
  const on = (event: string, listener: (...args: unknown[]) => void) => {
    listeners.set(event, (listeners.get(event) ?? new Set()).add(listener))
  }
  const off = (event: string, listener: (...args: unknown[]) => void) => {
    listeners.get(event)?.delete(listener)
  }
  const account = privateKeyToAccount(FAKE_KEY)
  let state = INITIAL
  const active = () => state.connections.find((c) => c.active && c.namespace === 'eip155')
  const chainOf = () => {
    const connection = active()
    const chainId = connection ? Number(connection.caipAddress.split(':')[1]) : state.chainId
    return typeof chainId === 'number' ? chainId : null
  }

  const provider: EIP1193Provider = {
    async request({ method, params }) {
      if (method === 'eth_accounts') return active() ? [active()!.address] : []
      if (method === 'eth_chainId') return chainOf() === null ? null : numberToHex(chainOf()!)
      if (method === 'personal_sign') {
        const [message] = params as [Hex, string]
        return account.signMessage({ message: { raw: message } })
      }
      throw rpcError(4200, `Unsupported method: ${method}`)
    },
    on(event, listener) {
      on(event, listener)
      return provider
    },
    removeListener(event, listener) {
      off(event, listener)
      return provider
    },
  }

  const fake: FakePorthole = {
    options,
    calls: [],
    onConnect: { address: FAKE_ADDRESS, chainId: 31337 },
    onSwitch: 'switch',
    push(next) {
      state = { ...state, ...next }
      emit('state', state)
    },
    connectAccount(address, chainId) {
      const caipAddress = `eip155:${chainId}:${address}`
      const connection = { connectorId: 'dev', namespace: 'eip155' as const, address, caipAddress }
      fake.push({
        status: 'connected',
        address,
        caipAddress,
        caipNetworkId: `eip155:${chainId}`,
        chainId,
        connections: [{ ...connection, active: true }],
      })
      emit('connect', { chainId: numberToHex(chainId) })
      emit('accountsChanged', [address])
    },
    emit,
    async open() {
      fake.calls.push('open')
    },
    async close() {
      fake.calls.push('close')
    },
    async wallets() {
      return []
    },
    async connect(connectOptions) {
      fake.calls.push(`connect:${connectOptions?.namespace ?? ''}`)
      const next = fake.onConnect
      if (next instanceof Error) throw next
      fake.connectAccount(next.address, next.chainId)
      return {
        address: next.address,
        caipAddress: `eip155:${next.chainId}:${next.address}`,
        chainId: next.chainId,
        caipNetworkId: `eip155:${next.chainId}`,
      } satisfies ConnectResult
    },
    async disconnect() {
      fake.calls.push('disconnect')
      fake.push({ ...INITIAL, caipNetworkId: state.caipNetworkId, chainId: state.chainId })
      emit('accountsChanged', [])
      emit('disconnect', rpcError(4900, 'Disconnected'))
    },
    async switchNetwork(network) {
      fake.calls.push(`switchNetwork:${String(network)}`)
      if (fake.onSwitch instanceof Error) throw fake.onSwitch
      if (fake.onSwitch === 'stay') return
      const chainId = Number(String(network).split(':')[1])
      const connection = active()
      if (connection) {
        const caipAddress = `eip155:${chainId}:${connection.address}`
        fake.push({
          caipAddress,
          caipNetworkId: `eip155:${chainId}`,
          chainId,
          connections: [{ ...connection, caipAddress }],
        })
      } else fake.push({ caipNetworkId: `eip155:${chainId}`, chainId })
      emit('chainChanged', numberToHex(chainId))
    },
    getState: () => state,
    getSession: () => null,
    subscribe(listener) {
      on('state', listener as never)
      return () => off('state', listener as never)
    },
    getProvider: () => provider,
    on(event, listener) {
      on(event, listener)
      return () => off(event, listener)
    },
    off,
    destroy() {
      listeners.clear()
    },
  }
  return fake
}
