/**
 * A small `node:http` server for one Porthole front-end (modal or wallet) on its own origin:
 * static files with per-project CSP, runtime config injection, caching, compression and,
 * on the modal, `GET /frame-check`.
 */
import { createHash } from 'node:crypto'
import { readFile, realpath, stat } from 'node:fs/promises'
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve, sep } from 'node:path'
import {
  type ContentEncoding,
  endpoints,
  type FrontendKind,
  frameAncestorsPolicy,
  frameCheck,
  negotiateEncoding,
} from '@porthole/shared'
import { cacheControl } from './cacheControl.ts'
import { compress, decodesTo, ENCODING_SUFFIX } from './contentEncoding.ts'
import { contentSecurityPolicy } from './contentSecurityPolicy.ts'
import { contentType, isCompressible } from './contentType.ts'
import { createCustomDomainsCache, requestOrigin } from './customDomains.ts'
import { projectIdParameter } from './projectIdParameter.ts'
import { createProjectOriginsCache } from './projectOrigins.ts'
import { injectRuntimeConfig } from './runtimeConfig.ts'
import { isSdkPath } from './sdkFiles.ts'

/** Options of {@link createStaticServer}. */
export type StaticServerParameters = {
  /** Folder served (a Vite `dist`). */
  root: string
  kind: FrontendKind
  apiUrl: string
  relayUrl: string
  /** The recovery key service (wallet CSP and runtime config); default `endpoints().recovery`. */
  recoveryUrl?: string
  /**
   * The WalletConnect Cloud project id for the public relay; default
   * `PORTHOLE_WALLETCONNECT_PROJECT_ID` (unset: the modal sends the Porthole project id).
   */
  walletConnectProjectId?: string
  /**
   * Chain RPC origins the modal may call directly, as fallbacks of the API's RPC proxy; default
   * `PORTHOLE_RPC_ORIGINS` (comma list), else none.
   */
  rpcOrigins?: string[]
  /** Public URLs of the two front-ends. */
  frameOrigins: { modal: string; wallet: string }
  /**
   * More files by URL path, e.g. `{ '/sdk.js': 'packages/sdk/dist/sdk.js' }`; `sdkFiles()` gives
   * the SDK at `/sdk.js` and `/sdk/<version>/sdk.js`.
   */
  extraFiles?: Record<string, string>
  /** How long a project's allowlist (and a custom-domain lookup) is reused; default 1000 ms. */
  projectCacheMs?: number
  /**
   * Route by `Host` (issue 18): this server's own host (of `frameOrigins[kind]`) and
   * `extraHosts` serve Porthole's origin; a host the API lists as a project's custom domain for
   * this frame (`GET {api}/projects/v1/domain?origin=`) serves that project only, with its
   * origins in the runtime config and CSP; any other host is refused (421, never the app).
   * Default false: every host is served as Porthole's origin.
   */
  customDomains?: boolean
  /** More `Host` values (exactly as sent, e.g. `localhost:4100`) for Porthole's own origin. */
  extraHosts?: readonly string[]
}

/** A created, not yet listening, static server. */
export type StaticServer = {
  server: Server
  /** Listens (host default `127.0.0.1`; port 0 picks one) and resolves with the URL. */
  listen(port: number, host?: string): Promise<string>
  close(): Promise<void>
}

/** Options of {@link startStaticServer}. */
export type StartStaticServerParameters = StaticServerParameters & { port: number; host?: string }

/** A listening static server. */
export type StartStaticServerReturnType = { url: string; close(): Promise<void> }

const COMPRESS_MIN_BYTES = 512
const COMMON_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' }
/** SVG can run script when opened directly: keep it inert. */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
const ERROR_CSP = "default-src 'none'; frame-ancestors 'none'"

/** Where a request is served: Porthole's origin, or a project's custom domain. */
type Route = {
  /** The project a custom domain serves (its documents serve no other); none on Porthole's. */
  pinnedProject: string | undefined
  /** The custom domain's host, as registered; none on Porthole's. */
  domainHost: string | undefined
  modalUrl: string
  walletUrl: string
  passkeyRpId: string | undefined
}

type Entry = {
  signature: string
  body: Buffer
  hash: string
  compressible: boolean
  /** Brotli's text mode (everything compressible but wasm). */
  text: boolean
  /** The file whose `.br`/`.gz` siblings may hold the body; none when the server changes it. */
  siblingsOf: string | undefined
  variants: Partial<Record<'br' | 'gzip', Promise<Buffer>>>
}

