/**
 * Raising and dismissing the spec's alerts (§8). A fatal alert is never replaced by an
 * informative one, and an informative one goes away when the user dismisses it or, for
 * 'Session Expired' and an unconfirmed sign-out, once an account is connected again.
 */
import { ALERTS } from '../rules/alerts.js'
import { store } from '../store/store.js'
import type { Alert } from '../store/types.js'

/**
 * Shows `alert` unless a fatal one is already shown.
 *
 * @example
 * raiseAlert(ALERTS.networkNotFound)
 */
export function raiseAlert(alert: Alert): void {
  if (store.getState().alert?.fatal) return
  store.setState({ alert: { ...alert } })
}

/**
 * Hides the alert on screen unless it is fatal.
 *
 * @example
 * dismissAlert()
 */
export function dismissAlert(): void {
  if (store.getState().alert?.fatal) return
  store.setState({ alert: null })
}

let watching = false

/**
 * Clears 'Session Expired' once the user is connected again (started once, at handshake).
 *
 * @example
 * watchAlerts()
 */
export function watchAlerts(): void {
  if (watching) return
  watching = true
  store.subscribe((next, previous) => {
    // Connected again: an expired session is behind; so is a sign-out owed to an earlier
    // session (retrying it now would end the new one).
    if (
      next.connection.status === 'connected' &&
      previous.connection.status !== 'connected' &&
      (next.alert?.message === ALERTS.sessionExpired.message ||
        next.alert?.action === 'retrySignOut')
    )
      store.setState({ alert: null })
  })
}
