import type { Db } from '../db/Db.js'
import { ProjectNotFoundError } from './Project.js'
import {
  CustomDomainTakenError,
  InvalidCustomDomainError,
  normaliseCustomOrigin,
  type ProjectDomain,
  readProjectDomains,
} from './ProjectDomain.js'

/** Options for {@link addProjectDomain}. */
export type AddProjectDomainParameters = {
  projectId: string
  /** The custom modal origin, e.g. `https://connect.app.example`. */
  modalOrigin: string
  /** The custom wallet origin, e.g. `https://wallet.app.example`; absent: Porthole's own. */
  walletOrigin?: string | undefined
  /** Porthole's own frame origins, which no project can take. */
  reserved?: readonly string[]
}

/** The stored domain and whether it is new (`false`: an existing one, its wallet updated). */
export type AddProjectDomainReturnType = { domain: ProjectDomain; added: boolean }

/** What {@link addProjectDomain} throws. */
export type AddProjectDomainErrorType =
  | ProjectNotFoundError
  | InvalidCustomDomainError
  | CustomDomainTakenError

/**
 * Registers a custom modal origin (and the wallet origin it frames) for a project. Adding the
 * same modal origin again replaces its wallet origin. An origin serves one project and one
 * frame: taken origins throw {@link CustomDomainTakenError}. Without a wallet origin the modal
 * frames Porthole's own wallet origin, which then answers only this modal for the project, so a
 * project has at most one such domain.
 *
 * @example
 * await addProjectDomain(db, {
 *   projectId: 'shop',
 *   modalOrigin: 'https://connect.shop.example',
 *   walletOrigin: 'https://wallet.shop.example',
 * }) // { domain: { projectId: 'shop', modalOrigin: 'https://connect.shop.example', … }, added: true }
 */
export async function addProjectDomain(
  db: Db,
  parameters: AddProjectDomainParameters,
): Promise<AddProjectDomainReturnType> {
  const { projectId, reserved = [] } = parameters
  const modalOrigin = normaliseCustomOrigin(parameters.modalOrigin, reserved)
  const walletOrigin =
    parameters.walletOrigin === undefined
      ? null
      : normaliseCustomOrigin(parameters.walletOrigin, reserved)
  if (walletOrigin === modalOrigin)
    throw new InvalidCustomDomainError(
      parameters.walletOrigin as string,
      'the wallet needs an origin of its own, not the modal’s',
    )
  return db.transaction(async (tx) => {
    const found = await tx.query('SELECT id FROM projects WHERE id = ?', [projectId])
    if (found.length === 0) throw new ProjectNotFoundError(projectId)
    const owner = (domain: ProjectDomain) =>
      domain.projectId === projectId ? `project ${projectId}` : `project ${domain.projectId}`
    for (const origin of [modalOrigin, walletOrigin]) {
      if (origin === null) continue
      for (const domain of await readProjectDomains(tx, { origin })) {
        // Re-adding the same modal origin for the same project replaces its wallet.
        if (domain.modalOrigin === modalOrigin && domain.projectId === projectId) continue
        throw new CustomDomainTakenError(origin, owner(domain))
      }
    }
    if (walletOrigin === null) {
      const bound = (await readProjectDomains(tx, { projectId })).find(
        (d) => d.walletOrigin === null && d.modalOrigin !== modalOrigin,
      )
      if (bound)
        throw new InvalidCustomDomainError(
          modalOrigin,
          `project ${projectId} already has ${bound.modalOrigin} on Porthole's wallet origin (give --wallet <origin>)`,
        )
    }
    const now = Date.now()
    const { rowsAffected } = await tx.execute(
      'INSERT INTO project_domains (modal_origin, project_id, wallet_origin, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (modal_origin) DO NOTHING',
      [modalOrigin, projectId, walletOrigin, now],
    )
    if (rowsAffected === 0)
      await tx.execute('UPDATE project_domains SET wallet_origin = ? WHERE modal_origin = ?', [
        walletOrigin,
        modalOrigin,
      ])
    const [domain] = await readProjectDomains(tx, { origin: modalOrigin })
    return { domain: domain as ProjectDomain, added: rowsAffected > 0 }
  })
}
