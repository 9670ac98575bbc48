import {
  type FrontendKind,
  frameAncestorsPolicy,
  frameCheck,
  type ProjectOrigins,
  walletFrameCheck,
} from '@porthole/shared'
import type { Context, Hono, MiddlewareHandler } from 'hono'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import { projectIdParam } from '../http/projectIdParam.js'
import type { DomainCache } from '../projects/createDomainCache.js'
import type { ProjectCache } from '../projects/createProjectCache.js'
import { type ProjectDomain, passkeyRpIdOf } from '../projects/ProjectDomain.js'

/** Path of the frame check; any host page calls it, so it is outside the frame-origin CORS. */
export const FRAME_CHECK_PATH = '/projects/v1/frame-check'

/** Options of {@link framePolicyRoutes}. */
export type FramePolicyRoutesParameters = {
  projects: ProjectCache
  /** Origin of the modal app, which may frame the wallet. */
  modalOrigin: string
  /** Origin of Porthole's own wallet app (a `frameOrigin` naming it is not a custom domain). */
  walletOrigin?: string
  /** Projects' custom domains (issue 18); none when left out. */
  domains?: DomainCache
}

/** Path of the custom-domain lookup by origin (the static hosting's host routing). */
export const DOMAIN_PATH = '/projects/v1/domain'
/** Path of a project's custom domains. */
export const DOMAINS_PATH = '/projects/v1/domains'

const NO_DOMAINS: DomainCache = {
  byOrigin: async () => undefined,
  byProject: async () => [],
}

/**
 * Who may frame the modal and wallet documents, for front-ends served by nginx
 * (infra/static-hosting/nginx/porthole.conf) and the Node static hosting. None needs `st`/`sv`:
 * - `GET /projects/v1/frame-policy?kind=modal|wallet&projectId=[&frameOrigin=]` → always 204 with
 *   `X-Frame-Ancestors: frame-ancestors …` ({@link frameAncestorsPolicy}): an unknown or
 *   malformed project gets `'none'`, a missing one `*` (modal) or `'none'` (wallet). nginx's
 *   `auth_request` would pass a 401/403 to the browser, so only a bad `kind` or `frameOrigin` is an
 *   error (400 `INVALID_REQUEST`). `frameOrigin` is the document's own origin when it is not
 *   Porthole's: a project's custom domain answers only for its project and its frame (another
 *   `projectId`, the other frame's kind or an unknown origin get `'none'`; no `projectId` means
 *   the domain's), and a custom wallet is framed by its own modal. Porthole's wallet origin is
 *   framed by a project's custom modal instead of Porthole's when that modal has no wallet
 *   origin of its own. The answer also carries the frame's runtime origins:
 *   `X-Porthole-Modal-Origin`, `X-Porthole-Wallet-Origin` and, for a custom wallet,
 *   `X-Porthole-Passkey-Rp-Id` (nginx writes them into the document's configuration).
 * - `GET /projects/v1/frame-check?projectId=[&frameOrigin=]` → `{ allowed, reason? }`
 *   ({@link frameCheck}) for the request's `Origin`, which it echoes in
 *   `Access-Control-Allow-Origin`; with `frameOrigin` (a custom modal domain) for that domain's
 *   project, whatever `projectId` says. With `kind=wallet` (and `site=`, the host the modal is on;
 *   `frameOrigin`, the wallet's own origin when it is not Porthole's) it answers whether that
 *   wallet document lets the request's `Origin`, a modal, frame it there ({@link walletFrameCheck}):
 *   a modal whose wallet frame did not load tells 'Unverified Domain' from a network failure.
 * - `GET /projects/v1/domain?origin=` → the custom domain serving that origin, `{ kind,
 *   projectId, modalOrigin, walletOrigin, passkeyRpId }`, or 404 `NOT_FOUND`: the static
 *   hosting's host routing.
 * - `GET /projects/v1/domains?projectId=` → `{ domains: [{ modalOrigin, walletOrigin,
 *   passkeyRpId }] }`, the project's custom domains (empty for an unknown project).
 *
 * @example
 * framePolicyRoutes(app, [rateLimiter], { projects, domains, modalOrigin: 'http://127.0.0.1:4100' })
 */
