/**
 * Turns the host's `hello` into the modal's configuration: validated, defaults applied,
 * networks resolved (spec §3 "Configuration options", §9 defaults).
 */
import { type HelloMessage, Metadata, ModalConfig } from '@porthole/protocol'
import { resolveNetworks } from '@porthole/shared'
import { DEFAULT_CONFIG } from '../store/defaults.js'
import { store } from '../store/store.js'
import type { ResolvedConfig } from '../store/types.js'

const THEME_VARIABLE = /^--(?:ph|w3m)-[a-z0-9-]{1,48}$/

/** Detects a phone-sized touch screen (the frame fills the host's viewport). */
export function detectMobile(): boolean {
  return (
    typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches && innerWidth < 768
  )
}

/**
 * Resolves a `hello` into configuration; problems are returned as warnings, never thrown.
 *
 * @example
 * const { config, warnings } = resolveConfig(hello)
 */
export function resolveConfig(
  hello: HelloMessage,
  isMobile = detectMobile(),
): {
  config: ResolvedConfig
  warnings: string[]
} {
  const warnings: string[] = []
  const parsed = ModalConfig.safeParse(hello.config ?? { networks: [] })
  if (!parsed.success)
    warnings.push(`Invalid configuration ignored: ${parsed.error.issues[0]?.message}`)
  const options = parsed.success ? parsed.data : { networks: [] }
  const metadata = Metadata.safeParse(hello.metadata)
  const { networks, unknown } = resolveNetworks(
    options.networks.length ? options.networks : ['eip155:1'],
  )
  if (unknown.length) warnings.push(`Unknown networks ignored: ${unknown.join(', ')}`)
  const features = options.features ?? {}
  const themeVariables: Record<string, string | number> = {}
  for (const [key, value] of Object.entries(options.themeVariables ?? {}))
    if (THEME_VARIABLE.test(key)) themeVariables[key.replace(/^--w3m-/, '--ph-')] = value
  const config: ResolvedConfig = {
    ...DEFAULT_CONFIG,
    projectId: hello.projectId,
    metadata: metadata.success ? metadata.data : { name: '' },
    networks,
    defaultNetwork: networks.find((n) => n.caipNetworkId === options.defaultNetwork) ?? networks[0],
    themeMode: options.themeMode ?? 'dark',
    themeVariables,
    features: {
      ...DEFAULT_CONFIG.features,
      ...(features.allWallets === undefined ? {} : { allWallets: features.allWallets }),
      ...(features.analytics === undefined ? {} : { analytics: features.analytics }),
      ...(features.send === undefined ? {} : { send: features.send }),
      ...(features.history === undefined ? {} : { history: features.history }),
      ...(features.legalCheckbox === undefined ? {} : { legalCheckbox: features.legalCheckbox }),
      ...(features.collapseWallets === undefined
        ? {}
        : { collapseWallets: features.collapseWallets }),
      ...(features.connectMethodsOrder
        ? { connectMethodsOrder: features.connectMethodsOrder }
        : {}),
    },
    featuredWalletIds: options.featuredWalletIds ?? [],
    includeWalletIds: options.includeWalletIds ?? [],
    excludeWalletIds: options.excludeWalletIds ?? [],
    termsConditionsUrl: options.termsConditionsUrl,
    privacyPolicyUrl: options.privacyPolicyUrl,
    enableNetworkSwitch: options.enableNetworkSwitch ?? true,
    allowUnsupportedChain: options.allowUnsupportedChain ?? false,
    debug: options.debug ?? false,
    isMobile,
  }
  return { config, warnings }
}

/**
 * Applies a `hello`: configuration, and the active network (the persisted one when it is
 * still configured, else the default).
 *
 * @example
 * applyHello(hello)
 */
export function applyHello(hello: HelloMessage): ResolvedConfig {
  const { config, warnings } = resolveConfig(hello)
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
