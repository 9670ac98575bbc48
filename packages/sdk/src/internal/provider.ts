/**
 * The dapp-facing providers, one per namespace (EIP-1193 for eip155; WalletConnect's JSON-RPC
 * methods for solana and bip122). Their calls are routed by `calls.ts` (in sdk-calls.js);
 * their events come from the modal (`providerEvent`), so they are the same for every
 * connector.
 */
import type { EIP1193Provider } from '../types.js'
import type { Emitter } from './emitter.js'

const ICON =
  "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='-1 -1 2 2'><circle r='1' fill='%2336f'/></svg>"

/** rdns our own EIP-6963 announcement uses; discovery skips providers that carry it. */
export const PORTHOLE_RDNS = 'dev.porthole'

/**
 * The prefix of a namespace's provider events in the instance's emitter: none for eip155
 * (`porthole.on('accountsChanged')` is the EVM provider's), `solana:` for solana.
 *
 * @example
 * events.emit(eventPrefix(namespace) + event, data)
 */
export const eventPrefix = (namespace: string | undefined): string =>
  namespace && namespace !== 'eip155' ? `${namespace}:` : ''

/**
 * A provider whose `request` is `request` and whose events are the instance's under
 * `prefix` (see {@link eventPrefix}).
 *
 * @example
 * const provider = createProvider(events, '', async (args) => (await calls()).route('eip155', args))
 */
export function createProvider(
  events: Emitter,
  prefix: string,
  request: EIP1193Provider['request'],
): EIP1193Provider {
  const provider: EIP1193Provider = {
    request,
    on(event, listener) {
      events.on(prefix + event, listener)
      return provider
    },
    removeListener(event, listener) {
      events.off(prefix + event, listener)
      return provider
    },
  }
  return provider
}

/**
 * Announces an EVM provider with EIP-6963 (now and on every `eip6963:requestProvider`);
 * returns the cleanup.
 *
 * @example
 * const stop = announceProvider(provider)
 */
export function announceProvider(provider: EIP1193Provider): () => void {
  const info = { uuid: crypto.randomUUID(), name: 'Porthole', icon: ICON, rdns: PORTHOLE_RDNS }
  // The page's global scope is its window (`dispatchEvent` and the listeners are the window's).
  const announce = () =>
    dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: Object.freeze({ info, provider }),
      }),
    )
  addEventListener('eip6963:requestProvider', announce)
  announce()
  return () => removeEventListener('eip6963:requestProvider', announce)
}
