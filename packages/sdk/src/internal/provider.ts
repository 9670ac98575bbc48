/**
 * The dapp-facing EIP-1193 provider. Calls for an injected connection go straight to that
 * wallet; `eth_chainId` / `eth_accounts` are answered from state; `eth_requestAccounts` opens
 * the modal; everything else goes to the modal, which holds the other connections. Events
 * come from the modal (`providerEvent`), so they are the same for every connector.
 */
import { type PortholeState, UnauthorizedError } from '@porthole/protocol/lite'
import type { ConnectResult, EIP1193Provider, RequestArguments } from '../types.js'
import type { Emitter } from './emitter.js'

const ICON =
  "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='-1 -1 2 2'><circle r='1' fill='%2336f'/></svg>"

/** rdns our own EIP-6963 announcement uses; discovery skips providers that carry it. */
export const PORTHOLE_RDNS = 'dev.porthole'

type ProviderParameters = {
  events: Emitter
  getState(): PortholeState
  injected(uuid: string): EIP1193Provider | undefined
  modal(method: string, params: RequestArguments['params']): Promise<unknown>
  connect(): Promise<ConnectResult>
  announce: boolean
}

/**
 * Creates the provider and (optionally) announces it with EIP-6963; returns it and a cleanup.
 *
 * @example
 * const [provider, stop] = createProvider({ events, getState, injected, modal, connect, announce: true })
 */
export function createProvider(parameters: ProviderParameters): [EIP1193Provider, () => void] {
  const { events, getState, injected, modal, connect, announce } = parameters
  const eip1193: EIP1193Provider = {
    async request({ method, params }) {
      const s = getState()
      const connected = s.status === 'connected'
      const wallet = connected && s.connector?.uuid ? injected(s.connector.uuid) : undefined
      if (wallet) return wallet.request(params === undefined ? { method } : { method, params })
      if (method === 'eth_chainId')
        return typeof s.chainId === 'number' ? `0x${s.chainId.toString(16)}` : null
      if (method === 'eth_accounts') return connected ? [s.address] : []
      if (method === 'eth_requestAccounts') return [(await connect()).address]
      if (!connected) throw new UnauthorizedError('Not connected')
      return modal(method, params)
    },
    on(event, listener) {
      events.on(event, listener)
      return eip1193
    },
    removeListener(event, listener) {
      events.off(event, listener)
      return eip1193
    },
  }
  const info = { uuid: crypto.randomUUID(), name: 'Porthole', icon: ICON, rdns: PORTHOLE_RDNS }
  const announceProvider = () =>
    dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: Object.freeze({ info, provider: eip1193 }),
      }),
    )
  if (announce) {
    addEventListener('eip6963:requestProvider', announceProvider)
    announceProvider()
  }
  return [eip1193, () => removeEventListener('eip6963:requestProvider', announceProvider)]
}
