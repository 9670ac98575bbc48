/**
 * Runs nginx with porthole.conf (deployment values swapped for test ones) against the real
 * API (apps/api on an in-memory database). Fails when nginx or its brotli_static module is not
 * installed (`apt-get install -y nginx libnginx-mod-http-brotli-static`).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib'
import {
  addProjectDomain,
  allowOrigin,
  createProject,
  denyOrigin,
  type StartApiReturnType,
  startApi,
} from '@porthole/api'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const nginxVersion = spawnSync('nginx', ['-V'], { encoding: 'utf8' })
const hasNginx = !nginxVersion.error && nginxVersion.status === 0
const confDir = dirname(
  /--conf-path=(\S+)/.exec(nginxVersion.stderr ?? '')?.[1] ?? '/etc/nginx/nginx.conf',
)
const brotliStaticModule = join(
  /--modules-path=(\S+)/.exec(nginxVersion.stderr ?? '')?.[1] ?? '/usr/lib/nginx/modules',
  'ngx_http_brotli_static_module.so',
)

const INDEX =
  '<!doctype html><html><head><meta name="porthole-config" content="__PORTHOLE_CONFIG__"></head><body></body></html>\n'
const APP_JS = 'console.log("porthole modal");\n'.repeat(200)
const SDK_JS = 'window.Porthole = {};\n'.repeat(60)
const SDK_JS_1_2_3 = 'window.Porthole = { version: "1.2.3" };\n'.repeat(60)
/** The build's siblings (see precompress()); any valid encoding will do here. */
const SDK_JS_BR = brotliCompressSync(SDK_JS)
const SDK_JS_GZ = gzipSync(SDK_JS)
const SDK_JS_1_2_3_BR = brotliCompressSync(SDK_JS_1_2_3)
const SDK_CHAINS_JS_1_2_3 = 'var PortholeChains = { version: "1.2.3" };\n'.repeat(60)
const SDK_CHAINS_JS_1_2_3_BR = brotliCompressSync(SDK_CHAINS_JS_1_2_3)
const SDK_CALLS_JS_1_2_3 = 'var PortholeCalls = { version: "1.2.3" };\n'.repeat(60)
const SDK_CALLS_JS_1_2_3_BR = brotliCompressSync(SDK_CALLS_JS_1_2_3)

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

type Response = { status: number; headers: IncomingHttpHeaders; body: Buffer; text: string }

function request(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const body = Buffer.concat(chunks)
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text: body.toString(),
          })
        })
      },
    )
    req.on('error', reject)
    req.end()
  })
}

const frameAncestorsOf = (response: Response) =>
  String(response.headers['content-security-policy'])
    .split('; ')
    .find((directive) => directive.startsWith('frame-ancestors'))