/**
 * Creates the server of one front-end. HTML documents get the CSP of their project (from
 * `?projectId=`; a duplicate, case-variant, encoded or malformed one is refused with 400, see
 * `projectIdParameter`), the injected runtime config and `no-cache`; hashed `/assets/` and
 * `/sdk/<version>/sdk.js` are immutable; the SDK's paths answer any origin (CORS `*`, CORP
 * `cross-origin`), so `<script integrity crossorigin>` works. A compressed body (br, gzip) is
 * the file's precompressed sibling (`name.br`, `name.gz`, see `precompress()`) when that decodes
 * to exactly the file, else compressed here at brotli 11 / gzip 9 (HTML always: its config is
 * injected); either is read or made once per file version and kept in memory.
 *
 * @example
 * const modal = createStaticServer({
 *   root: 'apps/modal-host/dist',
 *   kind: 'modal',
 *   apiUrl: 'http://127.0.0.1:4300',
 *   relayUrl: 'ws://127.0.0.1:4400',
 *   frameOrigins: { modal: 'http://127.0.0.1:4100', wallet: 'http://127.0.0.1:4200' },
 *   extraFiles: sdkFiles({ file: 'packages/sdk/dist/sdk.js', version: '0.1.0' }),
 * })
 * const url = await modal.listen(4100)
 */
