/**
 * A tiny stand-in for apps/api's project endpoints, for tests: `GET /projects/v1/origins`,
 * plus the two endpoints the nginx deployment needs, `GET /projects/v1/frame-policy` and
 * `GET /projects/v1/frame-check` (a reference for how the API should answer them).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { frameAncestorsPolicy } from '../frameAncestorsPolicy.ts'
import { frameCheck } from '../frameCheck.ts'
import { PROJECT_ID, type ProjectOrigins } from '../projectOrigins.ts'

/** A running fake API whose projects and health the test changes at will. */
export type FakeApi = {
  url: string
  /** projectId → allowed origins; edit to simulate an admin change. */
  projects: Map<string, string[]>
  /** Every request's path and query, in order. */
  requests: string[]
  /** When set, every request answers this status. */
  failWith: number | undefined
  close(): Promise<void>
}

/** Options of {@link startFakeApi}. */
export type StartFakeApiParameters = {
  projects?: Record<string, string[]>
  /** The modal origin the wallet's frame policy allows; default http://127.0.0.1:4100. */
  modalOrigin?: string
}

/**
 * Starts the fake API on a free loopback port. Origins: 400 without projectId, 403 for an
 * unknown project, else `{ allowedOrigins }`.
 *
 * @example
 * const api = await startFakeApi({ projects: { 'porthole-demo': ['http://localhost:4000'] } })
 * await api.close()
 */
export async function startFakeApi(parameters: StartFakeApiParameters = {}): Promise<FakeApi> {
  const { modalOrigin = 'http://127.0.0.1:4100' } = parameters
  const api: FakeApi = {
    url: '',
    projects: new Map(Object.entries(parameters.projects ?? {})),
    requests: [],
    failWith: undefined,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
  const lookup = (projectId: string): ProjectOrigins => {
    const allowedOrigins = PROJECT_ID.test(projectId) ? api.projects.get(projectId) : undefined
    return allowedOrigins ? { status: 'found', allowedOrigins } : { status: 'unknown' }
  }
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://api.invalid')
    api.requests.push(`${url.pathname}${url.search}`)
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers })
      res.end(JSON.stringify(body))
    }
    if (api.failWith) return json(api.failWith, { error: 'failing on purpose' })
    const projectId = url.searchParams.get('projectId')?.trim() || undefined
    switch (url.pathname) {
      case '/projects/v1/origins': {
        if (!projectId) return json(400, { code: 'PROJECT_ID_NOT_CONFIGURED' })
        const origins = lookup(projectId)
        if (origins.status !== 'found') return json(403, { code: 'INVALID_PROJECT_ID' })
        return json(200, { allowedOrigins: origins.allowedOrigins })
      }
      case '/projects/v1/frame-policy': {
        const kind = url.searchParams.get('kind')
        if (kind !== 'modal' && kind !== 'wallet') return json(400, { code: 'INVALID_REQUEST' })
        const origins = projectId === undefined ? undefined : lookup(projectId)
        res.writeHead(204, {
          'x-frame-ancestors': frameAncestorsPolicy({ kind, projectId, origins, modalOrigin }),
          'cache-control': 'no-store',
        })
        return res.end()
      }
      case '/projects/v1/frame-check': {
        const origin = req.headers.origin
        const origins = projectId === undefined ? undefined : lookup(projectId)
        return json(200, frameCheck({ origin, projectId, origins }), {
          ...(origin ? { 'access-control-allow-origin': origin } : {}),
          vary: 'Origin',
          'cache-control': 'no-store',
        })
      }
      default:
        return json(404, { error: 'not found' })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return api
}
