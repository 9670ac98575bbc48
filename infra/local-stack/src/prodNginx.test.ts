/**
 * The production stack's nginx configuration: generated from porthole.conf with every
 * deployment value filled in, then run in real nginx in front of three stand-in replicas
 * (plain HTTP servers that record what reaches them).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type Server,
} from 'node:http'
import { createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { checkNginx, NGINX_TEMPLATE, prodNginxSiteConfig, writeProdNginx } from './prodNginx.js'

const template = readFileSync(NGINX_TEMPLATE, 'utf8')
const URLS = {
  modal: 'http://127.0.0.1:4100',
  wallet: 'http://wallet.localhost:4200',
  api: 'http://127.0.0.1:4300',
  relay: 'ws://127.0.0.1:4400',
  recovery: 'http://127.0.0.1:4700',
}
const REPLICAS = ['127.0.0.1:4311', '127.0.0.1:4312', '127.0.0.1:4313']
const ROOTS = { modal: '/srv/m', wallet: '/srv/w', sdk: '/srv/sdk' }
const site = (overrides: Partial<Parameters<typeof prodNginxSiteConfig>[1]> = {}) =>
  prodNginxSiteConfig(template, {
    urls: URLS,
    replicas: REPLICAS,
    rpcOrigins: ['http://127.0.0.1:8545', 'http://127.0.0.1:8546'],
    roots: ROOTS,
    cacheDir: '/tmp/porthole-cache',
    ...overrides,
  })
const active = (conf: string) => conf.replace(/^\s*#.*$/gm, '')

describe('prodNginxSiteConfig', () => {
  test('lists every replica in upstream porthole_api, with keep-alive', () => {
    const upstream = /upstream porthole_api \{([^}]*)\}/.exec(active(site()))?.[1] ?? ''
    expect(upstream.match(/server \S+/g)).toEqual([
      'server 127.0.0.1:4311',
      'server 127.0.0.1:4312',
      'server 127.0.0.1:4313',
    ])
    expect(upstream).toMatch(/keepalive \d+;/)
    expect(upstream).not.toContain('4300')
  })

  test('denies /metrics on the API server and retries only what nginx may repeat', () => {
    const conf = active(site())
    const api = conf.slice(conf.lastIndexOf('server {'))
    expect(api).toContain('listen 127.0.0.1:4300;')
    expect(api).toMatch(/location ~\* \^\/metrics[^{]*\{\s*deny all;\s*\}/)
    expect(api).toContain('proxy_next_upstream error timeout http_502 http_503;')
    expect(conf).not.toContain('non_idempotent')
    expect(api).toContain('proxy_set_header X-Request-Id $porthole_request_id;')
    expect(api).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;')
  })

  test('fills every deployment value: listen addresses, URLs, files, the runtime config', () => {
    const conf = active(site())
    expect(conf).not.toMatch(/porthole\.example|\/srv\/porthole|\/var\/cache\/nginx|listen 80;/)
    expect(conf).toContain('listen 127.0.0.1:4100;')
    expect(conf).toContain('listen 127.0.0.1:4200;')
    expect(conf).toContain('root /srv/m;')
    expect(conf).toContain('root /srv/w;')
    expect(conf).toContain('alias /srv/sdk/sdk.js;')
    const configs = [...conf.matchAll(/sub_filter "__PORTHOLE_CONFIG__" "([^"]*)";/g)].map((m) =>
      JSON.parse((m[1] as string).replaceAll('&quot;', '"').replaceAll('&amp;', '&')),
    )
    expect(configs).toHaveLength(4)
    for (const config of configs)
      expect(config).toEqual({
        apiUrl: URLS.api,
        walletUrl: URLS.wallet,
        modalUrl: URLS.modal,
        relayUrl: URLS.relay,
        recoveryUrl: URLS.recovery,
        rpcOrigins: ['http://127.0.0.1:8545', 'http://127.0.0.1:8546'],
      })
    // The modal's CSP lets it call the devnets (its fallbacks); the wallet's does not.
    const modalCsp = conf.match(/connect-src [^;]*; frame-src/g) ?? []
    expect(modalCsp).toHaveLength(2)
    for (const csp of modalCsp)
      expect(csp).toBe(
        "connect-src 'self' http://127.0.0.1:4300 ws://127.0.0.1:4400 http://127.0.0.1:8545 http://127.0.0.1:8546; frame-src",
      )
    expect(conf).toContain(
      "connect-src 'self' http://127.0.0.1:4300 ws://127.0.0.1:4400 http://127.0.0.1:4700; font-src",
    )
  })

  test('refuses a template it cannot fill, and values nginx would read as syntax', () => {
    expect(() => site({ replicas: [] })).toThrow('No API replica')
    expect(() =>
      prodNginxSiteConfig(template.replace('server 127.0.0.1:4300;', 'server 10.0.0.1:80;'), {
        urls: URLS,
        replicas: REPLICAS,
        roots: ROOTS,
        cacheDir: '/tmp/c',
      }),
    ).toThrow(/porthole\.conf changed/)
    expect(() =>
      site({ urls: { ...URLS, api: 'http://127.0.0.1:4300/"; return 200 "x' } }),
    ).toThrow(/Not a plain URL/)
    expect(() => site({ roots: { ...ROOTS, modal: '/srv/m; deny all' } })).toThrow(
      /Not a plain absolute path/,
    )
    expect(() => site({ replicas: ['127.0.0.1:4311; server evil:80'] })).toThrow(/host:port/)
  })
})

type Seen = { replica: number; method: string; url: string; headers: IncomingHttpHeaders }
type Reply = { status: number; headers: IncomingHttpHeaders; text: string }

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createNetServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function send(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString()
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
      },
    )
    req.on('error', reject)
    req.end(options.method === 'POST' ? '{}' : undefined)
  })
}

// nginx comes from Debian (.ci/run and scripts/ensure-system.mjs install it with its
// brotli_static module); without it this suite fails rather than skips.
describe('nginx with the production configuration', () => {
  let dir: string
  let nginx: ChildProcess | undefined
  const seen: Seen[] = []
  const replicas: Server[] = []
  const ports = { modal: 0, wallet: 0, api: 0 }

  beforeAll(async () => {
    const check = checkNginx()
    expect(check.problems).toEqual([])
    dir = mkdtempSync(join(tmpdir(), 'porthole-prod-nginx-'))
    chmodSync(dir, 0o755)
    for (const sub of ['modal', 'wallet', 'sdk']) mkdirSync(join(dir, sub))
    writeFileSync(
      join(dir, 'modal', 'index.html'),
      '<meta name="porthole-config" content="__PORTHOLE_CONFIG__">\n',
    )
    writeFileSync(join(dir, 'wallet', 'index.html'), '<p>wallet</p>\n')
    writeFileSync(join(dir, 'sdk', 'sdk.js'), 'window.Porthole = {}\n')
    // Replica 0 fails GET and POST /flaky with 503; all answer everything else with 200.
    for (let index = 0; index < 3; index++) {
      const server = createServer((req, res) => {
        seen.push({
          replica: index,
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
        })
        req.resume()
        req.on('end', () => {
          if (req.url?.startsWith('/projects/v1/frame-policy')) {
            res.writeHead(204, { 'x-frame-ancestors': 'frame-ancestors http://localhost:4000' })
            return res.end()
          }
          const status = index === 0 && req.url === '/flaky' ? 503 : 200
          res.writeHead(status, {
            'content-type': 'application/json',
            'x-request-id': String(req.headers['x-request-id'] ?? ''),
          })
          res.end(JSON.stringify({ replica: index }))
        })
      })
      await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()))
      replicas.push(server)
    }
    // A fourth replica that is down: nothing listens there.
    const dead = await freePort()
    ;[ports.modal, ports.wallet, ports.api] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
    ])
    const { args } = writeProdNginx({
      dir: join(dir, 'nginx'),
      logsDir: join(dir, 'logs'),
      nginx: check,
      workers: 1,
      urls: {
        modal: `http://127.0.0.1:${ports.modal}`,
        wallet: `http://127.0.0.1:${ports.wallet}`,
        api: `http://127.0.0.1:${ports.api}`,
        relay: 'ws://127.0.0.1:4400',
        recovery: 'http://127.0.0.1:4700',
      },
      replicas: [
        ...replicas.map((server) => `127.0.0.1:${(server.address() as { port: number }).port}`),
        `127.0.0.1:${dead}`,
      ],
      rpcOrigins: ['http://127.0.0.1:8545'],
      roots: { modal: join(dir, 'modal'), wallet: join(dir, 'wallet'), sdk: join(dir, 'sdk') },
    })
    nginx = spawn(check.binary, args, { stdio: 'ignore' })
    for (let i = 0; i < 200; i++) {
      if (await send(ports.api, '/up').catch(() => undefined)) break
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    seen.length = 0
  })

  afterAll(async () => {
    if (nginx?.exitCode === null) {
      const exited = new Promise((resolve) => nginx?.once('exit', resolve))
      nginx.kill('SIGTERM')
      await exited
    }
    await Promise.all(replicas.map((server) => new Promise((resolve) => server.close(resolve))))
    rmSync(dir, { recursive: true, force: true })
  })

  test('spreads API requests over every replica', async () => {
    const answers = []
    for (let i = 0; i < 12; i++) answers.push(await send(ports.api, `/v1/supported-chains?i=${i}`))
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200))
    const served = new Set(answers.map((a) => (JSON.parse(a.text) as { replica: number }).replica))
    expect([...served].sort()).toEqual([0, 1, 2])
  })

  test('/metrics is refused however it is spelled, and never reaches a replica', async () => {
    seen.length = 0
    for (const path of [
      '/metrics',
      '/metrics/',
      '/METRICS',
      '//metrics',
      '/%6Detrics',
      '/metrics?x=1',
      '/metrics/x',
    ])
      expect([path, (await send(ports.api, path)).status]).toEqual([path, 403])
    expect(seen.filter((s) => /metrics/i.test(decodeURIComponent(s.url)))).toEqual([])
  })

  test('a GET that a replica answers 503, or a replica that is down, goes to the next one', async () => {
    seen.length = 0
    for (let i = 0; i < 8; i++) expect((await send(ports.api, '/flaky')).status).toBe(200)
    // Replica 0 was asked and said 503: the retry is what made those answers 200.
    expect(seen.some((s) => s.replica === 0 && s.url === '/flaky')).toBe(true)
  })

  test('a POST is never sent twice: the replica that took it answers', async () => {
    seen.length = 0
    const statuses = []
    for (let i = 0; i < 8; i++)
      statuses.push((await send(ports.api, '/flaky', { method: 'POST' })).status)
    const posts = seen.filter((s) => s.method === 'POST')
    expect(posts).toHaveLength(8)
    const onFailing = posts.filter((s) => s.replica === 0).length
    expect(onFailing).toBeGreaterThan(0)
    expect(statuses.filter((status) => status === 503)).toHaveLength(onFailing)
  })

  test("passes the client's request id, or its own when there is none or it is malformed", async () => {
    seen.length = 0
    const given = await send(ports.api, '/id', { headers: { 'x-request-id': 'host-abc.123' } })
    expect(given.headers['x-request-id']).toBe('host-abc.123')
    const none = await send(ports.api, '/id')
    const bad = await send(ports.api, '/id', { headers: { 'x-request-id': `${'x'.repeat(200)}` } })
    const [first, second, third] = seen
    expect(first?.headers['x-request-id']).toBe('host-abc.123')
    expect(second?.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/)
    expect(none.headers['x-request-id']).toBe(second?.headers['x-request-id'])
    expect(third?.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/)
    expect(bad.headers['x-request-id']).toBe(third?.headers['x-request-id'])
    // One header, not the replica's and nginx's both.
    expect(String(given.headers['x-request-id'])).not.toContain(',')
  })

  test("takes the modal's rid query parameter when there is no header (the API reads it so)", async () => {
    seen.length = 0
    const rid = await send(ports.api, '/v1/x?projectId=p&rid=trace-7f3a.12')
    expect(rid.headers['x-request-id']).toBe('trace-7f3a.12')
    await send(ports.api, '/v1/x?rid=from-query', { headers: { 'x-request-id': 'from-header' } })
    const odd = await send(ports.api, '/v1/x?rid=a%20b')
    expect(seen.map((s) => s.headers['x-request-id'])).toEqual([
      'trace-7f3a.12',
      'from-header',
      odd.headers['x-request-id'],
    ])
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/)
  })

  test("appends the client's address to X-Forwarded-For (the API trusts one proxy)", async () => {
    seen.length = 0
    await send(ports.api, '/xff', { headers: { 'x-forwarded-for': '203.0.113.9' } })
    expect(seen[0]?.headers['x-forwarded-for']).toBe('203.0.113.9, 127.0.0.1')
  })

  test('serves the modal document with its runtime config and the frame policy from a replica', async () => {
    seen.length = 0
    const page = await send(ports.modal, '/?projectId=porthole-demo', {
      headers: { 'x-request-id': 'document-1' },
    })
    expect(page.status).toBe(200)
    // The frame policy was asked of a replica, with the document's request id.
    const policy = seen.find((s) => s.url.startsWith('/projects/v1/frame-policy?kind=modal'))
    expect(policy?.headers['x-request-id']).toBe('document-1')
    const csp = String(page.headers['content-security-policy'])
    expect(csp).toContain('frame-ancestors http://localhost:4000')
    expect(csp).toContain(
      `connect-src 'self' http://127.0.0.1:${ports.api} ws://127.0.0.1:4400 http://127.0.0.1:8545;`,
    )
    expect(page.text).toContain(`&quot;apiUrl&quot;:&quot;http://127.0.0.1:${ports.api}&quot;`)
    const sdk = await send(ports.modal, '/sdk.js')
    expect(sdk.status).toBe(200)
    expect(sdk.headers['access-control-allow-origin']).toBe('*')
  })
})
