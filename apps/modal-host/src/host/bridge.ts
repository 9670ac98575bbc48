/**
 * The modal's port to the host SDK: requests to the host (injected wallets, deep links), and
 * the `state` / `providerEvent` pushes that keep the SDK's `getState()` synchronous and its
 * provider's events in step (DESIGN §3: the modal is the source of truth).
 */
import type {
  Channel,
  HostToModal,
  ModalToHost,
  PortholeState,
  ProviderEvent,
} from '@porthole/protocol'
import { DisconnectedError } from '@porthole/protocol'
import { parseCaipNetworkId, toHexChainId } from '@porthole/shared'
import { store } from '../store/store.js'
import type { ModalState } from '../store/types.js'

type HostChannel = Channel.Channel<ModalToHost, HostToModal>

let channel: HostChannel | undefined
let lastState = ''
let unsubscribe: (() => void) | undefined

/** Requests the host to run something (an injected-wallet call, opening a URL). */
export function hostRequest<M extends keyof ModalToHost['requests'] & string>(
  method: M,
  params: ModalToHost['requests'][M]['params'],
  options?: Channel.RequestOptions,
): Promise<ModalToHost['requests'][M]['result']> {
  if (!channel || channel.closed) return Promise.reject(new DisconnectedError('Host not connected'))
  return channel.request(method, params, options)
}

/** The `getState()` view of the store. */
export function toPortholeState(state: ModalState): PortholeState {
  const { connection, open, history, alert } = state
  const connected = connection.status === 'connected' && !!connection.address
  const caipNetworkId = (connected ? connection.caipNetworkId : state.activeNetworkId) ?? null
  let chainId: number | string | null = null
  if (caipNetworkId) {
    const { namespace, reference } = parseCaipNetworkId(caipNetworkId)
    chainId = namespace === 'eip155' ? Number(reference) : reference
  }
  return {
    open,
    status: connection.status,
    address: connected ? connection.address : null,
    caipAddress: connected && caipNetworkId ? `${caipNetworkId}:${connection.address}` : null,
    caipNetworkId,
    chainId,
    connector: connected ? connection.connector : null,
    view: open ? (history.at(-1)?.view ?? null) : null,
    error: alert?.fatal ? { code: alert.code, message: alert.message } : null,
  }
}

/** The EIP-1193 events a state change implies, in order. */
export function providerEvents(previous: PortholeState, next: PortholeState): ProviderEvent[] {
  const events: ProviderEvent[] = []
  const was = previous.status === 'connected' && previous.address
  const is = next.status === 'connected' && next.address
  const hex = (s: PortholeState) => (typeof s.chainId === 'number' ? toHexChainId(s.chainId) : null)
  if (is && !was) events.push({ event: 'connect', data: { chainId: hex(next) ?? '0x0' } })
  if (is && next.address !== (was ? previous.address : null))
    events.push({ event: 'accountsChanged', data: [next.address as string] })
  const chain = hex(next)
  if (chain && previous.chainId !== null && previous.chainId !== next.chainId)
    events.push({ event: 'chainChanged', data: chain })
  if (was && !is) {
    events.push({ event: 'accountsChanged', data: [] })
    events.push({ event: 'disconnect', data: { code: 4900, message: 'Disconnected' } })
  }
  return events
}

/**
 * Emits a provider event to the dapp outside the state diff (the WalletConnect `display_uri`).
 *
 * @example
 * emitProviderEvent({ event: 'display_uri', data: uri })
 */
export function emitProviderEvent(event: ProviderEvent): void {
  if (channel && !channel.closed) channel.emit('providerEvent', event)
}

/** Attaches the channel and starts pushing state (and provider events) on every change. */
export function attachHost(next: HostChannel): void {
  channel = next
  unsubscribe?.()
  lastState = ''
  let previous = toPortholeState(store.getState())
  const push = () => {
    const state = toPortholeState(store.getState())
    const text = JSON.stringify(state)
    if (text === lastState || !channel || channel.closed) return
    lastState = text
    channel.emit('state', state)
    for (const event of providerEvents(previous, state)) channel.emit('providerEvent', event)
    previous = state
  }
  unsubscribe = store.subscribe(push)
  push()
}
