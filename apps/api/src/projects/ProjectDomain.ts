import { getDomain } from 'tldts'
import type { DbExecutor } from '../db/Db.js'

/**
 * A project's custom domain (issue 18): its modal frame served on an origin of the dapp's own
 * site, and the wallet frame that modal uses.
 */
export type ProjectDomain = {
  projectId: string
  /** The custom modal origin, normalised (`https://connect.app.example`). */
  modalOrigin: string
  /**
   * The custom wallet origin the modal frames (`https://wallet.app.example`); `null`: Porthole's
   * own wallet origin, which then answers this modal (and no other) for the project.
   */
  walletOrigin: string | null
  /** Milliseconds since the epoch. */
  createdAt: number
}

/** Which frame an origin serves. */
export type ProjectDomainKind = 'modal' | 'wallet'

/** Thrown for an origin that cannot be a custom domain (see {@link normaliseCustomOrigin}). */
export class InvalidCustomDomainError extends Error {
  override name = 'InvalidCustomDomainError' as const
  constructor(origin: string, reason: string) {
    super(`Invalid custom domain ${JSON.stringify(origin)}: ${reason}`)
  }
}

/** Thrown when an origin is already another project's (or the other frame's) custom domain. */
export class CustomDomainTakenError extends Error {
  override name = 'CustomDomainTakenError' as const
  constructor(origin: string, owner: string) {
    super(`${origin} is already a custom domain of ${owner}`)
  }
}

/**
 * Normalises a custom frame origin (`scheme://host[:port]`, lower case, default port dropped) or
 * throws {@link InvalidCustomDomainError}. It must be one exact origin (no path, wildcard or
 * credentials) on a DNS name with a registrable domain (not an IP address, not a bare public
 * suffix such as `co.uk`), over https — http only for `localhost` names, which browsers treat as
 * secure (passkeys need a secure context). `reserved` origins (Porthole's own frame origins)
 * are refused.
 *
 * @example
 * normaliseCustomOrigin('HTTPS://Connect.App.Example:443/') // 'https://connect.app.example'
 * normaliseCustomOrigin('https://*.app.example') // throws InvalidCustomDomainError
 */
export function normaliseCustomOrigin(input: string, reserved: readonly string[] = []): string {
  const text = input.trim()
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new InvalidCustomDomainError(input, 'not a URL (give scheme://host[:port])')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new InvalidCustomDomainError(input, 'use https://')
  if (text.includes('*')) throw new InvalidCustomDomainError(input, 'no wildcards: one exact host')
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/')
    throw new InvalidCustomDomainError(input, 'an origin has no path, query or credentials')
  const host = url.hostname
  if (host.startsWith('[') || /^[0-9.]+$/.test(host))
    throw new InvalidCustomDomainError(input, 'a DNS name, not an IP address')
  const local = host === 'localhost' || host.endsWith('.localhost')
  if (url.protocol === 'http:' && !local)
    throw new InvalidCustomDomainError(input, 'use https:// (http only for *.localhost)')
  if (siteOf(host) === null)
    throw new InvalidCustomDomainError(input, `${host} is a public suffix, not a site`)
  const origin = url.origin
  if (reserved.some((r) => sameOrigin(r, origin)))
    throw new InvalidCustomDomainError(input, "that is Porthole's own frame origin")
  return origin
}

/**
 * The site (registrable domain, Public Suffix List with its private part) of a host name, as
 * browsers compute it for storage partitions and WebAuthn; `null` for an IP address or a public
 * suffix. An unlisted top-level name counts as a suffix (`app.localhost` is a site).
 *
 * @example
 * siteOf('wallet.app.example') // 'app.example'
 * siteOf('co.uk') // null
 */
export function siteOf(host: string): string | null {
  return getDomain(host, { allowPrivateDomains: true }) ?? null
}

/**
 * The relying party id of the passkeys a custom wallet frame creates: the wallet origin's site,
 * so they belong to the dapp's site (`app.example` for `https://wallet.app.example`).
 *
 * @example
 * passkeyRpIdOf('https://wallet.app.example') // 'app.example'
 */
export function passkeyRpIdOf(walletOrigin: string): string | null {
  return siteOf(new URL(walletOrigin).hostname)
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin
  } catch {
    return false
  }
}

type DomainRow = {
  modal_origin: string
  project_id: string
  wallet_origin: string | null
  created_at: number | string
}

const toDomain = (row: DomainRow): ProjectDomain => ({
  projectId: row.project_id,
  modalOrigin: row.modal_origin,
  walletOrigin: row.wallet_origin ?? null,
  createdAt: Number(row.created_at),
})

/**
 * Reads custom domains: every one, a project's, or the one serving `origin` (as modal or wallet).
 *
 * @internal
 */
export async function readProjectDomains(
  db: DbExecutor,
  filter: { projectId?: string; origin?: string } = {},
): Promise<ProjectDomain[]> {
  const columns = 'modal_origin, project_id, wallet_origin, created_at FROM project_domains'
  const rows =
    filter.origin !== undefined
      ? await db.query<DomainRow>(`SELECT ${columns} WHERE modal_origin = ? OR wallet_origin = ?`, [
          filter.origin,
          filter.origin,
        ])
      : filter.projectId !== undefined
        ? await db.query<DomainRow>(
            `SELECT ${columns} WHERE project_id = ? ORDER BY created_at, modal_origin`,
            [filter.projectId],
          )
        : await db.query<DomainRow>(
            `SELECT ${columns} ORDER BY project_id, created_at, modal_origin`,
          )
  return rows.map(toDomain)
}
