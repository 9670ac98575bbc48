/**
 * Cache-Control per file class.
 */
import { isVersionedSdkPath, SDK_PATH } from './sdkFiles.ts'

/** Vite's `name-[hash].ext` (hash: 8+ base64url characters, not all lower-case letters). */
const HASHED = /-([A-Za-z0-9_-]{8,})\.[A-Za-z0-9]+(?:\.map)?$/

/**
 * True for a file under `/assets/` whose name carries a content hash.
 *
 * @example
 * isHashedAsset('/assets/index-BXk2c8Ab.js') // true
 */
export function isHashedAsset(urlPath: string): boolean {
  if (!urlPath.startsWith('/assets/')) return false
  const hash = HASHED.exec(urlPath.slice(urlPath.lastIndexOf('/') + 1))?.[1]
  return hash !== undefined && /[A-Z0-9_]/.test(hash)
}

/**
 * The Cache-Control of a response: HTML is revalidated every time, hashed assets and
 * `/sdk/<version>/sdk.js` (and its `sdk-chains.js`, `sdk-calls.js`) are immutable, `/sdk.js` is short-lived so hosts get fixes quickly,
 * the rest lives an hour.
 *
 * @example
 * cacheControl('/sdk.js', 'application/javascript') // 'public, max-age=300'
 * cacheControl('/sdk/0.1.0/sdk.js', 'application/javascript') // 'public, max-age=31536000, immutable'
 */
export function cacheControl(urlPath: string, contentType: string): string {
  if (contentType.startsWith('text/html')) return 'no-cache'
  if (urlPath === SDK_PATH) return 'public, max-age=300'
  if (isHashedAsset(urlPath) || isVersionedSdkPath(urlPath))
    return 'public, max-age=31536000, immutable'
  return 'public, max-age=3600'
}
