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
  /** The API failed or could not be reached: callers fail closed. */
  | { status: 'unavailable' }

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

/** The JSON body of `/frame-check`. No reason when the API could not answer. */
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
  if (origins?.status !== 'found') return { allowed: false }
  if (!origin || !isOriginAllowed(origin, origins.allowedOrigins))
    return { allowed: false, reason: 'Origin Not Allowed' }
  return { allowed: true }
}
