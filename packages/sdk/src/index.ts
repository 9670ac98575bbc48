/**
 * Porthole host SDK (npm entry). The script-tag build (`sdk.js`) sets `window.Porthole` and
 * `window.porthole` instead; see `script.ts`.
 *
 * @example
 * import { createPorthole } from '@porthole/sdk'
 * const porthole = createPorthole({ projectId: 'YOUR_PROJECT_ID', modalUrl: 'https://modal.example' })
 */
export { createPorthole } from './createPorthole.js'
export type {
  ConnectionInfo,
  ConnectOptions,
  ConnectResult,
  EIP1193Provider,
  ExternalConnector,
  HeadlessWallet,
  Locale,
  Porthole,
  PortholeOptions,
  PortholeState,
  ProviderNamespace,
  RequestArguments,
} from './types.js'
