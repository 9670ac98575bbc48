import { randomBytes } from 'node:crypto'
import type { Db } from '../db/Db.js'
import { normaliseAllowedOriginPattern } from './allowedOriginPattern.js'
import { ProjectFeatures } from './features.js'
import { assertProjectId, type Project, ProjectExistsError, readProjects } from './Project.js'

/** Options for {@link createProject}. */
export type CreateProjectParameters = {
  /** Project id; default: 32 random hex characters. */
  id?: string
  /** Display name; default: the id. */
  name?: string
  /** Allowed origin patterns (wildcards per `@porthole/shared`). */
  origins?: readonly string[]
  /** Feature overrides stored with the project. */
  features?: ProjectFeatures
}

/** The created project. */
export type CreateProjectReturnType = Project

/** What {@link createProject} throws. */
export type CreateProjectErrorType =
  | ProjectExistsError
  | import('./Project.js').InvalidProjectIdError
  | import('@porthole/shared').InvalidOriginPatternError
  | import('./allowedOriginPattern.js').PublicSuffixPatternError

/**
 * Creates a project with its origin allowlist.
 *
 * @example
 * const project = await createProject(db, { name: 'Shop', origins: ['https://*.shop.example'] })
 * project.id // '9f1c…' (32 hex characters)
 */
export async function createProject(
  db: Db,
  parameters: CreateProjectParameters = {},
): Promise<CreateProjectReturnType> {
  const id = assertProjectId(parameters.id ?? randomBytes(16).toString('hex'))
  const name = parameters.name?.trim() || id
  const origins = [...new Set((parameters.origins ?? []).map(normaliseAllowedOriginPattern))]
  const features = ProjectFeatures.parse(parameters.features ?? {})
  const now = Date.now()
  await db.transaction(async (tx) => {
    const { rowsAffected } = await tx.execute(
      'INSERT INTO projects (id, name, created_at, features) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
      [id, name, now, JSON.stringify(features)],
    )
    if (rowsAffected === 0) throw new ProjectExistsError(id)
    for (const origin of origins)
      await tx.execute(
        'INSERT INTO project_origins (project_id, origin, created_at) VALUES (?, ?, ?)',
        [id, origin, now],
      )
  })
  const [project] = await readProjects(db, id)
  return project!
}
