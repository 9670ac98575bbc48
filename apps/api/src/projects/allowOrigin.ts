import type { Db } from '../db/Db.js'
import { normaliseAllowedOriginPattern } from './allowedOriginPattern.js'
import { ProjectNotFoundError } from './Project.js'

/** Options for {@link allowOrigin}. */
export type AllowOriginParameters = { projectId: string; origin: string }

/** The normalised pattern and whether it was new. */
export type AllowOriginReturnType = { origin: string; added: boolean }

/**
 * Adds an origin pattern to a project's allowlist (idempotent).
 * Throws `ProjectNotFoundError` or `InvalidOriginPatternError` (also `PublicSuffixPatternError`
 * for a wildcard over a public suffix such as `https://*.co.uk`).
 *
 * @example
 * await allowOrigin(db, { projectId, origin: 'https://*.example.com' })
 * // { origin: 'https://*.example.com', added: true }
 */
export async function allowOrigin(
  db: Db,
  { projectId, origin }: AllowOriginParameters,
): Promise<AllowOriginReturnType> {
  const pattern = normaliseAllowedOriginPattern(origin)
  return db.transaction(async (tx) => {
    const found = await tx.query('SELECT id FROM projects WHERE id = ?', [projectId])
    if (found.length === 0) throw new ProjectNotFoundError(projectId)
    const { rowsAffected } = await tx.execute(
      'INSERT INTO project_origins (project_id, origin, created_at) VALUES (?, ?, ?) ON CONFLICT (project_id, origin) DO NOTHING',
      [projectId, pattern, Date.now()],
    )
    return { origin: pattern, added: rowsAffected > 0 }
  })
}
