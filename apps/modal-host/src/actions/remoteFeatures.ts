/**
 * The project's remote features (`GET /appkit/v1/config`, spec §7), read once per handshake
 * beside the allowlist, before the first view is prepared: a switch the operator turned off with
 * the admin CLI is gone from the next page load, without a change on the host.
 */
import type { RemoteFeatures } from '@porthole/protocol'
import { getRemoteFeatures } from '../api/client.js'

let loaded: RemoteFeatures | null = null

/**
 * Reads the remote features; on failure the spec's defaults apply (a warning says so).
 * Never rejects.
 *
 * @example
 * await loadRemoteFeatures()
 */
export async function loadRemoteFeatures(): Promise<RemoteFeatures | null> {
  try {
    loaded = await getRemoteFeatures()
  } catch (error) {
    loaded = null
    console.warn(
      `[porthole] The project's remote features could not be read (${(error as Error).message}); the defaults apply`,
    )
  }
  return loaded
}

/**
 * The remote features last read, or null (not read, or the read failed).
 *
 * @example
 * const remote = currentRemoteFeatures()
 */
export function currentRemoteFeatures(): RemoteFeatures | null {
  return loaded
}
