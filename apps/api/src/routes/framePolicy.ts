import {
  type FrontendKind,
  frameAncestorsPolicy,
  frameCheck,
  type ProjectOrigins,
} from '@porthole/shared'
import type { Context, Hono, MiddlewareHandler } from 'hono'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import { projectIdParam } from '../http/projectIdParam.js'
import type { ProjectCache } from '../projects/createProjectCache.js'

/** Path of the frame check; any host page calls it, so it is outside the frame-origin CORS. */
export const FRAME_CHECK_PATH = '/projects/v1/frame-check'

/** Options of {@link framePolicyRoutes}. */
export type FramePolicyRoutesParameters = {
  projects: ProjectCache
  /** Origin of the modal app, which may frame the wallet. */
  modalOrigin: string
}

/**
 * Who may frame the modal and wallet documents, for front-ends served by nginx
 * (infra/static-hosting/nginx/porthole.conf). Neither needs `st`/`sv`:
 * - `GET /projects/v1/frame-policy?kind=modal|wallet&projectId=` → always 204 with
 *   `X-Frame-Ancestors: frame-ancestors …` ({@link frameAncestorsPolicy}): an unknown or
 *   malformed project gets `'none'`, a missing one `*` (modal) or `'none'` (wallet). nginx's
 *   `auth_request` would pass a 401/403 to the browser, so only a bad `kind` is an error
 *   (400 `INVALID_REQUEST`).
 * - `GET /projects/v1/frame-check?projectId=` → `{ allowed, reason? }` ({@link frameCheck})
 *   for the request's `Origin`, which it echoes in `Access-Control-Allow-Origin`.
 *
 * @example
 * framePolicyRoutes(app, [rateLimiter], { projects, modalOrigin: 'http://127.0.0.1:4100' })
 */
export function framePolicyRoutes(
  app: Hono<AppEnv>,
  guard: readonly MiddlewareHandler<AppEnv>[],
  { projects, modalOrigin }: FramePolicyRoutesParameters,
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

  app.use('/projects/v1/frame-policy', ...guard)
  app.get('/projects/v1/frame-policy', async (c) => {
    const kind = c.req.query('kind')
    if (!isFrontendKind(kind)) throw new ApiError('INVALID_REQUEST')
    const policy = frameAncestorsPolicy({ kind, ...(await request(c)), modalOrigin })
    return c.body(null, 204, { 'X-Frame-Ancestors': policy, 'Cache-Control': 'no-store' })
  })

  app.use(FRAME_CHECK_PATH, ...guard)
  app.get(FRAME_CHECK_PATH, async (c) => {
    const origin = c.req.header('origin')
    return c.json(frameCheck({ origin, ...(await request(c)) }), 200, {
      'Cache-Control': 'no-store',
      Vary: 'Origin',
      ...(origin && isSerializedOrigin(origin) ? { 'Access-Control-Allow-Origin': origin } : {}),
    })
  })
}

function isFrontendKind(kind: string | undefined): kind is FrontendKind {
  return kind === 'modal' || kind === 'wallet'
}

/** `null` or `scheme://host[:port]`, as browsers send it (the Node server's `/frame-check` check). */
function isSerializedOrigin(origin: string): boolean {
  return origin === 'null' || /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+$/i.test(origin)
}
