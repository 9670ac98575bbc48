import type { ResolvedConfig } from './types.js'

/** Configuration before the host's `hello` arrives. */
export const DEFAULT_CONFIG: ResolvedConfig = {
  projectId: '',
  metadata: { name: '' },
  networks: [],
  defaultNetwork: undefined,
  themeMode: 'dark',
  themeVariables: {},
  features: {
    allWallets: true,
    analytics: true,
    send: true,
    receive: true,
    history: true,
    email: true,
    socials: ['google', 'x', 'farcaster', 'discord', 'apple', 'github', 'facebook'],
    legalCheckbox: false,
    collapseWallets: false,
    connectMethodsOrder: ['email', 'social', 'wallet'],
  },
  featuredWalletIds: [],
  includeWalletIds: [],
  excludeWalletIds: [],
  customWallets: [],
  termsConditionsUrl: undefined,
  privacyPolicyUrl: undefined,
  enableNetworkSwitch: true,
  allowUnsupportedChain: false,
  debug: false,
  isMobile: false,
  siwx: null,
}
