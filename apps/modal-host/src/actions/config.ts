/**
 * Turns the host's `hello` into the modal's configuration: validated, defaults applied,
 * networks resolved (spec §3 "Configuration options", §9 defaults).
 */
import {
  Checks,
  type HelloMessage,
  LOCALES,
  type OpenParams,
  type RemoteFeatures,
} from '@porthole/protocol'
import { resolveNetworks } from '@porthole/shared'
import { matchLocale } from '../i18n/locales.js'
import { checkAccountTypes, evmAccountType } from '../rules/accountTypes.js'
import { readOptions } from '../rules/configOptions.js'
import { fromCustomWallet } from '../rules/customWallets.js'
import { mergeFeatures } from '../rules/features.js'
import { siwxOption } from '../rules/siwxOption.js'
import { DEFAULT_SOCIALS } from '../rules/socials.js'
import { DEFAULT_CONFIG } from '../store/defaults.js'
import { store } from '../store/store.js'
import type { ResolvedConfig } from '../store/types.js'
import { currentRemoteFeatures } from './remoteFeatures.js'

const THEME_VARIABLE = /^--(?:ph|w3m)-[a-z0-9-]{1,48}$/

/** Detects a phone-sized touch screen (the frame fills the host's viewport). */
export function detectMobile(): boolean {
  return (
    typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches && innerWidth < 768
  )
}

/**
 * The open the SDK carried in the hello (`config.opening`: `open()` called before the handshake),
 * checked; `undefined` when there is none or it is malformed.
 *
 * @example
 * helloOpening({ config: { opening: { view: 'Networks' } } }) // { view: 'Networks' }
 */
export function helloOpening(hello: Pick<HelloMessage, 'config'>): OpenParams | undefined {
  const opening = (hello.config as { opening?: unknown } | undefined)?.opening
  const parsed = Checks.OpenParams.safeParse(opening)
  return opening !== undefined && parsed.success ? parsed.data : undefined
}

/**
 * Resolves a `hello` into configuration, merged with the project's remote features (`remote`;
 * null: the spec's defaults). Problems are returned, never thrown: `errors` name each option
 * refused (unknown, invalid, or not available yet), `warnings` the rest. The language is the
 * `locale` option's, else the best match of the browser's preferred `languages`, else English.
 *
 * @example
 * const { config, errors, warnings } = resolveConfig(hello, false, remote)
 */
export function resolveConfig(
  hello: HelloMessage,
  isMobile = detectMobile(),
  remote: RemoteFeatures | null = null,
  languages: readonly string[] = globalThis.navigator?.languages ?? [],
): {
  config: ResolvedConfig
  errors: string[]
  warnings: string[]
} {
  const warnings: string[] = []
  const { options, errors } = readOptions(hello.config ?? { networks: [] })
  const metadata = Checks.Metadata.safeParse(hello.metadata)
  const { networks, unknown } = resolveNetworks(
    options.networks.length ? options.networks : ['eip155:1'],
  )
  if (unknown.length) warnings.push(`Unknown networks ignored: ${unknown.join(', ')}`)
  const merged = mergeFeatures({
    features: options.features ?? {},
    remoteFeatures: options.remoteFeatures ?? {},
    remote,
    defaults: DEFAULT_CONFIG.features,
    offeredSocials: DEFAULT_SOCIALS,
    hasLegalLinks: !!(options.termsConditionsUrl || options.privacyPolicyUrl),
  })
  errors.push(...merged.errors, ...checkAccountTypes(options.defaultAccountTypes))
  warnings.push(...merged.warnings)
  const themeVariables: Record<string, string | number> = {}
  for (const [key, value] of Object.entries(options.themeVariables ?? {}))
    if (THEME_VARIABLE.test(key)) themeVariables[key.replace(/^--w3m-/, '--ph-')] = value
    else
      errors.push(`Option "themeVariables": "${key}" is not a --ph-* or --w3m-* variable; ignored`)
  const locale = options.locale === undefined ? undefined : matchLocale([options.locale])
  if (options.locale !== undefined && !locale)
    errors.push(
      `Invalid option "locale" ignored: "${options.locale}" is not one of ${LOCALES.join(', ')}`,
    )
  const config: ResolvedConfig = {
    ...DEFAULT_CONFIG,
    projectId: hello.projectId,
    metadata: metadata.success ? metadata.data : { name: '' },
    networks,
    defaultNetwork: networks.find((n) => n.caipNetworkId === options.defaultNetwork) ?? networks[0],
    themeMode: options.themeMode ?? 'dark',
    themeVariables,
    features: merged.features,
    evmAccountType: evmAccountType(options.defaultAccountTypes),
    featuredWalletIds: options.featuredWalletIds ?? [],
    includeWalletIds: options.includeWalletIds ?? [],
    excludeWalletIds: options.excludeWalletIds ?? [],
    customWallets: (options.customWallets ?? []).map(fromCustomWallet),
    termsConditionsUrl: options.termsConditionsUrl,
    privacyPolicyUrl: options.privacyPolicyUrl,
    enableNetworkSwitch: options.enableNetworkSwitch ?? true,
    allowUnsupportedChain: options.allowUnsupportedChain ?? false,
    enableReconnect: options.enableReconnect ?? true,
    debug: options.debug ?? false,
    isMobile,
    siwx: siwxOption(options.siwx),
    locale: locale ?? matchLocale(languages) ?? 'en',
  }
  return { config, errors, warnings }
}

/**
 * Applies a `hello`: configuration, and the active network (the persisted one when it is
 * still configured, else the default).
 *
 * @example
 * applyHello(hello)
 */
export function applyHello(hello: HelloMessage): ResolvedConfig {
  const { config, errors, warnings } = resolveConfig(hello, detectMobile(), currentRemoteFeatures())
  for (const error of errors) console.error(`[porthole] ${error}`)
  for (const warning of warnings) console.warn(`[porthole] ${warning}`)
  // Hydrated from the persisted slice before this runs.
  const persisted = store.getState().activeNetworkId
  const active =
    config.networks.find((n) => n.caipNetworkId === persisted) ?? config.defaultNetwork ?? null
  store.setState({
    config,
    activeNetworkId: active?.caipNetworkId ?? null,
    ...(active ? { activeNamespace: active.chainNamespace } : {}),
  })
  return config
}
