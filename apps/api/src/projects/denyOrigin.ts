import { normaliseOriginPattern } from '@porthole/shared'
import type { Db } from '../db/Db.js'
import { ProjectNotFoundError } from './Project.js'

/** Options for {@link denyOrigin}. */
export type DenyOriginParameters = { projectId: string; origin: string }

/** The normalised pattern and whether it was in the allowlist. */
export type DenyOriginReturnType = { origin: string; removed: boolean }

/**
 * Removes an origin pattern from a project's allowlist (idempotent). The pattern is matched
 * after normalisation, so `HTTPS://Example.com:443` removes `https://example.com`.
 * Throws `ProjectNotFoundError` or `InvalidOriginPatternError`.
 *
 * @example
 * await denyOrigin(db, { projectId, origin: 'https://*.example.com' }) // { …, removed: true }
 */
export async function denyOrigin(
  db: Db,
  { projectId, origin }: DenyOriginParameters,
): Promise<DenyOriginReturnType> {
  const pattern = normaliseOriginPattern(origin)
  return db.transaction(async (tx) => {
    const found = await tx.query('SELECT id FROM projects WHERE id = ?', [projectId])
    if (found.length === 0) throw new ProjectNotFoundError(projectId)
    const { rowsAffected } = await tx.execute(
      'DELETE FROM project_origins WHERE project_id = ? AND origin = ?',
      [projectId, pattern],
    )
    return { origin: pattern, removed: rowsAffected > 0 }
  })
}