export function createStaticServer(parameters: StaticServerParameters): StaticServer {
  const { kind, apiUrl, relayUrl, frameOrigins, projectCacheMs = 1000 } = parameters
  const recoveryUrl = parameters.recoveryUrl ?? endpoints().recovery
  const root = resolve(parameters.root)
  const extraFiles = new Map(
    Object.entries(parameters.extraFiles ?? {}).map(([path, file]) => [path, resolve(file)]),
  )
  const origins = createProjectOriginsCache({ apiUrl, ttlMs: projectCacheMs })
  const modalOrigin = new URL(frameOrigins.modal).origin
  const own = new URL(frameOrigins[kind])
  const ownHosts = new Set(
    [own.host, ...(parameters.extraHosts ?? [])].map((host) => host.toLowerCase()),
  )
  const domains = parameters.customDomains
    ? createCustomDomainsCache({ apiUrl, ttlMs: projectCacheMs })
    : undefined
  const ownRoute: Route = {
    pinnedProject: undefined,
    domainHost: undefined,
    modalUrl: frameOrigins.modal,
    walletUrl: frameOrigins.wallet,
    passkeyRpId: undefined,
  }
  const runtimeConfig = {
    apiUrl,
    walletUrl: frameOrigins.wallet,
    modalUrl: frameOrigins.modal,
    relayUrl,
    recoveryUrl,
    walletConnectProjectId:
      parameters.walletConnectProjectId ?? process.env.PORTHOLE_WALLETCONNECT_PROJECT_ID ?? '',
    rpcOrigins: (
      parameters.rpcOrigins ??
      (process.env.PORTHOLE_RPC_ORIGINS ?? '').split(',').filter((o) => o.trim())
    ).map((o) => new URL(o.trim()).origin),
  }
  const entries = new Map<string, Promise<Entry>>()

  const loadEntry = async (
    file: string,
    signature: string,
    route: Route | undefined,
  ): Promise<Entry> => {
    const html = route !== undefined
    let body = await readFile(file)
    if (route)
      body = Buffer.from(
        injectRuntimeConfig(body.toString('utf8'), {
          ...runtimeConfig,
          modalUrl: route.modalUrl,
          walletUrl: route.walletUrl,
          ...(route.passkeyRpId ? { passkeyRpId: route.passkeyRpId } : {}),
        }),
      )
    const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27)
    const type = contentType(file)
    const compressible = isCompressible(type) && body.length >= COMPRESS_MIN_BYTES
    const text = type !== 'application/wasm'
    return {
      signature,
      body,
      hash,
      compressible,
      text,
      siblingsOf: html ? undefined : file,
      variants: {},
    }
  }

  // A sibling is used only when it decodes to this very body: one left by another build (older
  // or newer, e.g. a file put back with its old mtime) or a half-written one never is.
  const encode = async (entry: Entry, encoding: 'br' | 'gzip'): Promise<Buffer> => {
    if (entry.siblingsOf !== undefined) {
      const sibling = await readFile(entry.siblingsOf + ENCODING_SUFFIX[encoding]).catch(
        () => undefined,
      )
      if (sibling && (await decodesTo(sibling, encoding, entry.body))) return sibling
    }
    return compress(entry.body, encoding, { text: entry.text })
  }

  /** A file's entry; a document's (`route` given) is kept per route, its config injected. */
  const entryFor = async (file: string, route: Route | undefined): Promise<Entry | undefined> => {
    const info = await stat(file).catch(() => undefined)
    if (!info?.isFile()) return undefined
    const signature = `${info.ino}:${info.size}:${info.mtimeMs}`
    const key = route
      ? `${file}\n${route.modalUrl} ${route.walletUrl} ${route.passkeyRpId ?? ''}`
      : file
    const cached = entries.get(key)
    if (cached) {
      const entry = await cached.catch(() => undefined)
      if (entry?.signature === signature) return entry
    }
    const loading = loadEntry(file, signature, route)
    entries.set(key, loading)
    return loading
  }

  /** Which origin a request reached, or why it is refused. */
  const routeOf = async (
    req: IncomingMessage,
  ): Promise<Route | { status: number; text: string }> => {
    if (!domains) return ownRoute
    const host = req.headers.host
    if (host !== undefined && ownHosts.has(host.toLowerCase())) return ownRoute
    const origin = requestOrigin(own.protocol, host)
    const unknown = {
      status: 421,
      text: `Misdirected Request: ${host ?? 'a request without a Host'} is not a Porthole ${kind} domain.`,
    }
    // Only names on this server's port can be registered for it: no lookup for the others.
    if (origin === undefined || new URL(origin).port !== own.port) return unknown
    const found = await domains.byOrigin(origin)
    if (found.status === 'unavailable')
      return { status: 503, text: 'Service Unavailable: this domain cannot be checked now.' }
    if (found.status === 'unknown' || found.kind !== kind) return unknown
    return {
      pinnedProject: found.projectId,
      domainHost: new URL(origin).host,
      modalUrl: found.modalOrigin,
      walletUrl: found.walletOrigin ?? frameOrigins.wallet,
      passkeyRpId: kind === 'wallet' ? (found.passkeyRpId ?? undefined) : undefined,
    }
  }

  /**
   * Porthole's own wallet origin answers a project's custom modal that has no wallet of its own
   * (the API's `/projects/v1/domains`), else Porthole's modal.
   */
  const walletRouteFor = async (route: Route, projectId: string | undefined): Promise<Route> => {
    if (!domains || kind !== 'wallet' || route !== ownRoute || projectId === undefined) return route
    const lookup = await domains.byProject(projectId)
    const bound =
      lookup.status === 'found' ? lookup.domains.find((d) => d.walletOrigin === null) : undefined
    return bound ? { ...route, modalUrl: bound.modalOrigin } : route
  }

  let realRoot: string | undefined
  const resolveFile = async (pathname: string): Promise<string | undefined> => {
    const extra = extraFiles.get(pathname)
    if (extra) return extra
    let decoded: string
    try {
      decoded = decodeURIComponent(pathname === '/' ? '/index.html' : pathname)
    } catch {
      return undefined
    }
    if (decoded.includes('\0') || decoded.includes('\\')) return undefined
    if (decoded.split('/').some((segment) => segment.startsWith('.'))) return undefined
    const file = resolve(root, `.${decoded}`)
    if (!file.startsWith(root + sep)) return undefined
    // Symbolic links must not lead out of the root either.
    realRoot ??= await realpath(root).catch(() => undefined)
    const real = await realpath(file).catch(() => undefined)
    if (!realRoot || !real?.startsWith(realRoot + sep)) return undefined
    return file
  }

  const projectIdOf = (url: URL): string | undefined =>
    url.searchParams.get('projectId')?.trim() || undefined

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendText(res, 405, 'Method Not Allowed', { allow: 'GET, HEAD' })
    let url: URL
    try {
      const target = req.url ?? '/'
      // Origin-form targets are paths (even `//x`); absolute-form ones are full URLs.
      url = new URL(target.startsWith('/') ? `http://static.invalid${target}` : target)
    } catch {
      return sendText(res, 400, 'Bad Request')
    }
    const routed = await routeOf(req)
    if (!('walletUrl' in routed)) return sendText(res, routed.status, routed.text)
    if (kind === 'modal' && url.pathname === '/frame-check') {
      // A custom domain answers for its own project only.
      const projectId = routed.pinnedProject ?? projectIdOf(url)
      const origin = req.headers.origin
      const result = frameCheck({
        origin,
        projectId,
        origins: projectId === undefined ? undefined : await origins.get(projectId),
      })
      const body = JSON.stringify(result)
      res.writeHead(200, {
        ...COMMON_HEADERS,
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        'cache-control': 'no-store',
        vary: 'Origin',
        ...(origin && isHeaderSafeOrigin(origin) ? { 'access-control-allow-origin': origin } : {}),
      })
      res.end(req.method === 'HEAD' ? undefined : body)
      return
    }

    const file = await resolveFile(url.pathname)
    const type = file ? contentType(file) : ''
    const html = type.startsWith('text/html')
    // The app and another reader (nginx, a CDN function) must never see different projects.
    const project = html ? projectIdParameter(url.search) : undefined
    if (project?.status === 'invalid')
      return sendText(
        res,
        400,
        'Bad Request: give one projectId parameter, spelled exactly so, holding a project id (1-64 letters, digits, - or _).',
      )
    // A custom domain serves its own project only: another project's page would be framed by
    // that project's allowlist under the dapp's name.
    if (
      project?.status === 'valid' &&
      routed.pinnedProject !== undefined &&
      project.projectId !== routed.pinnedProject
    )
      return sendText(
        res,
        403,
        `Forbidden: ${routed.domainHost} serves project ${routed.pinnedProject} only.`,
      )
    const projectId =
      routed.pinnedProject ?? (project?.status === 'valid' ? project.projectId : undefined)
    const route = html ? await walletRouteFor(routed, projectId) : undefined
    const entry = file ? await entryFor(file, route) : undefined
    if (!entry) return sendText(res, 404, 'Not Found')

    const headers: OutgoingHttpHeaders = {
      ...COMMON_HEADERS,
      'content-type': type,
      'cache-control': cacheControl(url.pathname, type),
    }
    if (route) {
      headers['content-security-policy'] = contentSecurityPolicy({
        kind,
        apiUrl,
        relayUrl,
        recoveryUrl,
        rpcOrigins: runtimeConfig.rpcOrigins,
        walletUrl: route.walletUrl,
        frameAncestors: frameAncestorsPolicy({
          kind,
          projectId,
          origins: projectId === undefined ? undefined : await origins.get(projectId),
          modalOrigin: route === ownRoute ? modalOrigin : new URL(route.modalUrl).origin,
        }),
      })
    } else if (type === 'image/svg+xml') headers['content-security-policy'] = SVG_CSP
    if (isSdkPath(url.pathname)) {
      // Public code: hosts load it with `integrity` + `crossorigin` (a CORS request) or with
      // COEP: require-corp.
      headers['cross-origin-resource-policy'] = 'cross-origin'
      headers['access-control-allow-origin'] = '*'
    }

    let encoding: ContentEncoding = 'identity'
    if (entry.compressible) {
      headers.vary = 'Accept-Encoding'
      encoding = negotiateEncoding(req.headers['accept-encoding'])
    }
    const etag = `"${entry.hash}${encoding === 'identity' ? '' : `-${encoding}`}"`
    headers.etag = etag
    if (etagMatches(req.headers['if-none-match'], etag)) {
      delete headers['content-type']
      res.writeHead(304, headers)
      res.end()
      return
    }
    let body = entry.body
    if (encoding !== 'identity') {
      let variant = entry.variants[encoding]
      if (!variant) {
        const pending = encode(entry, encoding)
        entry.variants[encoding] = pending
        pending.catch(() => delete entry.variants[encoding])
        variant = pending
      }
      body = await variant
      headers['content-encoding'] = encoding
    }
    headers['content-length'] = body.length
    res.writeHead(200, headers)
    res.end(req.method === 'HEAD' ? undefined : body)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error(`static-hosting (${kind}): ${req.method} ${req.url} failed`, error)
      if (!res.headersSent) sendText(res, 500, 'Internal Server Error')
      else res.destroy()
    })
  })

  return {
    server,
    listen(port, host = '127.0.0.1') {
      return new Promise((resolveUrl, reject) => {
        server.once('error', reject)
        server.listen(port, host, () => {
          server.off('error', reject)
          const address = server.address() as AddressInfo
          const urlHost = address.address.includes(':') ? `[${address.address}]` : address.address
          // An origin configured on port 0 (a free port) is this listening address.
          if (own.port === '0') ownHosts.add(`${urlHost}:${address.port}`)
          resolveUrl(`http://${urlHost}:${address.port}`)
        })
      })
    },
    close() {
      return new Promise((resolveClose) => {
        if (!server.listening) return resolveClose()
        server.close(() => resolveClose())
        server.closeAllConnections()
      })
    },
  }
}

/**
 * Creates a static server and listens on `port` (`host` default `127.0.0.1`).
 *
 * @example
 * const wallet = await startStaticServer({
 *   port: 4200,
 *   root: 'apps/embedded-wallet/dist',
 *   kind: 'wallet',
 *   apiUrl: 'http://127.0.0.1:4300',
 *   relayUrl: 'ws://127.0.0.1:4400',
 *   frameOrigins: { modal: 'http://127.0.0.1:4100', wallet: 'http://127.0.0.1:4200' },
 * })
 * await wallet.close()
 */
export async function startStaticServer(
  parameters: StartStaticServerParameters,
): Promise<StartStaticServerReturnType> {
  const { port, host, ...rest } = parameters
  const server = createStaticServer(rest)
  const url = await server.listen(port, host)
  return { url, close: server.close }
}

function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  extra: OutgoingHttpHeaders = {},
): void {
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'content-security-policy': ERROR_CSP,
    'cache-control': 'no-store',
    ...extra,
  })
  res.end(res.req.method === 'HEAD' ? undefined : text)
}

function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false
  if (ifNoneMatch.trim() === '*') return true
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}

function isHeaderSafeOrigin(origin: string): boolean {
  return origin === 'null' || /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+$/i.test(origin)
}
