import type { Db } from '../db/Db.js'
import { ProjectNotFoundError } from './Project.js'
import { normaliseCustomOrigin, type ProjectDomain, readProjectDomains } from './ProjectDomain.js'

/** Options for {@link removeProjectDomain}. */
export type RemoveProjectDomainParameters = {
  projectId: string
  /** The custom modal origin (its wallet origin goes with it). */
  modalOrigin: string
}

/** The removed domain, or `undefined` when the project had none at that origin. */
export type RemoveProjectDomainReturnType = { removed: ProjectDomain | undefined }

/**
 * Removes a project's custom domain (the modal origin and the wallet origin it framed).
 * Idempotent; throws `ProjectNotFoundError` or `InvalidCustomDomainError`.
 *
 * @example
 * await removeProjectDomain(db, { projectId: 'shop', modalOrigin: 'https://connect.shop.example' })
 */
export async function removeProjectDomain(
  db: Db,
  parameters: RemoveProjectDomainParameters,
): Promise<RemoveProjectDomainReturnType> {
  const { projectId } = parameters
  const modalOrigin = normaliseCustomOrigin(parameters.modalOrigin)
  return db.transaction(async (tx) => {
    const found = await tx.query('SELECT id FROM projects WHERE id = ?', [projectId])
    if (found.length === 0) throw new ProjectNotFoundError(projectId)
    const removed = (await readProjectDomains(tx, { origin: modalOrigin })).find(
      (d) => d.projectId === projectId && d.modalOrigin === modalOrigin,
    )
    if (removed)
      await tx.execute('DELETE FROM project_domains WHERE modal_origin = ? AND project_id = ?', [
        modalOrigin,
        projectId,
      ])
    return { removed }
  })
}
