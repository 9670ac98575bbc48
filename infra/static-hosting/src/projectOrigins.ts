/**
 * Reads a project's allowed origins from the API (`GET /projects/v1/origins`) with a short
 * per-project cache, so an admin change is seen within `ttlMs` without a restart.
 */
import type { ProjectOrigins } from '@porthole/shared'

/** A project id as the API accepts it: 1–64 letters, digits, `-` or `_`, not starting with `-`/`_`. */
export const PROJECT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/

/** Options of {@link fetchProjectOrigins}. */
export type FetchProjectOriginsParameters = {
  apiUrl: string
  projectId: string
  /** Abort after this many ms; default 3000. */
  timeoutMs?: number
}

/**
 * Asks the API for a project's allowed origins; never throws. 200 with a string array →
 * `found`; 400/403/404 → `unknown`; anything else → `unavailable`, with the spec's alert for
 * the failed origin fetch (§8) as its reason: 429 'Rate Limited', 5xx or no answer 'Server
 * Error' (a bad body has none).
 *
 * @example
 * await fetchProjectOrigins({ apiUrl: 'http://127.0.0.1:4300', projectId: 'porthole-demo' })
 * // { status: 'found', allowedOrigins: ['http://localhost:4000'] }
 */
export async function fetchProjectOrigins(
  parameters: FetchProjectOriginsParameters,
): Promise<ProjectOrigins> {
  const { apiUrl, projectId, timeoutMs = 3000 } = parameters
  if (!PROJECT_ID.test(projectId)) return { status: 'unknown' }
  const url = new URL(`${apiUrl.replace(/\/+$/, '')}/projects/v1/origins`)
  url.search = new URLSearchParams({ projectId, st: 'static', sv: '1' }).toString()
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (response.status === 400 || response.status === 403 || response.status === 404) {
      await response.body?.cancel()
      return { status: 'unknown' }
    }
    if (!response.ok) {
      await response.body?.cancel()
      return {
        status: 'unavailable',
        ...(response.status === 429
          ? { reason: 'Rate Limited' }
          : response.status >= 500
            ? { reason: 'Server Error' }
            : {}),
      }
    }
    const body = (await response.json()) as { allowedOrigins?: unknown }
    const list = body?.allowedOrigins
    if (!Array.isArray(list) || !list.every((o) => typeof o === 'string'))
      return { status: 'unavailable' }
    return { status: 'found', allowedOrigins: list }
  } catch {
    // No answer (refused, reset, timed out): the API is down, as a proxy's 502/504 would say.
    return { status: 'unavailable', reason: 'Server Error' }
  }
}

/** Options of {@link createProjectOriginsCache}. */
export type ProjectOriginsCacheParameters = {
  apiUrl: string
  /** How long an answer (including a failure) is reused; default 1000 ms. */
  ttlMs?: number
  /** Most projects kept; the oldest entry is dropped beyond it. Default 1000. */
  maxEntries?: number
  timeoutMs?: number
}

/** A per-project cache of {@link fetchProjectOrigins}. */
export type ProjectOriginsCache = {
  get(projectId: string): Promise<ProjectOrigins>
  clear(): void
}

/**
 * Caches {@link fetchProjectOrigins} per project for at most `ttlMs` (counted from when the
 * request to the API started); concurrent lookups of one project share one request.
 *
 * @example
 * const origins = createProjectOriginsCache({ apiUrl: 'http://127.0.0.1:4300' })
 * const { status } = await origins.get('porthole-demo')
 */
export function createProjectOriginsCache(
  parameters: ProjectOriginsCacheParameters,
): ProjectOriginsCache {
  const { apiUrl, ttlMs = 1000, maxEntries = 1000, timeoutMs = 3000 } = parameters
  const entries = new Map<string, { expires: number; value: Promise<ProjectOrigins> }>()
  return {
    get(projectId) {
      const now = Date.now()
      const cached = entries.get(projectId)
      if (cached && cached.expires > now) return cached.value
      entries.delete(projectId)
      if (entries.size >= maxEntries) {
        for (const [key, entry] of entries) if (entry.expires <= now) entries.delete(key)
        while (entries.size >= maxEntries) entries.delete(entries.keys().next().value!)
      }
      const value = fetchProjectOrigins({ apiUrl, projectId, timeoutMs })
      entries.set(projectId, { expires: now + ttlMs, value })
      return value
    },
    clear() {
      entries.clear()
    },
  }
}
