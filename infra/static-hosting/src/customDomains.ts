/**
 * Projects' custom domains (issue 18), as the API lists them: which project and frame a host
 * serves, and the origins its documents use. The static server routes requests by `Host` with
 * these and refuses hosts nobody registered.
 */
import { PROJECT_ID } from './projectOrigins.ts'

/** A custom domain's frames: the modal origin, its wallet origin and the passkeys' site. */
export type CustomDomain = {
  projectId: string
  modalOrigin: string
  /** `null`: the modal frames Porthole's own wallet origin. */
  walletOrigin: string | null
  /** The relying party of the wallet's passkeys (the wallet origin's site); `null` without one. */
  passkeyRpId: string | null
}

/** What is known of the origin a request was sent to. */
export type CustomDomainLookup =
  | ({ status: 'found'; kind: 'modal' | 'wallet' } & CustomDomain)
  /** No project has this origin. */
  | { status: 'unknown' }
  /** The API failed or could not be reached: callers refuse the request (503). */
  | { status: 'unavailable' }

/** A project's custom domains, or the API failed. */
export type ProjectDomainsLookup =
  | { status: 'found'; domains: CustomDomain[] }
  | { status: 'unavailable' }

/** Options of {@link createCustomDomainsCache}. */
export type CustomDomainsCacheParameters = {
  apiUrl: string
  /** How long an answer (found or not) is reused; default 1000 ms. */
  ttlMs?: number
  /** Most keys kept per kind of lookup; the oldest entry is dropped beyond it. Default 1000. */
  maxEntries?: number
  /** Abort an API request after this many ms; default 3000. */
  timeoutMs?: number
}

/** Lookups of {@link createCustomDomainsCache}. */
export type CustomDomainsCache = {
  /** The custom domain of an exact origin (`GET {api}/projects/v1/domain?origin=`). */
  byOrigin(origin: string): Promise<CustomDomainLookup>
  /** A project's custom domains (`GET {api}/projects/v1/domains?projectId=`). */
  byProject(projectId: string): Promise<ProjectDomainsLookup>
}

const isOrigin = (value: unknown): value is string =>
  typeof value === 'string' && /^https?:\/\/[^\s/?#]+$/.test(value)

function parseDomain(value: unknown, projectId?: string): CustomDomain | undefined {
  const v = value as Record<string, unknown> | null
  const id = projectId ?? v?.projectId
  if (typeof id !== 'string' || !PROJECT_ID.test(id) || !isOrigin(v?.modalOrigin)) return undefined
  if (v.walletOrigin !== null && !isOrigin(v.walletOrigin)) return undefined
  if (v.passkeyRpId !== null && typeof v.passkeyRpId !== 'string') return undefined
  return {
    projectId: id,
    modalOrigin: v.modalOrigin,
    walletOrigin: v.walletOrigin,
    passkeyRpId: v.passkeyRpId,
  }
}

/**
 * Caches the API's custom-domain answers per origin and per project for at most `ttlMs`;
 * concurrent lookups of one key share one request. Never throws: a 404 is `unknown`, anything
 * else that is not a well-formed 200 is `unavailable`.
 *
 * @example
 * const domains = createCustomDomainsCache({ apiUrl: 'http://127.0.0.1:4300' })
 * await domains.byOrigin('http://connect.app.localhost:4100')
 * // { status: 'found', kind: 'modal', projectId: 'porthole-demo', … }
 */
export function createCustomDomainsCache(
  parameters: CustomDomainsCacheParameters,
): CustomDomainsCache {
  const { apiUrl, ttlMs = 1000, maxEntries = 1000, timeoutMs = 3000 } = parameters
  const base = apiUrl.replace(/\/+$/, '')
  const ask = async (path: string, query: Record<string, string>) => {
    const url = new URL(`${base}${path}`)
    url.search = new URLSearchParams(query).toString()
    try {
      const response = await fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      })
      if (!response.ok) {
        await response.body?.cancel()
        return { status: response.status, body: undefined }
      }
      return { status: 200, body: (await response.json()) as unknown }
    } catch {
      return { status: 0, body: undefined }
    }
  }
  const cached = <T>(load: (key: string) => Promise<T>) => {
    const entries = new Map<string, { expires: number; value: Promise<T> }>()
    return (key: string): Promise<T> => {
      const now = Date.now()
      const hit = entries.get(key)
      if (hit && hit.expires > now) return hit.value
      entries.delete(key)
      if (entries.size >= maxEntries) {
        for (const [k, entry] of entries) if (entry.expires <= now) entries.delete(k)
        while (entries.size >= maxEntries) entries.delete(entries.keys().next().value!)
      }
      const value = load(key)
      entries.set(key, { expires: now + ttlMs, value })
      return value
    }
  }
  return {
    byOrigin: cached(async (origin): Promise<CustomDomainLookup> => {
      const { status, body } = await ask('/projects/v1/domain', { origin })
      if (status === 404 || status === 400) return { status: 'unknown' }
      const kind = (body as { kind?: unknown } | undefined)?.kind
      const domain = parseDomain(body)
      if (status !== 200 || !domain || (kind !== 'modal' && kind !== 'wallet'))
        return { status: 'unavailable' }
      return { status: 'found', kind, ...domain }
    }),
    byProject: cached(async (projectId): Promise<ProjectDomainsLookup> => {
      if (!PROJECT_ID.test(projectId)) return { status: 'found', domains: [] }
      const { status, body } = await ask('/projects/v1/domains', { projectId })
      const list = (body as { domains?: unknown } | undefined)?.domains
      if (status !== 200 || !Array.isArray(list)) return { status: 'unavailable' }
      const domains = list.map((d) => parseDomain(d, projectId))
      if (domains.some((d) => d === undefined)) return { status: 'unavailable' }
      return { status: 'found', domains: domains as CustomDomain[] }
    }),
  }
}

/**
 * The origin a request was sent to: this server's public scheme with the `Host` header, or
 * `undefined` when the header is missing or not a plain `host[:port]`.
 *
 * @example
 * requestOrigin('http:', 'Connect.App.localhost:4100') // 'http://connect.app.localhost:4100'
 */
export function requestOrigin(scheme: string, host: string | undefined): string | undefined {
  if (!host || !/^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/.test(host))
    return undefined
  try {
    return new URL(`${scheme}//${host}`).origin
  } catch {
    return undefined
  }
}
