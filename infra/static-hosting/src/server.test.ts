import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  brotliCompressSync,
  brotliDecompressSync,
  constants,
  gunzipSync,
  gzipSync,
} from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type FakeApi, startFakeApi } from './internal/fakeApi.ts'
import { sdkFiles } from './sdkFiles.ts'
import { type StartStaticServerReturnType, startStaticServer } from './server.ts'

const frameOrigins = { modal: 'http://127.0.0.1:4100', wallet: 'http://127.0.0.1:4200' }
const relayUrl = 'ws://127.0.0.1:4400'
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="porthole-config" content="__PORTHOLE_CONFIG__" />
    <script type="module" crossorigin src="/assets/index-BXk2c8Ab.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-D_3nCs9f.css">
  </head>
  <body><div id="root"></div></body>
</html>
`
const APP_JS = 'console.log("porthole modal");\n'.repeat(200)
const SDK_JS = 'window.Porthole = { createPorthole() {} };\n'.repeat(50)
const SDK_CHAINS_JS = 'var PortholeChains = { startChains() {} };\n'.repeat(50)
const SDK_CALLS_JS = 'var PortholeCalls = { createCalls() {} };\n'.repeat(50)
const SECRET = 'TOP SECRET: outside the root'
/** A built file with `.br`/`.gz` siblings (low levels: unlike what the server makes). */
const PRE_JS = 'export const greeting = "precompressed at build time";\n'.repeat(40)
const STEPS = ['connect', 'sign', 'approve', 'switch network', 'send']
/** A document big enough for brotli 11 to beat brotli 9. */
const PAGE = `<!doctype html><html><head><meta name="porthole-config" content="__PORTHOLE_CONFIG__" /></head><body><ul>
${Array.from({ length: 40 }, (_, i) => `  <li data-step="${i * 7}">Step ${i}: ${STEPS[i % 5]} with wallet #${(i * 13) % 17}</li>`).join('\n')}
</ul></body></html>
`

const lowBrotli = (body: string) =>
  brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
const lowGzip = (body: string) => gzipSync(body, { level: 1 })
const brotliAt = (quality: number, body: Buffer) =>
  brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  })

let dir: string
let api: FakeApi
let modal: StartStaticServerReturnType
let wallet: StartStaticServerReturnType

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'porthole-static-'))
  const dist = join(dir, 'dist')
  await mkdir(join(dist, 'assets'), { recursive: true })
  await mkdir(join(dir, 'sdk'))
  await Promise.all([
    writeFile(join(dist, 'index.html'), INDEX),
    writeFile(join(dist, 'assets', 'index-BXk2c8Ab.js'), APP_JS),
    writeFile(join(dist, 'assets', 'index-D_3nCs9f.css'), 'body { margin: 0 }\n'.repeat(60)),
    writeFile(join(dist, 'assets', 'logo-Ab12Cd34.png'), Buffer.alloc(2048, 7)),
    writeFile(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
    writeFile(join(dist, 'robots.txt'), 'User-agent: *\n'),
    writeFile(join(dist, '.env'), SECRET),
    writeFile(join(dir, 'secret.txt'), SECRET),
    writeFile(join(dir, 'sdk', 'sdk.js'), SDK_JS),
    writeFile(join(dir, 'sdk', 'sdk-chains.js'), SDK_CHAINS_JS),
    writeFile(join(dir, 'sdk', 'sdk-calls.js'), SDK_CALLS_JS),
    writeFile(join(dist, 'page.html'), PAGE),
  ])
  // Siblings are written after their file, as precompress() does.
  await Promise.all([
    writeFile(join(dist, 'assets', 'pre-Ab12Cd34.js'), PRE_JS),
    writeFile(join(dir, 'sdk', 'sdk.js.br'), lowBrotli(SDK_JS)),
    writeFile(join(dir, 'sdk', 'sdk-chains.js.br'), lowBrotli(SDK_CHAINS_JS)),
    writeFile(join(dir, 'sdk', 'sdk-calls.js.br'), lowBrotli(SDK_CALLS_JS)),
  ])
  await Promise.all([
    writeFile(join(dist, 'assets', 'pre-Ab12Cd34.js.br'), lowBrotli(PRE_JS)),
    writeFile(join(dist, 'assets', 'pre-Ab12Cd34.js.gz'), lowGzip(PRE_JS)),
  ])
  await symlink(join(dir, 'secret.txt'), join(dist, 'link.txt'))
  api = await startFakeApi({
    projects: {
      'porthole-demo': ['http://localhost:4000'],
      wildcard: ['https://*.example.com', 'http://localhost:*'],
    },
  })
  const common = { root: dist, apiUrl: api.url, relayUrl, frameOrigins, port: 0 }
  modal = await startStaticServer({
    ...common,
    kind: 'modal',
    extraFiles: sdkFiles({ file: join(dir, 'sdk', 'sdk.js'), version: '1.2.3' }),
  })
  wallet = await startStaticServer({ ...common, kind: 'wallet' })
})

afterAll(async () => {
  await Promise.all([modal?.close(), wallet?.close(), api?.close()])
  await rm(dir, { recursive: true, force: true })
})

type Response = { status: number; headers: IncomingHttpHeaders; body: Buffer; text: string }

/** A raw HTTP request: the path is sent exactly as given, nothing is decompressed. */
function request(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname, port, path, method: options.method ?? 'GET', headers: options.headers ?? {} },
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

function frameAncestorsOf(response: Response): string | undefined {
  return String(response.headers['content-security-policy'])
    .split('; ')
    .find((directive) => directive.startsWith('frame-ancestors'))
}

describe('the HTML document', () => {
  test('the modal may be framed only by the origins the project allows', async () => {
    const response = await request(modal.url, '/?projectId=porthole-demo')
    expect(response.status).toBe(200)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.headers['content-security-policy']).toBe(
      [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        `img-src 'self' data: ${api.url}`,
        `connect-src 'self' ${api.url} ws://127.0.0.1:4400`,
        'frame-src http://127.0.0.1:4200',
        "font-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "object-src 'none'",
        'frame-ancestors http://localhost:4000',
      ].join('; '),
    )
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers['referrer-policy']).toBe('no-referrer')
    expect(response.headers['cache-control']).toBe('no-cache')
    expect((await request(modal.url, '/index.html?projectId=wildcard')).headers).toMatchObject({
      'content-security-policy': expect.stringMatching(
        /; frame-ancestors https:\/\/\*\.example\.com http:\/\/localhost:\*$/,
      ),
    })
  })

  test('the wallet may be framed by the modal origin and the project origins, and frames nothing', async () => {
    const response = await request(wallet.url, '/?projectId=porthole-demo')
    expect(frameAncestorsOf(response)).toBe(
      'frame-ancestors http://127.0.0.1:4100 http://localhost:4000',
    )
    expect(response.headers['content-security-policy']).not.toContain('frame-src')
  })

  test('an unknown project cannot frame either app', async () => {
    for (const server of [modal, wallet])
      expect(frameAncestorsOf(await request(server.url, '/?projectId=unknown-project'))).toBe(
        "frame-ancestors 'none'",
      )
  })

  test('without a projectId the modal may be framed anywhere (it only shows an alert), the wallet nowhere', async () => {
    expect(frameAncestorsOf(await request(modal.url, '/'))).toBe('frame-ancestors *')
    expect(frameAncestorsOf(await request(modal.url, '/?origin=x'))).toBe('frame-ancestors *')
    expect(frameAncestorsOf(await request(wallet.url, '/'))).toBe("frame-ancestors 'none'")
  })

  test.each([
    'projectid=attacker&projectId=porthole-demo',
    'projectID=&projectId=porthole-demo',
    'projectId=porthole-demo&projectId=wildcard',
    'project%49d=porthole-demo',
    'projectId[]=wildcard&projectId=porthole-demo',
    'projectId=',
    'projectId=%20porthole-demo',
  ])('?%s is refused with 400, framed by nobody (as nginx does)', async (query) => {
    for (const server of [modal, wallet])
      for (const path of ['/', '/index.html']) {
        const response = await request(server.url, `${path}?${query}`)
        expect(response.status, `${server.url}${path}`).toBe(400)
        expect(frameAncestorsOf(response)).toBe("frame-ancestors 'none'")
        expect(response.text).toContain('projectId')
        expect(response.text).not.toContain('porthole-config')
      }
  })

  test('an API failure fails closed', async () => {
    api.projects.set('flaky', ['http://localhost:4000'])
    api.failWith = 503
    try {
      expect(frameAncestorsOf(await request(modal.url, '/?projectId=flaky'))).toBe(
        "frame-ancestors 'none'",
      )
    } finally {
      api.failWith = undefined
    }
  })

  test('an allowlist change is seen within about a second, without a restart', async () => {
    api.projects.set('changing', ['http://localhost:4000'])
    expect(frameAncestorsOf(await request(modal.url, '/?projectId=changing'))).toBe(
      'frame-ancestors http://localhost:4000',
    )
    api.projects.set('changing', ['https://shop.example.com'])
    const changed = Date.now()
    let seen: string | undefined
    while (Date.now() - changed < 3000) {
      seen = frameAncestorsOf(await request(modal.url, '/?projectId=changing'))
      if (seen === 'frame-ancestors https://shop.example.com') break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(seen).toBe('frame-ancestors https://shop.example.com')
    expect(Date.now() - changed).toBeLessThan(1500)
  })

  test('the runtime config replaces the placeholder as escaped JSON', async () => {
    const { text } = await request(modal.url, '/?projectId=porthole-demo')
    expect(text).not.toContain('__PORTHOLE_CONFIG__')
    const content = /name="porthole-config" content="([^"]*)"/.exec(text)?.[1]
    expect(content).toContain('&quot;')
    expect(JSON.parse(content!.replaceAll('&quot;', '"').replaceAll('&amp;', '&'))).toEqual({
      apiUrl: api.url,
      walletUrl: 'http://127.0.0.1:4200',
      modalUrl: 'http://127.0.0.1:4100',
      relayUrl,
      recoveryUrl: 'http://127.0.0.1:4700',
    })
  })
})

