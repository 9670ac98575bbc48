/**
 * Loads the wallet-discovery part of the SDK (`src/chains.ts`) once per page. In `sdk.js`
 * (the script tag) it is a second file, `/sdk/<version>/sdk-chains.js` on the origin sdk.js
 * came from, pinned with Subresource Integrity: the build bakes its SHA-256 into sdk.js, so a
 * host page that pins sdk.js pins both. Elsewhere (the npm entry, tests) it is a dynamic import.
 */
import { InternalRpcError } from '@porthole/protocol/lite'

type Chains = typeof import('../chains.js')

/** Set by the script-tag build (vite.config.ts); absent elsewhere. */
declare const __PORTHOLE_CHAINS_SRI__: string | undefined
declare const __PORTHOLE_SDK_VERSION__: string

/**
 * Loads the chains module relative to `base`, the URL sdk.js was loaded from (each instance
 * once; a second instance's load is a cache hit).
 *
 * @example
 * const { createCalls } = await loadChains(scriptUrl)
 */
export function loadChains(base: string | URL): Promise<Chains> {
  return typeof __PORTHOLE_CHAINS_SRI__ === 'string'
    ? new Promise((resolve, reject) => {
        const script = document.createElement('script')
        script.src = new URL(`/sdk/${__PORTHOLE_SDK_VERSION__}/sdk-chains.js`, base).href
        script.integrity = __PORTHOLE_CHAINS_SRI__
        script.crossOrigin = '' // the empty value is 'anonymous' (a CORS request, for integrity)
        script.onload = () =>
          resolve((window as unknown as { PortholeChains: Chains }).PortholeChains)
        script.onerror = () => reject(new InternalRpcError('Could not load sdk-chains.js'))
        document.head.append(script)
      })
    : import('../chains.js')
}
