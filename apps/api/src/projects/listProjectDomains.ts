import type { DbExecutor } from '../db/Db.js'
import { type ProjectDomain, readProjectDomains } from './ProjectDomain.js'

/**
 * Lists custom domains: a project's (oldest first), or every project's.
 *
 * @example
 * await listProjectDomains(db, { projectId: 'porthole-demo' })
 * // [{ projectId: 'porthole-demo', modalOrigin: 'http://connect.app.localhost:4100', … }]
 */
export function listProjectDomains(
  db: DbExecutor,
  parameters: { projectId?: string } = {},
): Promise<ProjectDomain[]> {
  return readProjectDomains(
    db,
    parameters.projectId === undefined ? {} : { projectId: parameters.projectId },
  )
}
