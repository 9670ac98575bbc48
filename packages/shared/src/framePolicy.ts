/**
 * Who may frame Porthole's modal and wallet documents (DESIGN §5): the CSP `frame-ancestors`
 * directive of each document, and `frame-check`, which tells the SDK why the modal frame did
 * not complete its handshake. Pure functions shared by apps/api (which answers nginx and the
 * SDK) and infra/static-hosting (the Node front-end server).
 */
import { frameAncestors, isOriginAllowed } from './origins.js'

/** What is known of a project's allowlist. */
export type ProjectOrigins =
  | { status: 'found'; allowedOrigins: readonly string[] }
  /** The API does not know the project (or the id is malformed). */
  | { status: 'unknown' }
  /**
   * The API failed or could not be reached: callers fail closed. `reason` is the spec's alert
   * (§8) for the failed origin fetch: 'Rate Limited' for a 429, 'Server Error' for a 5xx or no
   * answer; none when the answer was unusable.
   */
  | { status: 'unavailable'; reason?: 'Server Error' | 'Rate Limited' }

/** Which front-end a document belongs to. */
export type FrontendKind = 'modal' | 'wallet'

/** Options of {@link frameAncestorsPolicy}. */
export type FrameAncestorsPolicyParameters = {
  kind: FrontendKind
  /** The request's `projectId`; `undefined` when absent or blank. */
  projectId: string | undefined
  /** The project's allowlist lookup; ignored when `projectId` is undefined. */
  origins: ProjectOrigins | undefined
  /** Origin of the modal app, which frames the wallet. */
  modalOrigin: string
}

/**
 * Computes `frame-ancestors`, failing closed:
 * - modal: the project's allowed origins; `*` when the URL has no projectId (the app then
 *   only shows 'Project ID Not Configured'); `'none'` for an unknown project or API failure;
 * - wallet: the modal origin plus the project's allowed origins (every ancestor is checked);
 *   `'none'` without a project, for an unknown project, an empty allowlist or API failure.
 *
 * @example
 * frameAncestorsPolicy({
 *   kind: 'wallet',
 *   projectId: 'porthole-demo',
 *   origins: { status: 'found', allowedOrigins: ['http://localhost:4000'] },
 *   modalOrigin: 'http://127.0.0.1:4100',
 * }) // 'frame-ancestors http://127.0.0.1:4100 http://localhost:4000'
 */
export function frameAncestorsPolicy(parameters: FrameAncestorsPolicyParameters): string {
  const { kind, projectId, origins, modalOrigin } = parameters
  if (projectId === undefined) return kind === 'modal' ? 'frame-ancestors *' : frameAncestors([])
  if (origins?.status !== 'found') return frameAncestors([])
  if (kind === 'modal') return frameAncestors(origins.allowedOrigins)
  const allowed = frameAncestors(origins.allowedOrigins)
  if (allowed === frameAncestors([])) return allowed
  return frameAncestors([modalOrigin, ...origins.allowedOrigins])
}

/** The spec's alert that explains a blocked frame. */
export type FrameCheckReason =
  | 'Invalid Project ID'
  | 'Origin Not Allowed'
  | 'Project ID Not Configured'
  | 'Server Error'
  | 'Rate Limited'
  | 'Unverified Domain'

/**
 * The JSON body of `/frame-check`. When the allowlist could not be read, the reason is the
 * failed origin fetch's alert ('Server Error', 'Rate Limited'), else none.
 */
export type FrameCheckResult = { allowed: boolean; reason?: FrameCheckReason }

/** Options of {@link frameCheck}. */
export type FrameCheckParameters = {
  /** The browser's `Origin` request header. */
  origin: string | undefined
  /** The request's `projectId`; `undefined` when absent or blank. */
  projectId: string | undefined
  origins: ProjectOrigins | undefined
}

/**
 * Whether `origin` may frame the modal for `projectId`, and if not, why.
 *
 * @example
 * frameCheck({
 *   origin: 'https://evil.example',
 *   projectId: 'porthole-demo',
 *   origins: { status: 'found', allowedOrigins: ['http://localhost:4000'] },
 * }) // { allowed: false, reason: 'Origin Not Allowed' }
 */
export function frameCheck(parameters: FrameCheckParameters): FrameCheckResult {
  const { origin, projectId, origins } = parameters
  if (projectId === undefined) return { allowed: false, reason: 'Project ID Not Configured' }
  if (origins?.status === 'unknown') return { allowed: false, reason: 'Invalid Project ID' }
  if (origins?.status === 'unavailable' && origins.reason)
    return { allowed: false, reason: origins.reason }
  if (origins?.status !== 'found') return { allowed: false }
  if (!origin || !isOriginAllowed(origin, origins.allowedOrigins))
    return { allowed: false, reason: 'Origin Not Allowed' }
  return { allowed: true }
}

/** Options of {@link walletFrameCheck}. */
export type WalletFrameCheckParameters = {
  /** The asking modal's origin (the browser's `Origin` request header). */
  origin: string | undefined
  /** The host site the modal is on, as the modal names it. */
  site: string | undefined
  /** The wallet document's project; `undefined` when absent or blank. */
  projectId: string | undefined
  origins: ProjectOrigins | undefined
  /** The modal the wallet document answers (see {@link frameAncestorsPolicy}). */
  modalOrigin: string
}

/**
 * Whether a project's wallet document lets the asking modal frame it on `site`: the same framers
 * its `frame-ancestors` names (the modal it answers, then the allowlist), for a modal whose
 * wallet frame did not load. A wallet origin that refuses them answers spec §8's 'Unverified
 * Domain'; a project that cannot be read, its own reason.
 *
 * @example
 * walletFrameCheck({
 *   origin: 'https://connect.evil.example',
 *   site: 'http://localhost:4000',
 *   projectId: 'porthole-demo',
 *   origins: { status: 'found', allowedOrigins: ['http://localhost:4000'] },
 *   modalOrigin: 'http://127.0.0.1:4100',
 * }) // { allowed: false, reason: 'Unverified Domain' }
 */
export function walletFrameCheck(parameters: WalletFrameCheckParameters): FrameCheckResult {
  const { origin, site, projectId, origins, modalOrigin } = parameters
  if (projectId === undefined) return { allowed: false, reason: 'Project ID Not Configured' }
  if (origins?.status === 'unknown') return { allowed: false, reason: 'Invalid Project ID' }
  if (origins?.status === 'unavailable')
    return origins.reason ? { allowed: false, reason: origins.reason } : { allowed: false }
  if (origins?.status !== 'found') return { allowed: false }
  const framed =
    origin !== undefined &&
    origin === new URL(modalOrigin).origin &&
    origins.allowedOrigins.length > 0 &&
    site !== undefined &&
    isOriginAllowed(site, origins.allowedOrigins)
  return framed ? { allowed: true } : { allowed: false, reason: 'Unverified Domain' }
}
