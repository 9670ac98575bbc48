import type { DbExecutor } from '../db/Db.js'
import { getProject } from './getProject.js'
import type { Project } from './Project.js'

/** Options for {@link createProjectCache}. */
export type CreateProjectCacheParameters = {
  /** How long a found project is reused; 0 reads the database every time (and caches nothing). */
  ttlMs: number
  /**
   * How long an id that names no project is answered "unknown" without a query; default the
   * larger of `ttlMs` and {@link NEGATIVE_CACHE_MS}. A project created meanwhile is refused
   * until then.
   */
  negativeTtlMs?: number
  /** Most ids kept, found and unknown each (oldest dropped first). */
  maxEntries?: number
  /** Clock, for tests. */
  now?: () => number
}

/** A read-through cache of projects by id. */
export type ProjectCache = {
  get(projectId: string): Promise<Project | undefined>
  /**
   * Whether a lookup of this process has found the project (and none has found it gone since),
   * without a query: the rate limiter gives such ids a bucket of their own.
   */
  isKnown(projectId: string): boolean
}

/** How long an unknown project id is remembered by default, in milliseconds. */
export const NEGATIVE_CACHE_MS = 10_000

/**
 * Caches project lookups for at most `ttlMs` (ids that name no project for `negativeTtlMs`), so
 * admin CLI changes reach a running API within that time without a restart, and a flood of
 * invented ids costs one query per id. Concurrent lookups of one id share a single query.
 * Found and unknown ids are kept apart, so invented ids never push out the projects in use.
 *
 * @example
 * const projects = createProjectCache(db, { ttlMs: 1000 })
 * const project = await projects.get('porthole-demo')
 */
export function createProjectCache(
  db: DbExecutor,
  { ttlMs, negativeTtlMs, maxEntries = 10_000, now = Date.now }: CreateProjectCacheParameters,
): ProjectCache {
  const unknownTtl = negativeTtlMs ?? Math.max(ttlMs, NEGATIVE_CACHE_MS)
  type Entry = { at: number; value: Promise<Project | undefined> }
  const pending = new Map<string, Promise<Project | undefined>>()
  const found = new Map<string, Entry>()
  const unknown = new Map<string, number>()
  /** Ids found by some lookup, kept past their TTL (only the bucket choice reads it). */
  const known = new Set<string>()
  const remember = <V>(map: Map<string, V>, id: string, value: V) => {
    map.delete(id)
    if (map.size >= maxEntries) map.delete(map.keys().next().value!)
    map.set(id, value)
  }
  const rememberKnown = (id: string) => {
    known.delete(id)
    if (known.size >= maxEntries) known.delete(known.values().next().value!)
    known.add(id)
  }
  return {
    get(projectId) {
      const hit = found.get(projectId)
      if (hit && now() - hit.at < ttlMs) return hit.value
      const missAt = unknown.get(projectId)
      if (missAt !== undefined && now() - missAt < unknownTtl) return Promise.resolve(undefined)
      const inFlight = pending.get(projectId)
      if (inFlight) return inFlight
      const at = now()
      const value = getProject(db, projectId)
      pending.set(projectId, value)
      const settle = () => pending.delete(projectId)
      value.then(
        (project) => {
          settle()
          if (project) rememberKnown(projectId)
          else known.delete(projectId)
          if (ttlMs <= 0) return
          if (project) {
            unknown.delete(projectId)
            remember(found, projectId, { at, value })
          } else {
            found.delete(projectId)
            remember(unknown, projectId, at)
          }
        },
        // A failed lookup is not cached.
        settle,
      )
      return value
    },
    isKnown: (projectId) => known.has(projectId),
  }
}
