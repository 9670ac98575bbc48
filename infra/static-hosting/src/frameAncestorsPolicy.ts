/**
 * The CSP `frame-ancestors` directive of the modal and wallet documents (DESIGN §5).
 */
import { frameAncestors } from '@porthole/shared'
import type { ProjectOrigins } from './projectOrigins.ts'

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
