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
import { type ChainNamespace, parseCaipNetworkId, toHexChainId } from '@porthole/shared'
import { activeConnection } from '../actions/connection.js'
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
    connections: state.connections.map((c) => ({
      connectorId: c.connector.id,
      namespace: c.namespace,
      address: c.address,
      caipAddress: `${c.caipNetworkId}:${c.address}`,
      active: activeConnection(state, c.namespace) === c,
    })),
    session: sessionOf(state, connected ? connection : null),
  }
}

/** The wallet sign-in of the active account on its network, as the host sees it. */
function sessionOf(
  state: ModalState,
  connection: ModalState['connection'] | null,
): PortholeState['session'] {
  const found =
    connection?.address &&
    state.siwxSessions.find(
      (s) =>
        s.address.toLowerCase() === connection.address?.toLowerCase() &&
        s.caipNetworkId === connection.caipNetworkId,
    )
  return found
    ? {
        address: found.address,
        caipNetworkId: found.caipNetworkId,
        message: found.message,
        signature: found.signature,
      }
    : null
}

/** A namespace's active account and chain as the dapp sees them. */
function activeOf(state: PortholeState, namespace: string) {
  const found = state.connections.find((c) => c.namespace === namespace && c.active)
  if (!found) return undefined
  const [, reference = ''] = found.caipAddress.split(':')
  return { address: found.address, chain: `${namespace}:${reference}`, reference }
}

/**
 * The provider events a state change implies, in order, per namespace: each namespace's
 * provider follows its own active connection, so a switch of the active namespace never hands
 * one provider another namespace's address. eip155's events are EIP-1193's (hex chain ids, no
 * `namespace` field); the others carry their namespace and CAIP-2 chain ids.
 */
export function providerEvents(previous: PortholeState, next: PortholeState): ProviderEvent[] {
  const events: ProviderEvent[] = []
  const namespaces = new Set([
    ...previous.connections.map((c) => c.namespace),
    ...next.connections.map((c) => c.namespace),
  ])
  for (const namespace of ['eip155', ...[...namespaces].filter((n) => n !== 'eip155')]) {
    const was = activeOf(previous, namespace)
    const is = activeOf(next, namespace)
    const evm = namespace === 'eip155'
    const tag = evm ? {} : { namespace: namespace as ChainNamespace }
    const chainOf = (a: { reference: string; chain: string }) =>
      evm ? toHexChainId(Number(a.reference)) : a.chain
    if (is && !was) events.push({ event: 'connect', data: { chainId: chainOf(is) }, ...tag })
    if (is && is.address !== was?.address)
      events.push({ event: 'accountsChanged', data: [is.address], ...tag })
    if (is && was && was.chain !== is.chain)
      events.push({ event: 'chainChanged', data: chainOf(is), ...tag })
    if (was && !is) {
      events.push({ event: 'accountsChanged', data: [], ...tag })
      events.push({ event: 'disconnect', data: { code: 4900, message: 'Disconnected' }, ...tag })
    }
  }
  // Disconnected and the modal moved to another EVM network: the EIP-1193 provider follows it.
  const chain = (s: PortholeState) =>
    typeof s.chainId === 'number' ? toHexChainId(s.chainId) : null
  if (
    !activeOf(next, 'eip155') &&
    !activeOf(previous, 'eip155') &&
    previous.chainId !== null &&
    chain(next) &&
    previous.chainId !== next.chainId
  )
    events.push({ event: 'chainChanged', data: chain(next) as string })
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
  resend = () => {
    lastState = ''
    push()
  }
  push()
}

let resend = () => {}

/**
 * Sends the state again even when unchanged: after the host hid the dialog for a close the
 * modal refused (sign-in required), `open: true` shows it again.
 *
 * @example
 * resendState()
 */
export function resendState(): void {
  resend()
}
