import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { requestOrigin } from './customDomains.ts'
import { type FakeApi, startFakeApi } from './internal/fakeApi.ts'
import { sdkFiles } from './sdkFiles.ts'
import { type StartStaticServerReturnType, startStaticServer } from './server.ts'

/** Porthole's own origins; the servers listen elsewhere and are reached by `Host`. */
const frameOrigins = { modal: 'http://127.0.0.1:4100', wallet: 'http://wallet.localhost:4200' }
const CONNECT = 'http://connect.app.localhost:4100'
const WALLET = 'http://wallet.app.localhost:4200'
const BOUND_MODAL = 'http://connect.bound.localhost:4100'
const INDEX =
  '<!doctype html><html><head><meta name="porthole-config" content="__PORTHOLE_CONFIG__"></head><body>PORTHOLE APP</body></html>\n'
const DOMAINS = [
  {
    projectId: 'porthole-demo',
    modalOrigin: CONNECT,
    walletOrigin: WALLET,
    passkeyRpId: 'app.localhost',
  },
  { projectId: 'bound', modalOrigin: BOUND_MODAL, walletOrigin: null, passkeyRpId: null },
]

let dir: string
let api: FakeApi
let modal: StartStaticServerReturnType
let wallet: StartStaticServerReturnType

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'porthole-domains-'))
  await mkdir(join(dir, 'dist', 'assets'), { recursive: true })
  await Promise.all([
    writeFile(join(dir, 'dist', 'index.html'), INDEX),
    writeFile(join(dir, 'dist', 'assets', 'index-BXk2c8Ab.js'), 'console.log(1)\n'),
    writeFile(join(dir, 'sdk.js'), 'window.Porthole = {}\n'),
  ])
  api = await startFakeApi({
    projects: {
      'porthole-demo': ['http://app.localhost:4000', 'http://localhost:4000'],
      attacker: ['http://evil.localhost:4666'],
      bound: ['https://bound.example'],
    },
    domains: DOMAINS,
  })
  const common = {
    root: join(dir, 'dist'),
    apiUrl: api.url,
    relayUrl: 'ws://127.0.0.1:4400',
    frameOrigins,
    port: 0,
    customDomains: true,
    projectCacheMs: 0,
  }
  modal = await startStaticServer({
    ...common,
    kind: 'modal',
    extraHosts: ['localhost:4100'],
    extraFiles: sdkFiles({ file: join(dir, 'sdk.js'), version: '1.2.3' }),
  })
  wallet = await startStaticServer({ ...common, kind: 'wallet' })
})

beforeEach(() => {
  api.domains = [...DOMAINS]
  api.failWith = undefined
  api.requests.length = 0
})

afterAll(async () => {
  await Promise.all([modal?.close(), wallet?.close(), api?.close()])
  await rm(dir, { recursive: true, force: true })
})

type Response = { status: number; headers: IncomingHttpHeaders; text: string }

/** GET `path` from `server` with the `Host` of `origin`. */
function get(server: StartStaticServerReturnType, origin: string, path = '/'): Promise<Response> {
  const { hostname, port } = new URL(server.url)
  const host = origin.replace(/^https?:\/\//, '')
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, headers: { host } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString(),
        }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

const directive = (response: Response, name: string) =>
  String(response.headers['content-security-policy'])
    .split('; ')
    .find((d) => d.startsWith(name))

/** The runtime configuration the document carries. */
const configOf = (response: Response) =>
  JSON.parse(
    (/content="([^"]*)"/.exec(response.text)?.[1] ?? '{}').replaceAll('&quot;', '"'),
  ) as Record<string, unknown>

describe("Porthole's own origin", () => {
  test('is served as before, on its own host and the extra ones', async () => {
    for (const host of [frameOrigins.modal, 'http://localhost:4100']) {
      const response = await get(modal, host, '/?projectId=porthole-demo')
      expect(response.status, host).toBe(200)
      expect(directive(response, 'frame-ancestors')).toBe(
        'frame-ancestors http://app.localhost:4000 http://localhost:4000',
      )
      expect(configOf(response)).toMatchObject({
        modalUrl: frameOrigins.modal,
        walletUrl: frameOrigins.wallet,
      })
    }
    const own = await get(wallet, frameOrigins.wallet, '/?projectId=porthole-demo')
    expect(directive(own, 'frame-ancestors')).toBe(
      'frame-ancestors http://127.0.0.1:4100 http://app.localhost:4000 http://localhost:4000',
    )
    expect(configOf(own)).not.toHaveProperty('passkeyRpId')
  })

  test("Porthole's wallet answers the custom modal of a project whose domain has no wallet", async () => {
    const response = await get(wallet, frameOrigins.wallet, '/?projectId=bound')
    expect(directive(response, 'frame-ancestors')).toBe(
      `frame-ancestors ${BOUND_MODAL} https://bound.example`,
    )
    expect(configOf(response)).toMatchObject({ modalUrl: BOUND_MODAL })
  })
})

