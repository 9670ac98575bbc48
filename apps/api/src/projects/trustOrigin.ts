import { type InvalidOriginPatternError, normaliseOriginPattern } from '@porthole/shared'
import type { Db } from '../db/Db.js'
import { ProjectNotFoundError } from './Project.js'

/** Thrown when trusting an origin that is not (exactly) in the project's allowlist. */
export class OriginNotAllowedError extends Error {
  override name = 'OriginNotAllowedError' as const
  constructor(projectId: string, origin: string) {
    super(
      `${origin} is not an allowed origin of project ${projectId}: allow it first (project allow ${projectId} ${origin})`,
    )
  }
}

/** Thrown when trusting a wildcard pattern: trust names one site the operator vetted. */
export class WildcardTrustError extends Error {
  override name = 'WildcardTrustError' as const
  constructor(pattern: string) {
    super(
      `Only an exact origin can be trusted, not the pattern ${pattern}: allow and trust each site by its own origin`,
    )
  }
}

/** Options for {@link trustOrigin} and {@link untrustOrigin}. */
export type TrustOriginParameters = { projectId: string; origin: string }

/** The normalised origin and whether its trust changed. */
export type TrustOriginReturnType = { origin: string; changed: boolean }

/** The errors {@link trustOrigin} throws. */
export type TrustOriginErrorType =
  | ProjectNotFoundError
  | OriginNotAllowedError
  | WildcardTrustError
  | InvalidOriginPatternError

/**
 * Trusts one of a project's allowed origins for approvals inside the page (idempotent): the
 * wallet frame then completes an approval in the frame, behind its visibility checks, when that
 * origin and every site framing it are trusted; on any other site each approval opens the
 * wallet's popup window. Trusting a site means trusting it not to mask the card (no browser
 * reports a mask). The origin must be an exact entry of the allowlist (no wildcard); denying
 * it ends the trust, and allowing it again does not bring it back.
 * Throws `ProjectNotFoundError`, `InvalidOriginPatternError`, `WildcardTrustError` or
 * `OriginNotAllowedError`.
 *
 * @example
 * await trustOrigin(db, { projectId, origin: 'https://app.shop.example' })
 * // { origin: 'https://app.shop.example', changed: true }
 */
export async function trustOrigin(
  db: Db,
  { projectId, origin }: TrustOriginParameters,
): Promise<TrustOriginReturnType> {
  return setTrust(db, { projectId, origin }, true)
}

/**
 * Ends the trust of {@link trustOrigin} (idempotent): every approval on that origin goes to the
 * wallet's popup window again, from the next card of a frame that read the change (within a
 * minute of it; frames loaded after it at once). The origin stays allowed.
 * Throws `ProjectNotFoundError` or `InvalidOriginPatternError`.
 *
 * @example
 * await untrustOrigin(db, { projectId, origin: 'https://app.shop.example' }) // { …, changed: true }
 */
export async function untrustOrigin(
  db: Db,
  { projectId, origin }: TrustOriginParameters,
): Promise<TrustOriginReturnType> {
  return setTrust(db, { projectId, origin }, false)
}

async function setTrust(
  db: Db,
  { projectId, origin }: TrustOriginParameters,
  trusted: boolean,
): Promise<TrustOriginReturnType> {
  const normalised = normaliseOriginPattern(origin)
  if (trusted && normalised.includes('*')) throw new WildcardTrustError(normalised)
  return db.transaction(async (tx) => {
    const found = await tx.query('SELECT id FROM projects WHERE id = ?', [projectId])
    if (found.length === 0) throw new ProjectNotFoundError(projectId)
    const [row] = await tx.query<{ inline_approvals: number | string }>(
      'SELECT inline_approvals FROM project_origins WHERE project_id = ? AND origin = ?',
      [projectId, normalised],
    )
    if (!row) {
      if (trusted) throw new OriginNotAllowedError(projectId, normalised)
      return { origin: normalised, changed: false }
    }
    if ((Number(row.inline_approvals) === 1) === trusted)
      return { origin: normalised, changed: false }
    await tx.execute(
      'UPDATE project_origins SET inline_approvals = ? WHERE project_id = ? AND origin = ?',
      [trusted ? 1 : 0, projectId, normalised],
    )
    return { origin: normalised, changed: true }
  })
}
