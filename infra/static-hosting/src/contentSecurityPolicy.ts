/**
 * The Content-Security-Policy header of the modal and wallet documents.
 */
import type { FrontendKind } from '@porthole/shared'

/** Options of {@link contentSecurityPolicy}. */
export type ContentSecurityPolicyParameters = {
  kind: FrontendKind
  /** A full `frame-ancestors …` directive (see `frameAncestorsPolicy`). */
  frameAncestors: string
  apiUrl: string
  relayUrl: string
  /** The wallet app's URL: the modal may frame it. */
  walletUrl: string
  /** The recovery key service: only the wallet app talks to it. */
  recoveryUrl: string
  /** Chain RPC origins the modal may call besides the API (its fallback transports). */
  rpcOrigins?: readonly string[] | undefined
}

/**
 * Origin of an http(s) or ws(s) URL, as a CSP source.
 *
 * @example
 * cspSource('ws://127.0.0.1:4400/') // 'ws://127.0.0.1:4400'
 */
export function cspSource(url: string): string {
  const parsed = new URL(url)
  return parsed.origin !== 'null' ? parsed.origin : `${parsed.protocol}//${parsed.host}`
}

/**
 * Builds the document CSP: same-origin scripts only, the API for images and requests, the
 * relay for WebSockets, the wallet frame (modal only) and the given `frame-ancestors`.
 *
 * @example
 * contentSecurityPolicy({
 *   kind: 'modal',
 *   frameAncestors: 'frame-ancestors http://localhost:4000',
 *   apiUrl: 'http://127.0.0.1:4300',
 *   relayUrl: 'ws://127.0.0.1:4400',
 *   walletUrl: 'http://127.0.0.1:4200',
 *   recoveryUrl: 'http://127.0.0.1:4700',
 * }) // "default-src 'self'; script-src 'self'; … frame-ancestors http://localhost:4000"
 */
export function contentSecurityPolicy(parameters: ContentSecurityPolicyParameters): string {
  const api = cspSource(parameters.apiUrl)
  const relay = cspSource(parameters.relayUrl)
  const extra =
    parameters.kind === 'wallet'
      ? [cspSource(parameters.recoveryUrl)]
      : (parameters.rpcOrigins ?? []).map(cspSource)
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: ${api}`,
    ['connect-src', "'self'", api, relay, ...extra].join(' '),
    ...(parameters.kind === 'modal' ? [`frame-src ${cspSource(parameters.walletUrl)}`] : []),
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
    parameters.frameAncestors,
  ].join('; ')
}
