import type { DbExecutor } from '../db/Db.js'
import { type Project, readProjects } from './Project.js'

/**
 * Reads one project with its origins; `undefined` when it does not exist.
 *
 * @example
 * const project = await getProject(db, 'porthole-demo')
 * project?.origins // ['http://localhost:4000']
 */
export async function getProject(db: DbExecutor, projectId: string): Promise<Project | undefined> {
  const [project] = await readProjects(db, projectId)
  return project
}
