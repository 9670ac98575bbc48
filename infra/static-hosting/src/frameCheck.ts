/**
 * `GET /frame-check`: tells the SDK why the modal frame did not complete its handshake.
 */
import { isOriginAllowed } from '@porthole/shared'
import type { ProjectOrigins } from './projectOrigins.ts'

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