describe('static files', () => {
  test('each file class gets its Cache-Control and Content-Type', async () => {
    const expectations: [string, string, string][] = [
      ['/assets/index-BXk2c8Ab.js', 'public, max-age=31536000, immutable', 'text/javascript'],
      ['/assets/index-D_3nCs9f.css', 'public, max-age=31536000, immutable', 'text/css'],
      ['/assets/logo-Ab12Cd34.png', 'public, max-age=31536000, immutable', 'image/png'],
      ['/sdk.js', 'public, max-age=300', 'text/javascript'],
      ['/sdk/1.2.3/sdk.js', 'public, max-age=31536000, immutable', 'text/javascript'],
      ['/sdk/1.2.3/sdk-chains.js', 'public, max-age=31536000, immutable', 'text/javascript'],
      ['/sdk/1.2.3/sdk-calls.js', 'public, max-age=31536000, immutable', 'text/javascript'],
      ['/favicon.svg', 'public, max-age=3600', 'image/svg+xml'],
      ['/robots.txt', 'public, max-age=3600', 'text/plain'],
    ]
    for (const [path, cacheControl, type] of expectations) {
      const response = await request(modal.url, path)
      expect(response.status, path).toBe(200)
      expect(response.headers['cache-control'], path).toBe(cacheControl)
      expect(response.headers['content-type'], path).toContain(type)
      expect(response.headers['x-content-type-options'], path).toBe('nosniff')
    }
  })

  test('the SDK is served at /sdk.js and at its version, to any origin (CORS for integrity checks)', async () => {
    for (const [path, body] of [
      ['/sdk.js', SDK_JS],
      ['/sdk/1.2.3/sdk.js', SDK_JS],
      ['/sdk/1.2.3/sdk-chains.js', SDK_CHAINS_JS],
      ['/sdk/1.2.3/sdk-calls.js', SDK_CALLS_JS],
    ] as const) {
      const response = await request(modal.url, path, {
        headers: { origin: 'https://any-host.example' },
      })
      expect(response.status, path).toBe(200)
      expect(response.text, path).toBe(body)
      expect(response.headers['access-control-allow-origin'], path).toBe('*')
      expect(response.headers['cross-origin-resource-policy'], path).toBe('cross-origin')
      expect((await request(wallet.url, path)).status, path).toBe(404)
    }
    // Only the version built: another one must not be answered with these bytes.
    for (const path of [
      '/sdk/1.2.4/sdk.js',
      '/sdk/latest/sdk.js',
      '/sdk/1.2.3/sdk.js/x',
      '/sdk/1.2.4/sdk-chains.js',
      '/sdk-chains.js',
      '/sdk-calls.js',
      '/sdk/1.2.4/sdk-calls.js',
    ]) {
      const response = await request(modal.url, path)
      expect(response.status, path).toBe(404)
      expect(response.headers['access-control-allow-origin'], path).toBeUndefined()
    }
    // Other files are not opened to every origin.
    const asset = await request(modal.url, '/assets/index-BXk2c8Ab.js', {
      headers: { origin: 'https://any-host.example' },
    })
    expect(asset.headers['access-control-allow-origin']).toBeUndefined()
  })

  test('bodies are compressed per Accept-Encoding, brotli preferred', async () => {
    const br = await request(modal.url, '/assets/index-BXk2c8Ab.js', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toBe('Accept-Encoding')
    expect(Number(br.headers['content-length'])).toBe(br.body.length)
    expect(br.body.length).toBeLessThan(APP_JS.length / 10)
    expect(brotliDecompressSync(br.body).toString()).toBe(APP_JS)

    const gzip = await request(modal.url, '/assets/index-BXk2c8Ab.js', {
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzip.body).toString()).toBe(APP_JS)

    const plain = await request(modal.url, '/assets/index-BXk2c8Ab.js')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.text).toBe(APP_JS)

    const png = await request(modal.url, '/assets/logo-Ab12Cd34.png', {
      headers: { 'accept-encoding': 'br' },
    })
    expect(png.headers['content-encoding']).toBeUndefined()
    expect(png.body.length).toBe(2048)
  })

  test("a file's precompressed sibling is sent as it is: .br for br, .gz for gzip", async () => {
    const path = '/assets/pre-Ab12Cd34.js'
    const br = await request(modal.url, path, { headers: { 'accept-encoding': 'gzip, br' } })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.body).toEqual(lowBrotli(PRE_JS))
    expect(Number(br.headers['content-length'])).toBe(br.body.length)
    expect(br.headers.vary).toBe('Accept-Encoding')
    expect(br.headers.etag).toMatch(/^".+-br"$/)
    const gzip = await request(modal.url, path, { headers: { 'accept-encoding': 'gzip' } })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gzip.body).toEqual(lowGzip(PRE_JS))
    const plain = await request(modal.url, path, { headers: { 'accept-encoding': 'identity' } })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.text).toBe(PRE_JS)
    expect(new Set([br.headers.etag, gzip.headers.etag, plain.headers.etag]).size).toBe(3)
    const head = await request(modal.url, path, {
      method: 'HEAD',
      headers: { 'accept-encoding': 'br' },
    })
    expect(head.body.length).toBe(0)
    expect(head.headers['content-length']).toBe(String(lowBrotli(PRE_JS).length))
    const again = await request(modal.url, path, {
      headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) },
    })
    expect(again.status).toBe(304)
  })

  test('the SDK is sent from sdk.js.br at both of its paths, sdk-chains.js and sdk-calls.js from their own siblings', async () => {
    for (const [path, body] of [
      ['/sdk.js', SDK_JS],
      ['/sdk/1.2.3/sdk.js', SDK_JS],
      ['/sdk/1.2.3/sdk-chains.js', SDK_CHAINS_JS],
      ['/sdk/1.2.3/sdk-calls.js', SDK_CALLS_JS],
      ['/sdk/1.2.3/sdk-calls.js', SDK_CALLS_JS],
    ] as const) {
      const response = await request(modal.url, path, { headers: { 'accept-encoding': 'br' } })
      expect(response.headers['content-encoding'], path).toBe('br')
      expect(response.body, path).toEqual(lowBrotli(body))
    }
  })

  test('a sibling of another build of the file is never sent, older or newer than the file', async () => {
    const file = join(dir, 'dist', 'assets', 'stale-Ab12Cd34.js')
    const previous = PRE_JS.replace('build time', 'an older build')
    const current = PRE_JS.replace('build time', 'the current build')
    const hourAgo = new Date(Date.now() - 3_600_000)
    // A stale sibling: from the previous build, older than the file.
    await writeFile(`${file}.br`, lowBrotli(previous))
    await writeFile(`${file}.gz`, lowGzip(previous))
    await utimes(`${file}.br`, hourAgo, hourAgo)
    await utimes(`${file}.gz`, hourAgo, hourAgo)
    await writeFile(file, current)
    for (const encoding of ['br', 'gzip'] as const) {
      const response = await request(modal.url, '/assets/stale-Ab12Cd34.js', {
        headers: { 'accept-encoding': encoding },
      })
      expect(response.headers['content-encoding']).toBe(encoding)
      const decoded =
        encoding === 'br' ? brotliDecompressSync(response.body) : gunzipSync(response.body)
      expect(decoded.toString()).toBe(current)
    }
    // A file put back with its old mtime, beside newer siblings of another version.
    const rolledBack = join(dir, 'dist', 'assets', 'back-Ab12Cd34.js')
    await writeFile(rolledBack, previous)
    await utimes(rolledBack, hourAgo, hourAgo)
    await writeFile(`${rolledBack}.br`, lowBrotli(current))
    const response = await request(modal.url, '/assets/back-Ab12Cd34.js', {
      headers: { 'accept-encoding': 'br' },
    })
    expect(brotliDecompressSync(response.body).toString()).toBe(previous)
  })

  test('HTML (its config injected here) is compressed on the fly at brotli 11', async () => {
    const response = await request(modal.url, '/page.html', {
      headers: { 'accept-encoding': 'br' },
    })
    expect(response.status).toBe(200)
    expect(response.headers['content-encoding']).toBe('br')
    const decoded = brotliDecompressSync(response.body)
    expect(decoded.toString()).not.toContain('__PORTHOLE_CONFIG__')
    expect(decoded.toString()).toContain('Step 39')
    // Quality 9 would give another length, so this tells the two apart.
    expect(brotliAt(9, decoded).length).not.toBe(brotliAt(11, decoded).length)
    expect(response.body.length).toBe(brotliAt(11, decoded).length)
  })

  test('a matching ETag answers 304 with no body, per encoding', async () => {
    const first = await request(modal.url, '/assets/index-D_3nCs9f.css', {
      headers: { 'accept-encoding': 'br' },
    })
    const etag = String(first.headers.etag)
    expect(etag).toMatch(/^".+-br"$/)
    const again = await request(modal.url, '/assets/index-D_3nCs9f.css', {
      headers: { 'accept-encoding': 'br', 'if-none-match': etag },
    })
    expect(again.status).toBe(304)
    expect(again.body.length).toBe(0)
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const weak = await request(modal.url, '/assets/index-D_3nCs9f.css', {
      headers: { 'accept-encoding': 'br', 'if-none-match': `"other", W/${etag}` },
    })
    expect(weak.status).toBe(304)
    const otherEncoding = await request(modal.url, '/assets/index-D_3nCs9f.css', {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    })
    expect(otherEncoding.status).toBe(200)
  })

  test('a revalidated document still carries its project CSP', async () => {
    const first = await request(modal.url, '/?projectId=porthole-demo')
    const again = await request(modal.url, '/?projectId=unknown-project', {
      headers: { 'if-none-match': String(first.headers.etag) },
    })
    expect(again.status).toBe(304)
    expect(frameAncestorsOf(again)).toBe("frame-ancestors 'none'")
  })

  test('HEAD answers the headers of GET without a body', async () => {
    const get = await request(modal.url, '/sdk.js', { headers: { 'accept-encoding': 'gzip' } })
    const head = await request(modal.url, '/sdk.js', {
      method: 'HEAD',
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(head.status).toBe(200)
    expect(head.body.length).toBe(0)
    expect(head.headers['content-length']).toBe(get.headers['content-length'])
    expect(head.headers.etag).toBe(get.headers.etag)
  })

  test('a file changed on disk is served fresh', async () => {
    const file = join(dir, 'dist', 'robots.txt')
    await writeFile(file, 'User-agent: *\nDisallow: /\n')
    expect((await request(modal.url, '/robots.txt')).text).toBe('User-agent: *\nDisallow: /\n')
  })

  test('paths outside the root, dotfiles and escaping symlinks are never served', async () => {
    const attempts = [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/assets/..%2F..%2Fsecret.txt',
      '/..%5csecret.txt',
      '/%2e%2e%5csecret.txt',
      '//secret.txt',
      `/${'%2e%2e/'.repeat(8)}etc/passwd`,
      '/link.txt',
      '/.env',
      '/%2eenv',
      '/index.html%00.js',
      '/%E0%A4%A',
      'http://evil.example/../secret.txt',
    ]
    for (const path of attempts) {
      const response = await request(modal.url, path)
      expect([400, 404], path).toContain(response.status)
      expect(response.text, path).not.toContain('SECRET')
      expect(response.text, path).not.toContain('root:')
    }
  })

  test('unknown paths are 404 and only GET and HEAD are allowed', async () => {
    expect((await request(modal.url, '/nope.js')).status).toBe(404)
    expect((await request(modal.url, '/assets/')).status).toBe(404)
    expect((await request(wallet.url, '/frame-check?projectId=porthole-demo')).status).toBe(404)
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const response = await request(modal.url, '/', { method })
      expect(response.status, method).toBe(405)
      expect(response.headers.allow).toBe('GET, HEAD')
    }
  })
})