// nginx comes from Debian (scripts/ensure-system.mjs and .ci/run install it); without it this
// suite fails rather than skips, so the production config is always exercised.
describe('nginx/porthole.conf', () => {
  test('nginx is installed', () => {
    expect(hasNginx, 'nginx is missing: apt-get install -y nginx').toBe(true)
    expect(
      existsSync(brotliStaticModule),
      'brotli_static is missing: apt-get install -y libnginx-mod-http-brotli-static',
    ).toBe(true)
  })

  let dir: string
  let api: StartApiReturnType
  let nginx: ChildProcess | undefined
  let modalPort: number
  let walletPort: number
  /** porthole-custom-domains.conf: the projects' custom names (and every unknown name). */
  let customPort: number

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'porthole-nginx-'))
    ;[modalPort, walletPort, customPort] = await Promise.all([freePort(), freePort(), freePort()])
    const modalUrl = `http://127.0.0.1:${modalPort}`
    const walletUrl = `http://127.0.0.1:${walletPort}`
    api = await startApi({
      port: 0,
      databaseUrl: ':memory:',
      seedDemo: false,
      rateLimit: false,
      modalOrigin: modalUrl,
      // The failure test breaks the database on purpose. (The 1 s project cache stays on, as
      // in production.)
      onError: () => undefined,
    })
    await createProject(api.db, { id: 'porthole-demo', origins: ['http://localhost:4000'] })
    // A project of the attacker's own, allowing the attacker's site.
    await createProject(api.db, { id: 'attacker', origins: ['https://attacker.example'] })
    // The demo project on its own site (the example names of porthole-custom-domains.conf).
    await addProjectDomain(api.db, {
      projectId: 'porthole-demo',
      modalOrigin: 'https://connect.app.example',
      walletOrigin: 'https://wallet.app.example',
    })
    for (const sub of ['modal/assets', 'wallet', 'sdk/1.2.3', 'cache', 'temp', 'acme'])
      await mkdir(join(dir, sub), { recursive: true })
    await Promise.all([
      writeFile(join(dir, 'modal', 'index.html'), INDEX),
      writeFile(join(dir, 'modal', 'assets', 'index-BXk2c8Ab.js'), APP_JS),
      writeFile(join(dir, 'modal', 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>'),
      writeFile(join(dir, 'modal', '.env'), 'SECRET'),
      writeFile(join(dir, 'wallet', 'index.html'), INDEX),
      writeFile(join(dir, 'sdk', 'sdk.js'), SDK_JS),
      writeFile(join(dir, 'sdk', '1.2.3', 'sdk.js'), SDK_JS_1_2_3),
      writeFile(join(dir, 'sdk', 'sdk.js.br'), SDK_JS_BR),
      writeFile(join(dir, 'sdk', 'sdk.js.gz'), SDK_JS_GZ),
      writeFile(join(dir, 'sdk', '1.2.3', 'sdk.js.br'), SDK_JS_1_2_3_BR),
      writeFile(join(dir, 'sdk', '1.2.3', 'sdk-chains.js'), SDK_CHAINS_JS_1_2_3),
      writeFile(join(dir, 'sdk', '1.2.3', 'sdk-chains.js.br'), SDK_CHAINS_JS_1_2_3_BR),
      writeFile(join(dir, 'sdk', '1.2.3', 'sdk-calls.js'), SDK_CALLS_JS_1_2_3),
      writeFile(join(dir, 'sdk', '1.2.3', 'sdk-calls.js.br'), SDK_CALLS_JS_1_2_3_BR),
      // A document's siblings would skip sub_filter: they must never be sent.
      writeFile(join(dir, 'modal', 'index.html.br'), brotliCompressSync(INDEX)),
      writeFile(join(dir, 'modal', 'index.html.gz'), gzipSync(INDEX)),
    ])

    const source = await readFile(fileURLToPath(new URL('porthole.conf', import.meta.url)), 'utf8')
    const conf = source
      .replace(
        /listen 80;(\s+server_name) modal\.porthole\.example;/,
        `listen 127.0.0.1:${modalPort};$1 _;`,
      )
      .replace(
        /listen 80;(\s+server_name) wallet\.porthole\.example;/,
        `listen 127.0.0.1:${walletPort};$1 _;`,
      )
      .replaceAll('https://modal.porthole.example', modalUrl)
      .replaceAll('https://wallet.porthole.example', walletUrl)
      .replaceAll('https://api.porthole.example', api.url)
      .replaceAll('wss://relay.porthole.example', 'ws://127.0.0.1:4400')
      .replaceAll('https://recovery.porthole.example', 'http://127.0.0.1:4700')
      .replace('server 127.0.0.1:4300;', `server ${new URL(api.url).host};`)
      .replaceAll('/var/cache/nginx/porthole', join(dir, 'cache'))
      .replaceAll('/srv/porthole/modal-host', join(dir, 'modal'))
      .replaceAll('/srv/porthole/embedded-wallet', join(dir, 'wallet'))
      .replaceAll('/srv/porthole/sdk/', `${join(dir, 'sdk')}/`)
    // Every deployment value is one of the substitutions above.
    expect(conf.replace(/^\s*#.*$/gm, '')).not.toMatch(/porthole\.example|\/srv\/porthole|:4300/)
    await writeFile(join(dir, 'porthole.conf'), conf)
    const customSource = await readFile(
      fileURLToPath(new URL('porthole-custom-domains.conf', import.meta.url)),
      'utf8',
    )
    const custom = customSource
      .replace('listen 80 default_server;', `listen 127.0.0.1:${customPort} default_server;`)
      // A name in the map that the API does not know (a domain removed since).
      .replace(
        'connect.app.example modal;',
        'connect.app.example modal;\n    stale.app.example modal;',
      )
      .replaceAll('https://modal.porthole.example', modalUrl)
      .replaceAll('https://wallet.porthole.example', walletUrl)
      .replaceAll('https://api.porthole.example', api.url)
      .replaceAll('wss://relay.porthole.example', 'ws://127.0.0.1:4400')
      .replaceAll('https://recovery.porthole.example', 'http://127.0.0.1:4700')
      .replaceAll('/srv/porthole/modal-host', join(dir, 'modal'))
      .replaceAll('/srv/porthole/embedded-wallet', join(dir, 'wallet'))
      .replaceAll('/srv/porthole/sdk/', `${join(dir, 'sdk')}/`)
      .replaceAll('/var/lib/porthole-acme', join(dir, 'acme'))
    expect(custom.replace(/^\s*#.*$/gm, '')).not.toMatch(/porthole\.example|\/srv\/porthole|:4300/)
    await writeFile(join(dir, 'custom.conf'), custom)
    const temp = join(dir, 'temp')
    const mime = join(confDir, 'mime.types')
    await writeFile(
      join(dir, 'nginx.conf'),
      `load_module ${brotliStaticModule};
daemon off;
master_process off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 64; }
http {
  ${existsSync(mime) ? `include ${mime};` : 'types { text/html html; text/javascript js; image/svg+xml svg; }'}
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
  include ${join(dir, 'porthole.conf')};
  include ${join(dir, 'custom.conf')};
}
`,
    )
    const args = ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')]
    const check = spawnSync('nginx', ['-t', ...args], { encoding: 'utf8' })
    expect(check.status, check.stderr).toBe(0)
    nginx = spawn('nginx', args, { stdio: 'ignore' })
    for (let i = 0; i < 200; i++) {
      const up = await request(modalPort, '/favicon.svg').catch(() => undefined)
      if (up) break
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  })

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx!.once('exit', resolve))
      nginx.kill('SIGTERM')
      await exited
    }
    await api?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  test('documents carry the per-project CSP from the API and the runtime config', async () => {
    const response = await request(modalPort, '/?projectId=porthole-demo')
    expect(response.status).toBe(200)
    expect(frameAncestorsOf(response)).toBe('frame-ancestors http://localhost:4000')
    expect(response.headers['content-security-policy']).toContain(
      `connect-src 'self' ${api.url} ws://127.0.0.1:4400; frame-src http://127.0.0.1:${walletPort};`,
    )
    expect(response.headers['cache-control']).toBe('no-cache')
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers['referrer-policy']).toBe('no-referrer')
    expect(response.text).toContain(`content="{&quot;apiUrl&quot;:&quot;${api.url}&quot;`)
    expect(response.text).not.toContain('__PORTHOLE_CONFIG__')

    expect(frameAncestorsOf(await request(modalPort, '/index.html?projectId=nope'))).toBe(
      "frame-ancestors 'none'",
    )
    expect(frameAncestorsOf(await request(modalPort, '/'))).toBe('frame-ancestors *')
    const walletDoc = await request(walletPort, '/?projectId=porthole-demo')
    expect(frameAncestorsOf(walletDoc)).toBe(
      `frame-ancestors http://127.0.0.1:${modalPort} http://localhost:4000`,
    )
    expect(walletDoc.headers['content-security-policy']).not.toContain('frame-src')
    expect(frameAncestorsOf(await request(walletPort, '/'))).toBe("frame-ancestors 'none'")
  })

  // The apps read projectId with URLSearchParams (exact name, percent-decoded, the first
  // one); nginx's $arg_projectId matches any letter case, undecoded. Any query where the two
  // could disagree is refused, so the CSP is always the one of the project the app runs.
  const TRICKS = [
    // Case variants, first hit wins in nginx but is ignored by the app.
    'projectid=attacker&projectId=porthole-demo',
    'PROJECTID=attacker&projectId=porthole-demo',
    'projectId=porthole-demo&PrOjEcTiD=attacker',
    'projectID=attacker',
    // An empty case variant gave `frame-ancestors *` while the app ran porthole-demo.
    'projectID=&projectId=porthole-demo',
    // Duplicates.
    'projectId=porthole-demo&projectId=attacker',
    'projectId=attacker&origin=x&projectId=porthole-demo',
    // A percent-encoded name: the app decodes it to projectId, nginx does not.
    'project%49d=porthole-demo',
    'project%49d=porthole-demo&projectid=attacker',
    '%70rojectId=porthole-demo&projectId=attacker',
    'projectId=attacker&project%69d=porthole-demo',
    // Array style (PHP, qs): read as projectId by other parsers.
    'projectId[]=attacker&projectId=porthole-demo',
    'projectId%5B%5D=attacker',
    'projectId[0]=attacker',
    // No value, an empty one, or one that is not a project id.
    'projectId&projectId=porthole-demo',
    'projectId=',
    'projectId=&origin=https%3A%2F%2Fattacker.example',
    'projectId=%20',
    'projectId=%20porthole-demo',
    'projectId=porthole-demo%00',
    'projectId=porthole%2Ddemo',
    'projectId=-porthole',
    `projectId=${'a'.repeat(65)}`,
  ]

  test.each(TRICKS)('a document request with ?%s is refused (400), never framed', async (query) => {
    for (const [port, path] of [
      [modalPort, '/'],
      [modalPort, '/index.html'],
      [walletPort, '/'],
      [walletPort, '/index.html'],
    ] as const) {
      const response = await request(port, `${path}?${query}`)
      expect(response.status, `${port}${path}`).toBe(400)
      expect(response.text, `${port}${path}`).toContain('Give one projectId parameter')
      expect(frameAncestorsOf(response), `${port}${path}`).toBe("frame-ancestors 'none'")
      expect(response.text).not.toContain('porthole-config')
    }
  })

  test('one exact projectId beside other parameters still gets its project CSP', async () => {
    const query =
      'origin=http%3A%2F%2Flocalhost%3A4000&projectId=porthole-demo&x=projectid%3Dattacker'
    const modalDoc = await request(modalPort, `/?${query}`)
    expect(modalDoc.status).toBe(200)
    expect(frameAncestorsOf(modalDoc)).toBe('frame-ancestors http://localhost:4000')
    const attacker = await request(modalPort, '/index.html?projectId=attacker')
    expect(frameAncestorsOf(attacker)).toBe('frame-ancestors https://attacker.example')
    const walletDoc = await request(walletPort, `/index.html?${query}`)
    expect(frameAncestorsOf(walletDoc)).toBe(
      `frame-ancestors http://127.0.0.1:${modalPort} http://localhost:4000`,
    )
    // Without any projectId the modal may be framed (it only says 'Project ID Not Configured').
    expect(frameAncestorsOf(await request(modalPort, '/?origin=x'))).toBe('frame-ancestors *')
  })

  test('an API failure still serves the document, framed by nobody', async () => {
    // The API's database goes down: the API answers 500 Server Error.
    await createProject(api.db, { id: 'porthole-demo-down', origins: ['http://localhost:4000'] })
    const query = api.db.query
    api.db.query = () => Promise.reject(new Error('database down on purpose'))
    try {
      const response = await request(modalPort, '/?projectId=porthole-demo-down')
      expect(response.status).toBe(200)
      expect(frameAncestorsOf(response)).toBe("frame-ancestors 'none'")
      expect(response.text).toContain('{&quot;apiUrl&quot;')
    } finally {
      api.db.query = query
    }
  })

  test('an allowlist change is seen within two seconds (nginx caches in whole seconds)', async () => {
    await createProject(api.db, { id: 'changing', origins: ['http://localhost:4000'] })
    expect(frameAncestorsOf(await request(modalPort, '/?projectId=changing'))).toBe(
      'frame-ancestors http://localhost:4000',
    )
    await allowOrigin(api.db, { projectId: 'changing', origin: 'https://shop.example.com' })
    await denyOrigin(api.db, { projectId: 'changing', origin: 'http://localhost:4000' })
    const changed = Date.now()
    let seen: string | undefined
    while (Date.now() - changed < 4000) {
      seen = frameAncestorsOf(await request(modalPort, '/?projectId=changing'))
      if (seen === 'frame-ancestors https://shop.example.com') break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(seen).toBe('frame-ancestors https://shop.example.com')
    expect(Date.now() - changed).toBeLessThan(2500)
  })

  test('static files get their cache lifetimes, gzip and no CSP', async () => {
    const asset = await request(modalPort, '/assets/index-BXk2c8Ab.js', {
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(asset.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(asset.body).toString()).toBe(APP_JS)
    expect(asset.headers['content-security-policy']).toBeUndefined()
    const sdk = await request(modalPort, '/sdk.js')
    expect(sdk.text).toBe(SDK_JS)
    expect(sdk.headers['cache-control']).toBe('public, max-age=300')
    expect(sdk.headers['cross-origin-resource-policy']).toBe('cross-origin')
    expect(sdk.headers['access-control-allow-origin']).toBe('*')
    expect((await request(modalPort, '/favicon.svg')).headers['cache-control']).toBe(
      'public, max-age=3600',
    )
    const etag = String(sdk.headers.etag)
    expect(
      (await request(modalPort, '/sdk.js', { headers: { 'if-none-match': etag } })).status,
    ).toBe(304)
  })

  test("the build's .br and .gz are sent as they are; documents never", async () => {
    for (const [path, encoded] of [
      ['/sdk.js', SDK_JS_BR],
      ['/sdk/1.2.3/sdk.js', SDK_JS_1_2_3_BR],
      ['/sdk/1.2.3/sdk-chains.js', SDK_CHAINS_JS_1_2_3_BR],
      ['/sdk/1.2.3/sdk-calls.js', SDK_CALLS_JS_1_2_3_BR],
    ] as const) {
      const br = await request(modalPort, path, { headers: { 'accept-encoding': 'gzip, br' } })
      expect(br.headers['content-encoding'], path).toBe('br')
      expect(br.body, path).toEqual(encoded)
      expect(br.headers.vary, path).toBe('Accept-Encoding')
      expect(br.headers['access-control-allow-origin'], path).toBe('*')
    }
    const gzip = await request(modalPort, '/sdk.js', { headers: { 'accept-encoding': 'gzip' } })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gzip.body).toEqual(SDK_JS_GZ)
    const plain = await request(modalPort, '/sdk.js')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.text).toBe(SDK_JS)
    for (const encoding of ['br', 'gzip']) {
      const document = await request(modalPort, '/?projectId=porthole-demo', {
        headers: { 'accept-encoding': encoding },
      })
      // Gzipped on the fly after sub_filter, or not at all; never the sibling.
      expect(document.headers['content-encoding'], encoding).not.toBe('br')
      const text =
        document.headers['content-encoding'] === 'gzip'
          ? gunzipSync(document.body).toString()
          : document.text
      expect(text, encoding).toContain(`{&quot;apiUrl&quot;:&quot;${api.url}&quot;`)
    }
  })

  test('each SDK release (and its sdk-chains.js and sdk-calls.js) is served at its own immutable path, to any origin', async () => {
    for (const [path, body] of [
      ['/sdk/1.2.3/sdk.js', SDK_JS_1_2_3],
      ['/sdk/1.2.3/sdk-chains.js', SDK_CHAINS_JS_1_2_3],
      ['/sdk/1.2.3/sdk-calls.js', SDK_CALLS_JS_1_2_3],
    ] as const) {
      const release = await request(modalPort, path, {
        headers: { origin: 'https://any-host.example' },
      })
      expect(release.status, path).toBe(200)
      expect(release.text, path).toBe(body)
      expect(release.headers['cache-control'], path).toBe('public, max-age=31536000, immutable')
      expect(release.headers['access-control-allow-origin'], path).toBe('*')
      expect(release.headers['cross-origin-resource-policy'], path).toBe('cross-origin')
      expect(release.headers['content-type'], path).toMatch(/javascript/)
    }
    for (const path of [
      '/sdk/1.2.4/sdk.js',
      '/sdk/latest/sdk.js',
      '/sdk/1.2.3/other.js',
      '/sdk/1.2.4/sdk-chains.js',
      '/sdk-chains.js',
      '/sdk/1.2.4/sdk-calls.js',
      '/sdk-calls.js',
    ]) {
      const missing = await request(modalPort, path)
      expect(missing.status, path).toBe(404)
      expect(missing.headers['cache-control'], path).toBeUndefined()
    }
    // Nothing else is opened to every origin.
    const asset = await request(modalPort, '/assets/index-BXk2c8Ab.js', {
      headers: { origin: 'https://any-host.example' },
    })
    expect(asset.headers['access-control-allow-origin']).toBeUndefined()
    expect(
      (await request(walletPort, '/sdk/1.2.3/sdk.js')).headers['access-control-allow-origin'],
    ).toBeUndefined()
  })

  test('frame-check is answered by the API with CORS for the asking origin', async () => {
    const response = await request(modalPort, '/frame-check?projectId=porthole-demo', {
      headers: { origin: 'https://evil.example' },
    })
    expect(JSON.parse(response.text)).toEqual({ allowed: false, reason: 'Origin Not Allowed' })
    expect(response.headers['access-control-allow-origin']).toBe('https://evil.example')
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.headers['x-content-type-options']).toBe('nosniff')
  })

  test('dotfiles, traversal and other methods are refused', async () => {
    for (const path of ['/.env', '/../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/nope.js']) {
      const response = await request(modalPort, path)
      expect([400, 404], path).toContain(response.status)
      expect(response.text, path).not.toMatch(/SECRET|root:/)
    }
    const post = await request(modalPort, '/', { method: 'POST' })
    expect(post.status).toBe(405)
    expect(post.headers.allow).toBe('GET, HEAD')
  })

  describe('porthole-custom-domains.conf', () => {
    const CONNECT = 'https://connect.app.example'
    const WALLET = 'https://wallet.app.example'
    const on = (host: string, path: string, headers: Record<string, string> = {}) =>
      request(customPort, path, { headers: { host, ...headers } })
    const configOf = (response: Response) =>
      JSON.parse(
        (/content="([^"]*)"/.exec(response.text)?.[1] ?? '{}').replaceAll('&quot;', '"'),
      ) as Record<string, unknown>

    test("a custom modal name: the project's allowlist frames it, its own wallet and origins in its config", async () => {
      const response = await on('connect.app.example', '/?projectId=porthole-demo')
      expect(response.status).toBe(200)
      expect(frameAncestorsOf(response)).toBe('frame-ancestors http://localhost:4000')
      expect(response.headers['content-security-policy']).toContain(`frame-src ${WALLET};`)
      expect(configOf(response)).toMatchObject({ modalUrl: CONNECT, walletUrl: WALLET })
      // No projectId: the domain's project all the same.
      expect(frameAncestorsOf(await on('connect.app.example', '/'))).toBe(
        'frame-ancestors http://localhost:4000',
      )
      expect((await on('connect.app.example', '/sdk.js')).status).toBe(200)
      expect((await on('connect.app.example', '/sdk/1.2.3/sdk.js')).status).toBe(200)
    })

    test('a custom wallet name: framed by its own modal and the allowlist; passkeys on its site', async () => {
      const response = await on('wallet.app.example', '/?projectId=porthole-demo')
      expect(frameAncestorsOf(response)).toBe(`frame-ancestors ${CONNECT} http://localhost:4000`)
      expect(response.headers['content-security-policy']).not.toContain('frame-src')
      expect(configOf(response)).toMatchObject({
        modalUrl: CONNECT,
        walletUrl: WALLET,
        passkeyRpId: 'app.example',
      })
      // The modal's files are not the wallet name's.
      expect((await on('wallet.app.example', '/sdk.js')).status).toBe(404)
    })

    test("another project's document on the domain, or a name the API does not know, is framed by nobody", async () => {
      for (const [host, path] of [
        ['connect.app.example', '/?projectId=attacker'],
        ['wallet.app.example', '/?projectId=attacker'],
        ['stale.app.example', '/?projectId=porthole-demo'],
      ] as const)
        expect(frameAncestorsOf(await on(host, path)), `${host}${path}`).toBe(
          "frame-ancestors 'none'",
        )
      // As the SDK asks (its query names the host page as `origin`), and with a forged frameOrigin.
      for (const query of [
        'projectId=attacker&origin=https%3A%2F%2Fattacker.example',
        'frameOrigin=https%3A%2F%2Fevil.example&projectId=attacker',
      ]) {
        const check = await on('connect.app.example', `/frame-check?${query}`, {
          origin: 'https://attacker.example',
        })
        expect(JSON.parse(check.text), query).toEqual({
          allowed: false,
          reason: 'Origin Not Allowed',
        })
      }
    })

    test('a name nobody registered is refused with 421, never an app', async () => {
      for (const host of ['evil.example', '127.0.0.1', 'modal.evil.example']) {
        const response = await on(host, '/?projectId=porthole-demo')
        expect(response.status, host).toBe(421)
        expect(response.text).toBe(`Misdirected Request: ${host} is not a Porthole domain.\n`)
      }
    })
  })

  test('nginx logged no configuration warnings', async () => {
    const log = await readFile(join(dir, 'error.log'), 'utf8')
    expect(log).not.toMatch(/\[(warn|emerg|crit|alert)\]/)
  })
})