describe("a project's custom domain", () => {
  test("the custom modal: the project's allowlist frames it, its own wallet and origins in its config", async () => {
    const response = await get(modal, CONNECT, '/?projectId=porthole-demo')
    expect(response.status).toBe(200)
    expect(directive(response, 'frame-ancestors')).toBe(
      'frame-ancestors http://app.localhost:4000 http://localhost:4000',
    )
    expect(directive(response, 'frame-src')).toBe(`frame-src ${WALLET}`)
    expect(configOf(response)).toMatchObject({ modalUrl: CONNECT, walletUrl: WALLET })
    expect(configOf(response)).not.toHaveProperty('passkeyRpId')
    // Without a projectId it is still the domain's project.
    expect(directive(await get(modal, CONNECT, '/'), 'frame-ancestors')).toBe(
      'frame-ancestors http://app.localhost:4000 http://localhost:4000',
    )
    // The script tag's files come from the custom origin too.
    expect((await get(modal, CONNECT, '/sdk.js')).status).toBe(200)
    expect((await get(modal, CONNECT, '/sdk/1.2.3/sdk.js')).status).toBe(200)
  })

  test('the custom wallet: framed by its own modal and the allowlist; its passkeys on its site', async () => {
    const response = await get(wallet, WALLET, '/?projectId=porthole-demo')
    expect(response.status).toBe(200)
    expect(directive(response, 'frame-ancestors')).toBe(
      `frame-ancestors ${CONNECT} http://app.localhost:4000 http://localhost:4000`,
    )
    expect(configOf(response)).toMatchObject({
      modalUrl: CONNECT,
      walletUrl: WALLET,
      passkeyRpId: 'app.localhost',
    })
  })

  test("another project's page is refused on the domain: an attacker cannot borrow the dapp's name", async () => {
    for (const [server, origin] of [
      [modal, CONNECT],
      [wallet, WALLET],
    ] as const) {
      const response = await get(server, origin, '/?projectId=attacker')
      expect(response.status).toBe(403)
      expect(response.text).toBe(
        `Forbidden: ${origin.replace('http://', '')} serves project porthole-demo only.`,
      )
      expect(response.text).not.toContain('PORTHOLE APP')
      expect(directive(response, 'frame-ancestors')).toBe("frame-ancestors 'none'")
    }
  })

  test('/frame-check on the custom modal answers for its own project', async () => {
    const response = await get(modal, CONNECT, '/frame-check?projectId=attacker')
    expect(JSON.parse(response.text)).toEqual({ allowed: false, reason: 'Origin Not Allowed' })
  })

  test('an unknown host is refused with 421 and a clear body, never the app', async () => {
    for (const [server, origin] of [
      [modal, 'http://evil.localhost:4100'],
      [modal, WALLET.replace('4200', '4100')],
      // The wallet's custom domain on the modal's server, and the other way round.
      [wallet, 'http://connect.app.localhost:4200'],
      [modal, 'http://connect.app.localhost:9999'],
      [modal, 'http://127.0.0.1:4200'],
    ] as const) {
      const response = await get(server, origin, '/?projectId=porthole-demo')
      expect(response.status, origin).toBe(421)
      expect(response.text).toMatch(
        /^Misdirected Request: .* is not a Porthole (modal|wallet) domain/,
      )
      expect(response.text).not.toContain('PORTHOLE APP')
      expect(directive(response, 'frame-ancestors')).toBe("frame-ancestors 'none'")
      expect((await get(server, origin, '/assets/index-BXk2c8Ab.js')).status).toBe(421)
    }
    // A host on another port is refused without asking the API.
    expect(api.requests.filter((r) => r.includes('9999'))).toEqual([])
  })

  test('a removed domain is refused; the API away refuses custom hosts only (503)', async () => {
    api.domains = []
    expect((await get(modal, CONNECT)).status).toBe(421)
    api.failWith = 500
    const away = await get(modal, CONNECT)
    expect(away.status).toBe(503)
    expect(away.text).not.toContain('PORTHOLE APP')
    const own = await get(modal, frameOrigins.modal, '/?projectId=porthole-demo')
    expect(own.status).toBe(200)
    expect(directive(own, 'frame-ancestors')).toBe("frame-ancestors 'none'")
  })
})

test('requestOrigin reads the Host header as an origin of the given scheme', () => {
  expect(requestOrigin('http:', 'Connect.App.localhost:4100')).toBe(CONNECT)
  expect(requestOrigin('https:', 'connect.app.example:443')).toBe('https://connect.app.example')
  for (const bad of [undefined, '', 'a b:1', 'x/y', 'user@host', 'host:port'])
    expect(requestOrigin('http:', bad), String(bad)).toBeUndefined()
})
