/**
 * The modal's one analytics client (spec §7): started at the handshake with the dapp's
 * `features.analytics`; a 403 shows 'Invalid App Configuration' once (spec §8). Events and
 * error reports never throw into the caller. Nothing leaves the browser before the modal first
 * opens: a page visit alone (a restored connection, the dapp's own calls) sends no telemetry,
 * not even the analytics configuration request.
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
/** Whether the modal was opened in this page (events before that are dropped, not queued). */
let opened = false
store.subscribe((state) => {
  if (state.open) opened = true
})

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
  if (!opened) return
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
  if (!opened) return
  void client?.reportError(error, options)
}
