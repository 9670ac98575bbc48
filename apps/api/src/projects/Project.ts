import { InvalidOriginPatternError } from '@porthole/shared'
import { z } from 'zod'
import type { DbExecutor } from '../db/Db.js'
import { type ProjectFeatures, parseStoredFeatures } from './features.js'

/** A project id: 1–64 letters, digits, `-` or `_`, starting with a letter or digit. */
export const ProjectId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/)

/** A project: who may embed the modal (origin patterns) and which features it gets. */
export type Project = {
  id: string
  name: string
  /** Milliseconds since the epoch. */
  createdAt: number
  /** Normalised origin patterns (see `@porthole/shared` origins), sorted. */
  origins: string[]
  /**
   * The exact origins of `origins` the operator trusts for approvals inside the page
   * (`project trust`), sorted; on every other site each approval opens the wallet's popup.
   */
  inlineApprovalOrigins: string[]
  /** Stored feature overrides. */
  features: ProjectFeatures
}

/** Thrown when a project id does not exist. */
export class ProjectNotFoundError extends Error {
  override name = 'ProjectNotFoundError' as const
  readonly projectId: string
  constructor(projectId: string) {
    super(`Unknown project: ${projectId}`)
    this.projectId = projectId
  }
}

/** Thrown when creating a project whose id is taken. */
export class ProjectExistsError extends Error {
  override name = 'ProjectExistsError' as const
  constructor(projectId: string) {
    super(`Project already exists: ${projectId}`)
  }
}

/** Thrown for a project id that does not match {@link ProjectId}. */
export class InvalidProjectIdError extends Error {
  override name = 'InvalidProjectIdError' as const
  constructor(projectId: string) {
    super(
      `Invalid project id: ${JSON.stringify(projectId)} (1-64 letters, digits, "-" or "_", starting with a letter or digit)`,
    )
  }
}

export { InvalidOriginPatternError }

/** Validates a project id or throws {@link InvalidProjectIdError}. */
export function assertProjectId(projectId: string): string {
  if (!ProjectId.safeParse(projectId).success) throw new InvalidProjectIdError(projectId)
  return projectId
}

type ProjectRow = { id: string; name: string; created_at: number; features: string }
/** `inline_approvals` is missing from a schema before migration 17 (untrusted, then). */
type OriginRow = { project_id: string; origin: string; inline_approvals?: number | string | null }

/**
 * Reads projects with their origins; all projects when `id` is omitted.
 *
 * @internal
 */
export async function readProjects(db: DbExecutor, id?: string): Promise<Project[]> {
  const rows = await db.query<ProjectRow>(
    id === undefined
      ? 'SELECT id, name, created_at, features FROM projects ORDER BY created_at, id'
      : 'SELECT id, name, created_at, features FROM projects WHERE id = ?',
    id === undefined ? [] : [id],
  )
  if (rows.length === 0) return []
  // Every column: a database not yet at migration 17 (a replica reading during a rolling
  // upgrade, the tests of older migrations) still reads, with nothing trusted.
  const origins = await db.query<OriginRow>(
    id === undefined
      ? 'SELECT * FROM project_origins'
      : 'SELECT * FROM project_origins WHERE project_id = ?',
    id === undefined ? [] : [id],
  )
  const byProject = new Map<string, { origins: string[]; trusted: string[] }>()
  for (const row of origins) {
    const lists = byProject.get(row.project_id) ?? { origins: [], trusted: [] }
    lists.origins.push(row.origin)
    // A wildcard is never trusted, whatever a row says: trust names one site.
    if (Number(row.inline_approvals) === 1 && !row.origin.includes('*'))
      lists.trusted.push(row.origin)
    byProject.set(row.project_id, lists)
  }
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: Number(row.created_at),
    origins: (byProject.get(row.id)?.origins ?? []).sort(),
    inlineApprovalOrigins: (byProject.get(row.id)?.trusted ?? []).sort(),
    features: parseStoredFeatures(row.features),
  }))
}
