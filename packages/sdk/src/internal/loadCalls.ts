/**
 * Loads where calls run (`src/calls.ts`) once per page, for sdk-chains.js. In the script-tag
 * build it is a third file, `sdk-calls.js` beside sdk-chains.js (same release path), pinned
 * with Subresource Integrity: the build bakes its SHA-256 into sdk-chains.js, whose own hash is
 * in sdk.js, so a host page that pins sdk.js pins all three. Elsewhere (the npm entry, tests)
 * it is a dynamic import.
 */
import { InternalRpcError } from '@porthole/protocol/lite'

type Calls = typeof import('../calls.js')

/** Set by the script-tag build of sdk-chains.js (vite.config.ts); absent elsewhere. */
declare const __PORTHOLE_CALLS_SRI__: string | undefined

/** Where sdk-chains.js was loaded from (read while it runs: sdk-calls.js sits beside it). */
const chainsUrl =
  typeof __PORTHOLE_CALLS_SRI__ === 'string'
    ? (document.currentScript as HTMLScriptElement | null)?.src
    : undefined

/**
 * Loads the calls module (a second call is a cache hit in the browser).
 *
 * @example
 * const { createCalls } = await loadCalls()
 */
export function loadCalls(): Promise<Calls> {
  return typeof __PORTHOLE_CALLS_SRI__ === 'string'
    ? new Promise((resolve, reject) => {
        const script = document.createElement('script')
        script.src = new URL('sdk-calls.js', chainsUrl ?? location.href).href
        script.integrity = __PORTHOLE_CALLS_SRI__
        script.crossOrigin = '' // 'anonymous': a CORS request, for integrity
        script.onload = () => resolve((window as unknown as { PortholeCalls: Calls }).PortholeCalls)
        script.onerror = () => reject(new InternalRpcError('Could not load sdk-calls.js'))
        document.head.append(script)
      })
    : import('../calls.js')
}
