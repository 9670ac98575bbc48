/**
 * Why the wallet frame did not load, asked only then (a failure path: its own small chunk).
 */
import { ALERTS } from '../rules/alerts.js'
import { runtime } from '../runtime.js'
import { getApiClient } from './client.js'

/**
 * `/projects/v1/frame-check?kind=wallet`: whether the wallet origin lets this modal frame its
 * wallet document on the host's site, asked when that frame did not load (`reason` 'Unverified
 * Domain' when it refuses them).
 *
 * @example
 * const { allowed, reason } = await walletFrameCheck()
 */
export async function walletFrameCheck(): Promise<{ allowed: boolean; reason?: string }> {
  return getApiClient().get('/projects/v1/frame-check', {
    kind: 'wallet',
    site: runtime.hostOrigin,
    frameOrigin: new URL(runtime.walletUrl).origin,
  })
}

/**
 * Whether the wallet origin refuses to be framed by this modal on the host's site (the API's
 * wallet frame check); false when that cannot be told (the API is unreachable too).
 *
 * @example
 * if (await refusesThisSite()) raiseAlert(ALERTS.unverifiedDomain)
 */
export async function refusesThisSite(): Promise<boolean> {
  // A failed check leaves the load failure's own alert: nothing is lost.
  const check = await walletFrameCheck().catch(() => undefined)
  return check?.allowed === false && check.reason === ALERTS.unverifiedDomain.message
}
