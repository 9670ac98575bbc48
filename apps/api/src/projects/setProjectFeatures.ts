import type { Db } from '../db/Db.js'
import { ProjectFeatures } from './features.js'
import { ProjectNotFoundError } from './Project.js'

/** Options for {@link setProjectFeatures}. */
export type SetProjectFeaturesParameters = { projectId: string; features: ProjectFeatures }

/**
 * Replaces a project's stored feature overrides (validated; absent keys use the defaults).
 *
 * @example
 * await setProjectFeatures(db, { projectId, features: { multiWallet: true, swaps: false } })
 */
export async function setProjectFeatures(
  db: Db,
  { projectId, features }: SetProjectFeaturesParameters,
): Promise<ProjectFeatures> {
  const parsed = ProjectFeatures.parse(features)
  const { rowsAffected } = await db.execute('UPDATE projects SET features = ? WHERE id = ?', [
    JSON.stringify(parsed),
    projectId,
  ])
  if (rowsAffected === 0) throw new ProjectNotFoundError(projectId)
  return parsed
}
