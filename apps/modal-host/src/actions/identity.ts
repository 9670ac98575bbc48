/**
 * The connected account's name and avatar from the data service (`/v1/identity`), cached
 * 5 minutes per address (spec §9 "ens and identity cache: 5 min"). Failures are quiet: the
 * Account view shows the address.
 */
import type { IdentityResponse } from '@porthole/shared'
import { readCache, writeCache } from '../rules/caches.js'
import { store } from '../store/store.js'

/** The clock, replaceable in tests. */
export const clock = { now: () => Date.now() }

const pending = new Map<string, Promise<void>>()

/**
 * Looks the connected address up unless a fresh answer is cached.
 *
 * @example
 * await refreshIdentity()
 */
export function refreshIdentity(): Promise<void> {
  const { address } = store.getState().connection
  if (!address) return Promise.resolve()
  const key = address.toLowerCase()
  if (readCache({ cache: store.getState().identities, key, kind: 'identity', now: clock.now() }))
    return Promise.resolve()
  const running = pending.get(key)
  if (running) return running
  // The data service's client (and its schemas) loads on the first lookup.
  const done = import('../api/blockchain.js')
    .then(({ getIdentity }) => getIdentity(address, { sender: address }))
    .then((value) => {
      store.setState((s) => ({
        identities: writeCache({
          cache: s.identities,
          key,
          value,
          kind: 'identity',
          now: clock.now(),
        }),
      }))
    })
    .catch(() => {})
    .finally(() => pending.delete(key))
  pending.set(key, done)
  return done
}

/**
 * The cached identity of an address (fresh or not), or undefined.
 *
 * @example
 * const name = identityOf(state, address)?.name
 */
export function identityOf(
  state: ReturnType<typeof store.getState>,
  address: string | null,
): IdentityResponse | undefined {
  return address ? state.identities[address.toLowerCase()]?.value : undefined
}
