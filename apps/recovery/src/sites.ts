/**
 * Which sites a project allows, as the API answers them (`GET /projects/v1/origins`): the
 * recovery service names a site in its approval mail only when the project allows it, so a
 * stranger cannot have it mail a user a request that claims any site it likes.
 */
import { isOriginAllowed } from '@porthole/shared'

/** Whether `site` is an origin the project allows; rejects when it cannot be known now. */
export type SiteCheck = (projectId: string, site: string) => Promise<boolean>

/** Options of {@link createSiteCheck}. */
export type CreateSiteCheckParameters = {
  /** The API's base URL. */
  apiUrl: string
  /** How long a project's answer is reused; default 10 s (the allowlist changes reach mail in that time). */
  ttlMs?: number
  /** Most projects remembered (oldest dropped first); default 1000. */
  maxEntries?: number
  now?: () => number
}

/** Thrown when the API cannot tell which sites a project allows (then nothing is mailed). */
export class SiteCheckUnavailableError extends Error {
  override name = 'SiteCheckUnavailableError' as const
}

/**
 * A {@link SiteCheck} over the API's public project allowlist, cached per project. An unknown
 * project allows nothing; an API that does not answer makes the check reject.
 *
 * @example
 * const siteAllowed = createSiteCheck({ apiUrl: 'http://127.0.0.1:4300' })
 * await siteAllowed('porthole-demo', 'http://localhost:4000') // true
 */
export function createSiteCheck({
  apiUrl,
  ttlMs = 10_000,
  maxEntries = 1000,
  now = Date.now,
}: CreateSiteCheckParameters): SiteCheck {
  const cache = new Map<string, { at: number; patterns: Promise<string[]> }>()
  const read = async (projectId: string): Promise<string[]> => {
    const url = new URL('/projects/v1/origins', apiUrl)
    url.searchParams.set('projectId', projectId)
    url.searchParams.set('st', 'recovery')
    url.searchParams.set('sv', '1')
    let response: Response
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(5000) })
    } catch (cause) {
      throw new SiteCheckUnavailableError('The API did not answer', { cause })
    }
    if (response.status === 403 || response.status === 400) return []
    if (!response.ok) throw new SiteCheckUnavailableError(`The API answered ${response.status}`)
    const body = (await response.json().catch(() => null)) as { allowedOrigins?: unknown } | null
    const patterns = body?.allowedOrigins
    if (!Array.isArray(patterns) || !patterns.every((p) => typeof p === 'string'))
      throw new SiteCheckUnavailableError('The API answered no allowlist')
    return patterns
  }
  return async (projectId, site) => {
    const hit = cache.get(projectId)
    let patterns = hit && now() - hit.at < ttlMs ? hit.patterns : undefined
    if (!patterns) {
      patterns = read(projectId)
      cache.delete(projectId)
      if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!)
      cache.set(projectId, { at: now(), patterns })
      // A failed read is not remembered.
      patterns.catch(() => cache.delete(projectId))
    }
    return isOriginAllowed(site, await patterns)
  }
}