export function framePolicyRoutes(
  app: Hono<AppEnv>,
  guard: readonly MiddlewareHandler<AppEnv>[],
  { projects, modalOrigin, walletOrigin, domains = NO_DOMAINS }: FramePolicyRoutesParameters,
): void {
  const lookup = async (projectId: string): Promise<ProjectOrigins> => {
    const project = await projects.get(projectId)
    return project ? { status: 'found', allowedOrigins: project.origins } : { status: 'unknown' }
  }
  // A malformed id (a respelling such as "shop ") is an unknown project: frames get 'none'.
  const request = async (c: Context<AppEnv>) => {
    const param = projectIdParam(c)
    if (param.status === 'missing') return { projectId: undefined, origins: undefined }
    if (param.status === 'malformed')
      return { projectId: c.req.query('projectId'), origins: { status: 'unknown' } as const }
    return { projectId: param.projectId, origins: await lookup(param.projectId) }
  }
  const NONE = { projectId: 'none', origins: { status: 'unknown' } as const }

  /**
   * Who may frame a `kind` document of the request's project: its project's origins and the modal
   * it answers, with the runtime origins nginx writes into it. `frameOrigin` is the document's own
   * origin when it is not Porthole's: a custom domain's project and frame only, else 'none'.
   */
  const framersOf = async (
    c: Context<AppEnv>,
    kind: FrontendKind,
    rawOrigin: string | undefined,
  ) => {
    const headers: Record<string, string> = {}
    if (rawOrigin !== undefined && rawOrigin !== '') {
      // A document on a custom domain: its project, its frame, its own modal.
      const origin = exactOrigin(rawOrigin)
      if (origin === undefined) throw new ApiError('INVALID_REQUEST')
      const found = await domains.byOrigin(origin)
      const param = projectIdParam(c)
      const usable =
        found !== undefined &&
        found.kind === kind &&
        (param.status === 'missing' ||
          (param.status === 'valid' && param.projectId === found.domain.projectId))
      // Not a document this domain serves: framed by nobody.
      if (!usable) return { target: { ...NONE, modalOrigin }, headers, refused: true }
      const { domain } = found
      Object.assign(headers, runtimeHeaders(domain))
      const target = {
        projectId: domain.projectId,
        origins: await lookup(domain.projectId),
        modalOrigin: domain.modalOrigin,
      }
      return { target, headers, refused: false }
    }
    const target = await request(c)
    // Porthole's wallet origin answers a project's custom modal that has no wallet of its own.
    const bound =
      kind === 'wallet' && target.projectId !== undefined && target.origins?.status === 'found'
        ? (await domains.byProject(target.projectId)).find((d) => d.walletOrigin === null)
        : undefined
    if (bound) headers['X-Porthole-Modal-Origin'] = bound.modalOrigin
    const framers = { ...target, modalOrigin: bound?.modalOrigin ?? modalOrigin }
    return { target: framers, headers, refused: false }
  }

  app.use('/projects/v1/frame-policy', ...guard)
  app.get('/projects/v1/frame-policy', async (c) => {
    const kind = c.req.query('kind')
    if (!isFrontendKind(kind)) throw new ApiError('INVALID_REQUEST')
    const { target, headers } = await framersOf(c, kind, c.req.query('frameOrigin'))
    return c.body(null, 204, {
      'X-Frame-Ancestors': frameAncestorsPolicy({ kind, ...target }),
      'Cache-Control': 'no-store',
      ...headers,
    })
  })

  app.use(FRAME_CHECK_PATH, ...guard)
  app.get(FRAME_CHECK_PATH, async (c) => {
    const origin = c.req.header('origin')
    const cors = {
      'Cache-Control': 'no-store',
      Vary: 'Origin',
      ...(origin && isSerializedOrigin(origin) ? { 'Access-Control-Allow-Origin': origin } : {}),
    }
    // Asked by a modal whose wallet frame did not load: does that wallet origin answer it here?
    // (Its own origin, when it is not Porthole's, in `frameOrigin`.)
    if (c.req.query('kind') === 'wallet') {
      const own = c.req.query('frameOrigin')
      // Porthole's own wallet origin named: not a custom domain.
      const { target, refused } = await framersOf(
        c,
        'wallet',
        own === walletOrigin ? undefined : own,
      )
      const result = refused
        ? ({ allowed: false, reason: 'Unverified Domain' } as const)
        : walletFrameCheck({ origin, site: c.req.query('site'), ...target })
      return c.json(result, 200, cors)
    }
    // Asked for a custom modal domain (nginx passes the document's origin): its own project.
    const raw = c.req.query('frameOrigin')
    let target: Awaited<ReturnType<typeof request>>
    if (raw !== undefined && raw !== '') {
      const own = exactOrigin(raw)
      const found = own === undefined ? undefined : await domains.byOrigin(own)
      target =
        found?.kind === 'modal'
          ? { projectId: found.domain.projectId, origins: await lookup(found.domain.projectId) }
          : NONE
    } else target = await request(c)
    return c.json(frameCheck({ origin, ...target }), 200, cors)
  })

  app.use(DOMAIN_PATH, ...guard)
  app.get(DOMAIN_PATH, async (c) => {
    const origin = exactOrigin(c.req.query('origin') ?? '')
    if (origin === undefined) throw new ApiError('INVALID_REQUEST')
    const found = await domains.byOrigin(origin)
    if (!found) throw new ApiError('NOT_FOUND')
    return c.json({
      kind: found.kind,
      projectId: found.domain.projectId,
      ...describe(found.domain),
    })
  })

  app.use(DOMAINS_PATH, ...guard)
  app.get(DOMAINS_PATH, async (c) => {
    const param = projectIdParam(c)
    if (param.status !== 'valid') throw new ApiError('INVALID_REQUEST')
    return c.json({ domains: (await domains.byProject(param.projectId)).map(describe) })
  })
}

/** A custom domain as the hosting needs it. */
function describe(domain: ProjectDomain) {
  return {
    modalOrigin: domain.modalOrigin,
    walletOrigin: domain.walletOrigin,
    passkeyRpId: domain.walletOrigin === null ? null : passkeyRpIdOf(domain.walletOrigin),
  }
}

/** The runtime origins of a custom domain's documents (nginx writes them into the config). */
function runtimeHeaders(domain: ProjectDomain): Record<string, string> {
  const { passkeyRpId } = describe(domain)
  return {
    'X-Porthole-Modal-Origin': domain.modalOrigin,
    ...(domain.walletOrigin ? { 'X-Porthole-Wallet-Origin': domain.walletOrigin } : {}),
    ...(passkeyRpId ? { 'X-Porthole-Passkey-Rp-Id': passkeyRpId } : {}),
  }
}

/** `value` when it is exactly a serialised http(s) origin (lower case, no default port), else undefined. */
function exactOrigin(value: string): string | undefined {
  try {
    const url = new URL(value)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
    return url.origin === value ? value : undefined
  } catch {
    return undefined
  }
}

function isFrontendKind(kind: string | undefined): kind is FrontendKind {
  return kind === 'modal' || kind === 'wallet'
}

/** `null` or `scheme://host[:port]`, as browsers send it (the Node server's `/frame-check` check). */
function isSerializedOrigin(origin: string): boolean {
  return origin === 'null' || /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+$/i.test(origin)
}
