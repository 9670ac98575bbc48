/**
 * The spec's alert catalogue (§8 "Alerts") as the modal raises it, and which failures raise
 * which alert. A fatal alert stops the modal (the host's calls reject with it); the others
 * inform and can be dismissed.
 */
import type { Alert } from '../store/types.js'

/** The alerts by name; `message` is the spec's string. */
export const ALERTS = {
  networkNotFound: { code: 4902, message: 'Network Not Found', fatal: false },
  unverifiedDomain: { code: 4100, message: 'Unverified Domain', fatal: false },
  sessionExpired: { code: 4900, message: 'Session Expired', fatal: false },
  embeddedWalletLoadFailed: {
    code: -32002,
    message: 'Network Error - Could not load embedded wallet',
    fatal: false,
  },
  embeddedWalletTimedOut: {
    code: -32002,
    message: 'Embedded Wallet Request Timed Out',
    fatal: false,
  },
  /**
   * Not the spec's: the embedded wallet's sign-out did not reach the API (issue 25 audit: it was
   * swallowed). Raised with the translated `signOutIncomplete` text and a Try again button.
   */
  signOutIncomplete: {
    code: -32603,
    message: 'Signed out on this device, but the sign-out did not reach the server',
    fatal: false,
    action: 'retrySignOut',
  },
} as const satisfies Record<string, Alert>

/**
 * The alert a failure of the embedded-wallet frame raises: a request that timed out →
 * 'Embedded Wallet Request Timed Out'; the wallet refusing this site (its handshake answers
 * 4100 Unauthorized) → 'Unverified Domain'; anything else none.
 *
 * @example
 * walletAlertFor({ code: 4100, message: 'Invalid Project ID' }) // ALERTS.unverifiedDomain
 */
export function walletAlertFor(error: unknown): Alert | undefined {
  const { code, data } = (error ?? {}) as { code?: unknown; data?: { timeout?: unknown } }
  if (data && typeof data === 'object' && data.timeout !== undefined)
    return ALERTS.embeddedWalletTimedOut
  if (code === 4100) return ALERTS.unverifiedDomain
  return undefined
}

/**
 * Connector kinds whose session lives beyond the page (a server session, a WalletConnect
 * session with an expiry): a saved one that no longer gives accounts after a reload expired.
 */
export const EXPIRING_SESSIONS: readonly string[] = ['AUTH', 'WALLET_CONNECT']

/**
 * Whether restoring a saved connection shows 'Session Expired' (spec §8): a session-backed
 * connector came back with no account.
 *
 * @example
 * sessionExpired('WALLET_CONNECT', 0) // true
 */
export function sessionExpired(connectorType: string, restoredAccounts: number): boolean {
  return restoredAccounts === 0 && EXPIRING_SESSIONS.includes(connectorType)
}

/**
 * Whether a WalletConnect session the wallet deleted ends with 'Session Expired' (spec §8): the
 * relay says the wallet published the delete before this page started, or it came while the
 * provider was still starting (before the modal listened: the relay's stored messages for the
 * restored session), so the session restored from storage had already ended while no page of the
 * dapp was open. A delete published since is the wallet disconnecting now: no alert.
 *
 * @example
 * endedWhileAway(Date.now() - 60_000, performance.timeOrigin) // true
 */
export function endedWhileAway(publishedAt: number | undefined, pageStart: number): boolean {
  return publishedAt === undefined || publishedAt < pageStart
}
