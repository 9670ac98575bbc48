import type { DbExecutor } from '../db/Db.js'
import { type Project, readProjects } from './Project.js'

/**
 * Every project with its origins, oldest first.
 *
 * @example
 * for (const project of await listProjects(db)) console.log(project.id, project.origins)
 */
export function listProjects(db: DbExecutor): Promise<Project[]> {
  return readProjects(db)
}
