/**
 * The modal's one analytics client (spec §7): started at the handshake with the dapp's
 * `features.analytics`; a 403 shows 'Invalid App Configuration' once (spec §8). Events and
 * error reports never throw into the caller.
 */
import {
  type Analytics,
  type AnalyticsEventName,
  type AnalyticsEventProperties,
  createAnalytics,
  type ReportErrorOptions,
} from '../analytics/createAnalytics.js'
import { t } from '../i18n/en.js'
import { runtime } from '../runtime.js'
import { store } from '../store/store.js'
import * as Modal from './modal.js'

let client: Analytics | undefined

/**
 * Starts the client for this page (after the handshake, when the configuration is known).
 *
 * @example
 * startAnalytics()
 */
export function startAnalytics(): void {
  const { config } = store.getState()
  if (!config.projectId) return
  client = createAnalytics({
    apiUrl: runtime.apiUrl,
    projectId: config.projectId,
    url: runtime.hostOrigin,
    enabled: config.features.analytics,
    onInvalidConfig: () => Modal.showToast(t('invalidAppConfiguration'), 'error'),
  })
}

/**
 * Tracks an event (SEND_INITIATED, SEND_SUCCESS, SWITCH_NETWORK, …) for the connected address.
 *
 * @example
 * track('SWITCH_NETWORK', { network: 'eip155:8453' })
 */
export function track<name extends AnalyticsEventName>(
  event: name,
  properties: AnalyticsEventProperties[name],
): void {
  const address = store.getState().connection.address ?? undefined
  void client?.sendEvent(event, properties, { address })
}

/**
 * Reports an error, wrapped with its category; at most 5 per 60 s reach the API.
 *
 * @example
 * reportError(error, { category: 'API_ERROR' })
 */
export function reportError(error: unknown, options?: ReportErrorOptions): void {
  void client?.reportError(error, options)
}
