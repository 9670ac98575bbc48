/**
 * Where the host SDK is served: `/sdk.js`, the latest build (five-minute cache, so hosts get
 * fixes quickly), and `/sdk/<version>/sdk.js`, one release that never changes (cached a year,
 * `immutable`), which host pages pin with Subresource Integrity. Beside each release,
 * `/sdk/<version>/sdk-chains.js`, the part sdk.js loads at start (injected-wallet discovery),
 * pinned by a hash inside sdk.js, and `/sdk/<version>/sdk-calls.js`, the part sdk-chains.js loads
 * on the first call or click (where calls run), pinned by a hash inside sdk-chains.js; both
 * sdk.js paths load their own version's.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** URL path of the latest SDK build. */
export const SDK_PATH = '/sdk.js'

/** File name of the SDK's part loaded at start, beside sdk.js in the build and on the server. */
export const SDK_CHAINS_FILE = 'sdk-chains.js'

/** File name of the SDK's part loaded on the first call or click, beside sdk-chains.js. */
export const SDK_CALLS_FILE = 'sdk-calls.js'

/** A release version: `1.2.3` or `1.2.3-rc.1` (no build metadata, nothing path-like). */
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?$/

/** The SDK's package.json in this repository. */
export const SDK_PACKAGE_JSON = fileURLToPath(
  new URL('../../../packages/sdk/package.json', import.meta.url),
)

/**
 * Thrown for an SDK version that cannot be a path segment of `/sdk/<version>/sdk.js`.
 *
 * @example
 * try { versionedSdkPath('../x') } catch (error) { error instanceof InvalidSdkVersionError } // true
 */
export class InvalidSdkVersionError extends Error {
  override name = 'InvalidSdkVersionError' as const
  constructor(version: string) {
    super(`Invalid SDK version: ${JSON.stringify(version)} (expected 1.2.3 or 1.2.3-rc.1)`)
  }
}

/**
 * The immutable URL path of one SDK release.
 *
 * @example
 * versionedSdkPath('0.1.0') // '/sdk/0.1.0/sdk.js'
 */
export function versionedSdkPath(version: string): string {
  if (!VERSION.test(version)) throw new InvalidSdkVersionError(version)
  return `/sdk/${version}/sdk.js`
}

/**
 * The immutable URL path of one release's lazily loaded part.
 *
 * @example
 * versionedSdkChainsPath('0.1.2') // '/sdk/0.1.2/sdk-chains.js'
 */
export function versionedSdkChainsPath(version: string): string {
  return versionedSdkPath(version).replace(/sdk\.js$/, SDK_CHAINS_FILE)
}

/**
 * The immutable URL path of one release's part loaded on the first call or click.
 *
 * @example
 * versionedSdkCallsPath('0.1.8') // '/sdk/0.1.8/sdk-calls.js'
 */
export function versionedSdkCallsPath(version: string): string {
  return versionedSdkPath(version).replace(/sdk\.js$/, SDK_CALLS_FILE)
}

/**
 * True for `/sdk/<version>/sdk.js`, `…/sdk-chains.js` and `…/sdk-calls.js` (immutable).
 *
 * @example
 * isVersionedSdkPath('/sdk/0.1.0/sdk.js') // true
 * isVersionedSdkPath('/sdk/0.1.0/sdk-chains.js') // true
 * isVersionedSdkPath('/sdk.js') // false
 */
export function isVersionedSdkPath(urlPath: string): boolean {
  const match = /^\/sdk\/([^/]+)\/sdk(?:-chains|-calls)?\.js$/.exec(urlPath)
  return match !== null && VERSION.test(match[1] as string)
}

/**
 * True for the SDK's paths (public code: any page may load them, with CORS).
 *
 * @example
 * isSdkPath('/sdk.js') // true
 */
export function isSdkPath(urlPath: string): boolean {
  return urlPath === SDK_PATH || isVersionedSdkPath(urlPath)
}

/** Options of {@link sdkFiles}. */
export type SdkFilesParameters = {
  /** The built `sdk.js` (its `sdk-chains.js` and `sdk-calls.js` beside it). */
  file: string
  /** Its release version; default the `version` of packages/sdk/package.json. */
  version?: string
}

/**
 * The `extraFiles` of a modal server that serves the SDK at both paths, and the release's
 * `sdk-chains.js` and `sdk-calls.js` (the files beside `file`).
 *
 * @example
 * sdkFiles({ file: 'packages/sdk/dist/sdk.js', version: '0.1.2' })
 * // { '/sdk.js': 'packages/sdk/dist/sdk.js', '/sdk/0.1.2/sdk.js': 'packages/sdk/dist/sdk.js',
 * //   '/sdk/0.1.2/sdk-chains.js': 'packages/sdk/dist/sdk-chains.js',
 * //   '/sdk/0.1.2/sdk-calls.js': 'packages/sdk/dist/sdk-calls.js' }
 */
export function sdkFiles(parameters: SdkFilesParameters): Record<string, string> {
  const { file, version = readSdkVersion() } = parameters
  return {
    [SDK_PATH]: file,
    [versionedSdkPath(version)]: file,
    [versionedSdkChainsPath(version)]: join(dirname(file), SDK_CHAINS_FILE),
    [versionedSdkCallsPath(version)]: join(dirname(file), SDK_CALLS_FILE),
  }
}

/**
 * The `version` of the SDK's package.json (default this repository's packages/sdk).
 *
 * @example
 * readSdkVersion() // '0.1.0'
 */
export function readSdkVersion(packageJson: string = SDK_PACKAGE_JSON): string {
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: unknown }
  if (typeof version !== 'string') throw new InvalidSdkVersionError(String(version))
  versionedSdkPath(version)
  return version
}
