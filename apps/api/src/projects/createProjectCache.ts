import type { DbExecutor } from '../db/Db.js'
import { getProject } from './getProject.js'
import type { Project } from './Project.js'

/** Options for {@link createProjectCache}. */
export type CreateProjectCacheParameters = {
  /** How long a lookup (found or not) is reused; 0 reads the database every time. */
  ttlMs: number
  /** Most ids kept (oldest dropped first). */
  maxEntries?: number
  /** Clock, for tests. */
  now?: () => number
}

/** A read-through cache of projects by id. */
export type ProjectCache = { get(projectId: string): Promise<Project | undefined> }

/**
 * Caches project lookups for at most `ttlMs`, so admin CLI changes reach a running API within
 * that time without a restart. Concurrent lookups of one id share a single query.
 *
 * @example
 * const projects = createProjectCache(db, { ttlMs: 1000 })
 * const project = await projects.get('porthole-demo')
 */
export function createProjectCache(
  db: DbExecutor,
  { ttlMs, maxEntries = 10_000, now = Date.now }: CreateProjectCacheParameters,
): ProjectCache {
  const entries = new Map<string, { at: number; value: Promise<Project | undefined> }>()
  return {
    get(projectId) {
      const hit = entries.get(projectId)
      if (hit && now() - hit.at < ttlMs) return hit.value
      const value = getProject(db, projectId)
      if (ttlMs > 0) {
        entries.delete(projectId)
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!)
        entries.set(projectId, { at: now(), value })
        // A failed lookup must not be served from the cache.
        value.catch(() => entries.delete(projectId))
      }
      return value
    },
  }
}
