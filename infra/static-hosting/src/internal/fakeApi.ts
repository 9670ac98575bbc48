/**
 * A tiny stand-in for apps/api's `GET /projects/v1/origins` and its custom-domain lookups
 * (`/projects/v1/domain?origin=`, `/projects/v1/domains?projectId=`), for tests that need to
 * break it at will (failures, request counting). The nginx test runs against the real API.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { CustomDomain } from '../customDomains.ts'
import { PROJECT_ID } from '../projectOrigins.ts'

/** A running fake API whose projects and health the test changes at will. */
export type FakeApi = {
  url: string
  /** projectId → allowed origins; edit to simulate an admin change. */
  projects: Map<string, string[]>
  /** Custom domains; edit to simulate `project domain add|remove`. */
  domains: CustomDomain[]
  /** Every request's path and query, in order. */
  requests: string[]
  /** When set, every request answers this status. */
  failWith: number | undefined
  close(): Promise<void>
}

/** Options of {@link startFakeApi}. */
export type StartFakeApiParameters = {
  projects?: Record<string, string[]>
  domains?: CustomDomain[]
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
  const api: FakeApi = {
    url: '',
    projects: new Map(Object.entries(parameters.projects ?? {})),
    domains: [...(parameters.domains ?? [])],
    requests: [],
    failWith: undefined,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://api.invalid')
    api.requests.push(`${url.pathname}${url.search}`)
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    if (api.failWith) return json(api.failWith, { error: 'failing on purpose' })
    if (url.pathname === '/projects/v1/domain') {
      const origin = url.searchParams.get('origin')
      const domain = api.domains.find((d) => d.modalOrigin === origin || d.walletOrigin === origin)
      if (!domain) return json(404, { code: 'NOT_FOUND' })
      return json(200, { kind: domain.modalOrigin === origin ? 'modal' : 'wallet', ...domain })
    }
    if (url.pathname === '/projects/v1/domains') {
      const projectId = url.searchParams.get('projectId')
      return json(200, {
        domains: api.domains
          .filter((d) => d.projectId === projectId)
          .map(({ projectId: _, ...d }) => d),
      })
    }
    if (url.pathname !== '/projects/v1/origins') return json(404, { error: 'not found' })
    const projectId = url.searchParams.get('projectId')?.trim() || undefined
    if (!projectId) return json(400, { code: 'PROJECT_ID_NOT_CONFIGURED' })
    const allowedOrigins = PROJECT_ID.test(projectId) ? api.projects.get(projectId) : undefined
    if (!allowedOrigins) return json(403, { code: 'INVALID_PROJECT_ID' })
    return json(200, { allowedOrigins })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return api
}
