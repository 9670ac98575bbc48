/**
 * The feature switches the modal runs with: the host's `features` and `remoteFeatures` options
 * merged with the project's remote features (`GET /appkit/v1/config`, spec §3, §7, §9).
 *
 * The project's remote features are the operator's switches and the host's options can only
 * narrow them: a feature is on when the project allows it and the host did not turn it off.
 * A list (socials) keeps the host's order, less what the project left out. `multiWallet` (spec §9
 * default off) lets several wallets share a namespace (rules/multiWallet.ts). A project changes its
 * switches with the admin CLI (`npm run admin -- project feature …`); hosts need no change.
 */
import type { Features, RemoteFeatures } from '@porthole/protocol'
import type { ResolvedConfig } from '../store/types.js'
import { connectorTypeOrder } from './walletLists.js'

/** The resolved feature switches. */
export type ResolvedFeatures = ResolvedConfig['features']

/** Spec §9 "Remote features": what `/appkit/v1/config` answers for a project that changed none. */
export const DEFAULT_REMOTE_FEATURES: Required<RemoteFeatures> = {
  swaps: ['1inch'],
  onramp: ['meld'],
  email: true,
  socials: ['google', 'x', 'discord', 'farcaster', 'github', 'apple', 'facebook'],
  activity: true,
  multiWallet: false,
}

/** Parameters of {@link mergeFeatures}. */
export type MergeFeaturesParameters = {
  /** The host's `features` option (validated). */
  features: Features
  /** The host's `remoteFeatures` option (validated). */
  remoteFeatures: RemoteFeatures
  /** The project's remote features from the API; `null` when they could not be read. */
  remote: RemoteFeatures | null
  /** The modal's defaults (e-mail and social list in the default order, …). */
  defaults: ResolvedFeatures
  /** Social providers the modal can offer. */
  offeredSocials: readonly string[]
  /** Whether the host gave a terms or privacy URL (the legal checkbox links to them). */
  hasLegalLinks: boolean
}

/** What {@link mergeFeatures} returns. */
export type MergeFeaturesReturnType = {
  features: ResolvedFeatures
  /** Options refused (console errors): each names the option. */
  errors: string[]
  /** Options the project's remote features overrule (console warnings). */
  warnings: string[]
}

/**
 * Merges the host's options with the project's remote features; refusals name the option.
 *
 * @example
 * mergeFeatures({ features: { email: false }, remoteFeatures: {}, remote: { socials: ['google'] }, defaults, offeredSocials, hasLegalLinks: false }).features
 * // { email: false, socials: ['google'], … }
 */