describe('GET /frame-check', () => {
  const check = async (query: string, origin?: string) => {
    const response = await request(modal.url, `/frame-check${query}`, {
      headers: origin ? { origin } : {},
    })
    expect(response.status).toBe(200)
    expect(response.headers['content-type']).toContain('application/json')
    expect(response.headers.vary).toBe('Origin')
    expect(response.headers['cache-control']).toBe('no-store')
    return {
      body: JSON.parse(response.text) as unknown,
      acao: response.headers['access-control-allow-origin'],
    }
  }

  test('an allowed origin is told so, with CORS for that origin', async () => {
    expect(await check('?projectId=porthole-demo', 'http://localhost:4000')).toEqual({
      body: { allowed: true },
      acao: 'http://localhost:4000',
    })
    expect(await check('?projectId=wildcard', 'https://a.b.example.com')).toEqual({
      body: { allowed: true },
      acao: 'https://a.b.example.com',
    })
  })

  test('a refused origin learns why, readable by that origin', async () => {
    expect(await check('?projectId=porthole-demo', 'https://evil.example')).toEqual({
      body: { allowed: false, reason: 'Origin Not Allowed' },
      acao: 'https://evil.example',
    })
    expect(await check('?projectId=unknown-project', 'http://localhost:4000')).toEqual({
      body: { allowed: false, reason: 'Invalid Project ID' },
      acao: 'http://localhost:4000',
    })
    expect(await check('', 'http://localhost:4000')).toEqual({
      body: { allowed: false, reason: 'Project ID Not Configured' },
      acao: 'http://localhost:4000',
    })
    expect(await check('?projectId=porthole-demo')).toEqual({
      body: { allowed: false, reason: 'Origin Not Allowed' },
      acao: undefined,
    })
  })

  test("an allowlist the API did not give names the spec's alert: 5xx 'Server Error', 429 'Rate Limited'", async () => {
    // Each its own project: the server keeps an answer for a second.
    for (const [status, projectId, reason] of [
      [503, 'down', 'Server Error'],
      [429, 'limited', 'Rate Limited'],
    ] as const) {
      api.projects.set(projectId, ['http://localhost:4000'])
      api.failWith = status
      try {
        expect(await check(`?projectId=${projectId}`, 'http://localhost:4000')).toEqual({
          body: { allowed: false, reason },
          acao: 'http://localhost:4000',
        })
      } finally {
        api.failWith = undefined
      }
    }
  })
})
