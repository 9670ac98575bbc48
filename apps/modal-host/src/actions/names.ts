/**
 * Names (spec §4 "Name registration", §7 `/v1/profile/*`): suggestions while the user types,
 * registration with the embedded wallet's signature, and names typed as a Send receiver.
 *
 * Registration: loading on, the message `{ name, attributes: {}, timestamp }` built, signed by
 * the embedded wallet (`personal_sign`, approved on the wallet frame's own card), sent to the
 * registry, the name stored as the account's profile name, then RegisterAccountNameSuccess. Any
 * error returns to RegisterAccountName with the registry's reason, else 'Error registering name
 * {name}' (spec §8). Loading stays on until the registry has answered, so the form cannot be
 * sent twice.
 */
import { BaseError } from '@porthole/protocol'
import {
  evmCoinType,
  type NameAccount,
  type NameSuggestionsResponse,
  nameAddress,
  nameMessage,
} from '@porthole/shared'
import { toHex } from 'viem'
import * as Api from '../api/names.js'
import { tn } from '../i18n/names.js'
import { writeCache } from '../rules/caches.js'
import { canRegisterName, evmChainIdOf } from '../rules/nameRegistration.js'
import { store } from '../store/store.js'
import type { Screen } from '../store/types.js'
import { connectorRequest } from './connection.js'

/** The clock, replaceable in tests. */
export const clock = { now: () => Date.now() }

/**
 * The registry's suggestions for a label: the name with its suffix and whether it is taken
 * first, then free alternatives. Throws with the registry's reason, else 'Error fetching name
 * suggestions'.
 *
 * @example
 * const [asked, ...others] = await suggestNames('alice')
 */
export async function suggestNames(label: string): Promise<NameSuggestionsResponse['suggestions']> {
  try {
    return (await Api.getNameSuggestions(label)).suggestions
  } catch (cause) {
    throw new BaseError(Api.nameApiReason(cause) ?? tn('errorFetchingNameSuggestions'), { cause })
  }
}

/**
 * Registers `name` (with its suffix) for the connected embedded account, as described above.
 * Throws 'Address or auth connector not found' when the account is not an embedded one.
 *
 * @example
 * await registerAccountName('alice.porthole.id')
 */
export async function registerAccountName(name: string): Promise<void> {
  const { authUser, connection } = store.getState()
  const chainId = evmChainIdOf(connection.caipNetworkId)
  const address = connection.address
  if (
    !canRegisterName({ authUser, address, caipNetworkId: connection.caipNetworkId }) ||
    chainId === null ||
    !address
  )
    throw new BaseError('Address or auth connector not found')
  const coinType = evmCoinType(chainId)
  store.setState({ loading: true })
  // The view comes back after the wallet's card with the name being registered.
  navigateFromRegistration({ view: 'RegisterAccountName', name })
  try {
    const message = nameMessage({ name, timestamp: Math.floor(clock.now() / 1000) })
    const signature = await connectorRequest('personal_sign', [toHex(message), address], 'eip155')
    if (typeof signature !== 'string') throw new BaseError('Error signing message')
    await Api.postNameRegistration({ coin_type: coinType, address, message, signature })
    storeProfileName(address, name)
    navigateFromRegistration({ view: 'RegisterAccountNameSuccess', name })
  } catch (cause) {
    const message = Api.nameApiReason(cause) ?? tn('errorRegisteringName', { name })
    navigateFromRegistration({ view: 'RegisterAccountName', name, error: message })
    throw new BaseError(message, { cause })
  } finally {
    store.setState({ loading: false })
  }
}

/** The account's profile name, as `/v1/identity` will answer it from now on. */
function storeProfileName(address: string, name: string): void {
  store.setState((s) => ({
    identities: writeCache({
      cache: s.identities,
      key: address.toLowerCase(),
      value: { name, avatar: s.identities[address.toLowerCase()]?.value.avatar ?? null },
      kind: 'identity',
      now: clock.now(),
    }),
  }))
}

/**
 * Replaces RegisterAccountName, and whatever the signing put over it (ApproveTransaction), with
 * `screen`. Nothing moves when the user has left the view meanwhile.
 */
function navigateFromRegistration(screen: Screen): void {
  const { history } = store.getState()
  const at = history.findLastIndex((s) => s.view === 'RegisterAccountName')
  if (at < 0) return
  store.setState({ history: [...history.slice(0, at), screen] })
}

/** Names looked up for Send, by lower-cased name: the last answer, for the preview's avatar. */
const resolved = new Map<string, NameAccount>()

/**
 * The address a name gives on the active EVM network (its own coin type, else the default EVM
 * one), or null when no account has the name or it has no address there. Other failures throw
 * (Send then says 'Error resolving name').
 *
 * @example
 * await resolveNameAddress('alice.porthole.id') // '0x…'
 */
export async function resolveNameAddress(name: string): Promise<string | null> {
  const chainId = evmChainIdOf(store.getState().connection.caipNetworkId)
  if (chainId === null) return null
  const account = await Api.getNameAccount(name)
  if (!account) return null
  resolved.set(name.toLowerCase(), account)
  return nameAddress(account, chainId)
}

/**
 * The registry's record of a name resolved for Send (its full name and attributes), if any.
 *
 * @example
 * resolvedProfile('alice')?.name // 'alice.porthole.id'
 */
export function resolvedProfile(name: string): NameAccount | undefined {
  return resolved.get(name.toLowerCase())
}