export function mergeFeatures(parameters: MergeFeaturesParameters): MergeFeaturesReturnType {
  const { features, remoteFeatures, defaults } = parameters
  const remote = { ...DEFAULT_REMOTE_FEATURES, ...(parameters.remote ?? {}) }
  const errors: string[] = []
  const warnings: string[] = []

  // Swaps and on-ramp: on when the project names a provider and the host did not turn them off.
  const providersOf = (name: 'swaps' | 'onramp'): string[] => {
    const local = remoteFeatures[name]
    if (features[name] === false || local === false) return []
    let list = Array.isArray(remote[name]) ? remote[name] : []
    if (Array.isArray(local)) {
      const dropped = local.filter((p) => !list.includes(p))
      if (dropped.length)
        warnings.push(
          `Option "remoteFeatures.${name}": ${dropped.join(', ')} turned off by the project (remote features)`,
        )
      list = list.filter((p) => local.includes(p))
    }
    if (features[name] === true && !list.length) overruled(`features.${name}`, name)
    return list
  }
  // A switch the host turned on explicitly but the project turned off is worth a warning.
  const overruled = (option: string, what: string) =>
    warnings.push(`Option "${option}" is on, but the project turned ${what} off (remote features)`)

  const swapProviders = providersOf('swaps')
  const onrampProviders = providersOf('onramp')

  // Spec §5: the pay feature forces e-mail and social login off.
  const pay = features.pay === true
  if (
    pay &&
    (features.email === true || (Array.isArray(features.socials) && features.socials.length))
  )
    warnings.push('Option "features.pay" turns e-mail and social login off (spec §5)')

  const hostEmail = features.email ?? remoteFeatures.email
  const hostEmailOff = features.email === false || remoteFeatures.email === false
  const email = !pay && !hostEmailOff && (hostEmail ?? defaults.email) && remote.email === true
  if (hostEmail === true && !hostEmailOff && !remote.email)
    overruled(features.email === true ? 'features.email' : 'remoteFeatures.email', 'e-mail login')

  const socials = pay ? false : mergeSocials(parameters, remote.socials, errors, warnings)

  const hostHistory = features.history ?? remoteFeatures.activity
  const historyOff = features.history === false || remoteFeatures.activity === false
  const history = !historyOff && (hostHistory ?? defaults.history) && remote.activity === true
  if (hostHistory === true && !historyOff && !remote.activity)
    overruled(
      features.history === true ? 'features.history' : 'remoteFeatures.activity',
      'activity',
    )

  // Several wallets in one namespace: only when the project turned it on (spec §9 default off).
  const multiWallet = remote.multiWallet === true && remoteFeatures.multiWallet !== false
  if (remoteFeatures.multiWallet === true && !remote.multiWallet)
    overruled('remoteFeatures.multiWallet', 'multi-wallet')

  let legalCheckbox = features.legalCheckbox ?? defaults.legalCheckbox
  if (legalCheckbox && !parameters.hasLegalLinks) {
    errors.push(
      'Option "features.legalCheckbox" needs termsConditionsUrl or privacyPolicyUrl (the checkbox links to them); ignored',
    )
    legalCheckbox = false
  }

  return {
    features: {
      ...defaults,
      ...(features.allWallets === undefined ? {} : { allWallets: features.allWallets }),
      ...(features.analytics === undefined ? {} : { analytics: features.analytics }),
      ...(features.send === undefined ? {} : { send: features.send }),
      ...(features.receive === undefined ? {} : { receive: features.receive }),
      ...(features.collapseWallets === undefined
        ? {}
        : { collapseWallets: features.collapseWallets }),
      ...(features.smartSessions === undefined ? {} : { smartSessions: features.smartSessions }),
      ...(features.connectMethodsOrder
        ? { connectMethodsOrder: features.connectMethodsOrder }
        : {}),
      ...(features.connectorTypeOrder
        ? { connectorTypeOrder: connectorTypeOrder(features.connectorTypeOrder) }
        : {}),
      email,
      socials,
      history,
      swaps: swapProviders.length > 0,
      onramp: onrampProviders.length > 0,
      onrampProviders,
      legalCheckbox,
      multiWallet,
    },
    errors,
    warnings,
  }
}

function mergeSocials(
  parameters: MergeFeaturesParameters,
  remote: RemoteFeatures['socials'],
  errors: string[],
  warnings: string[],
): string[] | false {
  const { features, remoteFeatures, defaults, offeredSocials } = parameters
  const options: [string, string[] | false | undefined][] = [
    ['features.socials', features.socials],
    ['remoteFeatures.socials', remoteFeatures.socials],
  ]
  const given = options.filter(
    (entry): entry is [string, string[] | false] => entry[1] !== undefined,
  )
  if (given.some(([, list]) => list === false)) return false
  const lists = given as [string, string[]][]
  for (const [name, list] of lists) {
    const unknown = list.filter((s) => !offeredSocials.includes(s))
    if (unknown.length)
      errors.push(
        `Option "${name}": ${unknown.map((s) => `"${s}"`).join(', ')} not offered (Porthole offers ${offeredSocials.join(', ')}); ignored`,
      )
  }
  // The first list given keeps its order; a second one narrows it.
  let wanted = lists[0] ? lists[0][1].filter((s) => offeredSocials.includes(s)) : defaults.socials
  if (wanted === false) return false
  for (const [, list] of lists.slice(1)) wanted = wanted.filter((s) => list.includes(s))
  const option = lists[0]?.[0]
  if (remote === false || remote === undefined) {
    if (option && wanted.length)
      warnings.push(
        `Option "${option}" is set, but the project turned social login off (remote features)`,
      )
    return false
  }
  const allowed = wanted.filter((s) => remote.includes(s))
  const dropped = wanted.filter((s) => !remote.includes(s))
  if (option && dropped.length)
    warnings.push(
      `Option "${option}": ${dropped.join(', ')} turned off by the project (remote features)`,
    )
  return allowed.length ? allowed : false
}
