import type { DbExecutor } from '../db/Db.js'
import { listProjectDomains } from './listProjectDomains.js'
import type { ProjectDomain, ProjectDomainKind } from './ProjectDomain.js'

/** Options for {@link createDomainCache}. */
export type CreateDomainCacheParameters = {
  /** How long the table read is reused; 0 reads the database on every lookup. */
  ttlMs: number
  /** Clock, for tests. */
  now?: () => number
}

/** A read-through cache of custom domains, by origin and by project. */
export type DomainCache = {
  /** The custom domain serving `origin` (exact, normalised), as modal or wallet. */
  byOrigin(origin: string): Promise<{ kind: ProjectDomainKind; domain: ProjectDomain } | undefined>
  /** A project's custom domains. */
  byProject(projectId: string): Promise<ProjectDomain[]>
}

type Index = {
  origins: Map<string, { kind: ProjectDomainKind; domain: ProjectDomain }>
  projects: Map<string, ProjectDomain[]>
}

/**
 * Keeps every custom domain in memory for at most `ttlMs` (one query per period, however many
 * origins are asked about: requests carry any `Origin` their sender likes), so `project domain
 * add|remove` reaches a running API within that time. Concurrent lookups share the read; a
 * failed read is not kept.
 *
 * @example
 * const domains = createDomainCache(db, { ttlMs: 1000 })
 * await domains.byOrigin('http://connect.app.localhost:4100') // { kind: 'modal', domain: … }
 */
export function createDomainCache(
  db: DbExecutor,
  { ttlMs, now = Date.now }: CreateDomainCacheParameters,
): DomainCache {
  let cached: { at: number; value: Promise<Index> } | undefined
  const load = async (): Promise<Index> => {
    const index: Index = { origins: new Map(), projects: new Map() }
    for (const domain of await listProjectDomains(db)) {
      index.origins.set(domain.modalOrigin, { kind: 'modal', domain })
      if (domain.walletOrigin) index.origins.set(domain.walletOrigin, { kind: 'wallet', domain })
      index.projects.set(domain.projectId, [
        ...(index.projects.get(domain.projectId) ?? []),
        domain,
      ])
    }
    return index
  }
  const current = (): Promise<Index> => {
    if (cached && now() - cached.at < ttlMs) return cached.value
    const value = load()
    if (ttlMs > 0) {
      const entry = { at: now(), value }
      cached = entry
      value.catch(() => {
        if (cached === entry) cached = undefined
      })
    }
    return value
  }
  return {
    byOrigin: async (origin) => (await current()).origins.get(origin),
    byProject: async (projectId) => (await current()).projects.get(projectId) ?? [],
  }
}
