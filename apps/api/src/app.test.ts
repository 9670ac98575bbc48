import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { KNOWN_NETWORKS } from '@porthole/shared'
import { afterEach, describe, expect, test } from 'vitest'
import {
  createTestApp,
  MODAL_ORIGIN,
  PROJECT_ID,
  type TestApp,
  WALLET_ORIGIN,
} from '../test/testApp.js'
import type { Db } from './db/Db.js'
import { allowOrigin } from './projects/allowOrigin.js'
import { createProject } from './projects/createProject.js'
import { DEFAULT_REMOTE_FEATURES, SocialProvider } from './projects/features.js'
import { setProjectFeatures } from './projects/setProjectFeatures.js'
import { trustOrigin } from './projects/trustOrigin.js'

let t: TestApp
afterEach(async () => {
  await t?.close()
})

describe('project resolution', () => {
  test('GET /health needs no project', async () => {
    t = await createTestApp()
    const response = await t.app.request('/health')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })
  })

  test('a missing projectId answers 400 Project ID Not Configured', async () => {
    t = await createTestApp()
    for (const path of [
      '/getWallets',
      '/appkit/v1/config?projectId=',
      '/projects/v1/origins?st=x',
    ]) {
      const response = await t.app.request(path)
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({
        code: 'PROJECT_ID_NOT_CONFIGURED',
        message: 'Project ID Not Configured',
      })
    }
  })

  test('an unknown or malformed projectId answers 403 Invalid Project ID', async () => {
    t = await createTestApp()
    for (const id of ['nope', 'bad%20id', 'x'.repeat(65)]) {
      const response = await t.get(`/getWallets?projectId=${id}`)
      expect(response.status).toBe(403)
      expect(await response.json()).toEqual({
        code: 'INVALID_PROJECT_ID',
        message: 'Invalid Project ID',
      })
    }
  })

  test('a project created after start is served without restart (cache ≤ ttl)', async () => {
    t = await createTestApp({ projectCacheMs: 50, projectNegativeCacheMs: 50 })
    expect((await t.get('/projects/v1/origins?projectId=late')).status).toBe(403)
    await createProject(t.db, { id: 'late', origins: ['https://late.test'] })
    await allowOrigin(t.db, { projectId: PROJECT_ID, origin: 'https://new.test' })
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(await (await t.get('/projects/v1/origins?projectId=late')).json()).toMatchObject({
      allowedOrigins: ['https://late.test'],
    })
    expect((await (await t.get('/projects/v1/origins')).json()).allowedOrigins).toContain(
      'https://new.test',
    )
  })

  test('an unknown path answers 404 JSON', async () => {
    t = await createTestApp()
    const response = await t.get('/nope')
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ code: 'NOT_FOUND', message: 'Not Found' })
  })
})

describe('configuration endpoints', () => {
  test('GET /projects/v1/origins lists the allowlist patterns, the origins trusted for approvals in the page, and the remote features', async () => {
    t = await createTestApp({ projectCacheMs: 0 })
    const body = (await (await t.get('/projects/v1/origins')).json()) as Record<string, unknown>
    expect(body.allowedOrigins).toEqual(['http://localhost:4000', 'https://*.shop.test'])
    // A new project's origins are not trusted: the wallet frame sends every approval to its popup.
    expect(body.inlineApprovalOrigins).toEqual([])
    await trustOrigin(t.db, { projectId: PROJECT_ID, origin: 'http://localhost:4000' })
    expect(await (await t.get('/projects/v1/origins')).json()).toMatchObject({
      inlineApprovalOrigins: ['http://localhost:4000'],
    })
    // Another project allowing the same origin does not share its trust.
    await createProject(t.db, { id: 'other', origins: ['http://localhost:4000'] })
    expect(await (await t.get('/projects/v1/origins?projectId=other')).json()).toMatchObject({
      allowedOrigins: ['http://localhost:4000'],
      inlineApprovalOrigins: [],
    })
    expect(body.features).toEqual(
      ((await (await t.get('/appkit/v1/config')).json()) as { features: unknown }).features,
    )
  })

  test('GET /appkit/v1/config answers the spec defaults, overridden per project', async () => {
    t = await createTestApp()
    expect(await (await t.get('/appkit/v1/config')).json()).toEqual({
      features: {
        swaps: ['1inch'],
        onramp: ['meld'],
        email: true,
        socials: ['google', 'x', 'discord', 'farcaster', 'github', 'apple', 'facebook'],
        activity: true,
        multiWallet: false,
      },
    })
    await setProjectFeatures(t.db, {
      projectId: PROJECT_ID,
      features: { multiWallet: true, onramp: false },
    })
    expect(await (await t.get('/appkit/v1/config')).json()).toEqual({
      features: { ...DEFAULT_REMOTE_FEATURES, multiWallet: true, onramp: false },
    })
  })

  test('GET /getAnalyticsConfig answers isAnalyticsEnabled', async () => {
    t = await createTestApp()
    expect(await (await t.get('/getAnalyticsConfig')).json()).toEqual({ isAnalyticsEnabled: true })
    await setProjectFeatures(t.db, { projectId: PROJECT_ID, features: { analytics: false } })
    expect(await (await t.get('/getAnalyticsConfig')).json()).toEqual({ isAnalyticsEnabled: false })
  })
})

describe('GET /getWallets', () => {
  test('defaults to page 1 of 40 with the total count and project-bound image URLs', async () => {
    t = await createTestApp()
    const response = await t.get('/getWallets')
    expect(response.status).toBe(200)
    const { data, count } = await response.json()
    expect(data).toHaveLength(40)
    expect(count).toBeGreaterThan(40)
    expect(data[0].name).toBe('MetaMask')
    expect(data[0].image_url).toBe(
      `http://api.test/getWalletImage/metamask?projectId=${PROJECT_ID}&st=appkit&sv=html-test-1`,
    )
  })

  test('search, include, exclude, chains and paging come from the query', async () => {
    t = await createTestApp()
    const search = await (await t.get('/getWallets?page=1&entries=100&search=%20RAIN%20')).json()
    expect(search.data.map((w: { name: string }) => w.name)).toEqual(['Rainbow'])
    const metamask = 'c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96'
    const trust = '4622a2b2d6af1c9844944291e5e7351a6aa24cd7b23099efac1b2fd875da31a0'
    const included = await (
      await t.get(`/getWallets?include=${trust},${metamask},&exclude=${trust}`)
    ).json()
    expect(included).toMatchObject({ count: 1, data: [{ name: 'MetaMask' }] })
    const solana = await (
      await t.get('/getWallets?chains=solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp&entries=3&page=2')
    ).json()
    expect(solana.data).toHaveLength(3)
    for (const wallet of solana.data)
      expect(wallet.chains).toContain('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')
  })

  test('rejects out-of-range or malformed parameters with 400 Invalid Request', async () => {
    t = await createTestApp()
    for (const query of [
      'entries=101',
      'entries=0',
      'page=0',
      'page=abc',
      'include=not-an-id',
      'chains=eip155',
      'badge_type=gold',
      `search=${'a'.repeat(101)}`,
    ]) {
      const response = await t.get(`/getWallets?${query}`)
      expect(response.status, query).toBe(400)
      expect(await response.json()).toMatchObject({
        code: 'INVALID_REQUEST',
        message: 'Invalid Request',
      })
    }
  })
})

describe('images', () => {
  test('serves wallet, network, currency and token SVGs with cache and safety headers', async () => {
    t = await createTestApp()
    for (const path of [
      '/getWalletImage/metamask',
      '/public/getAssetImage/eip155:8453',
      '/public/getAssetImage/eip155-31337',
      '/public/getAssetImage/solana',
      '/public/getAssetImage/bip122',
      '/public/getCurrencyImage/USD',
      '/public/getTokenImage/USDC',
      '/public/getSocialImage/google',
      '/public/getSocialImage/GitHub',
    ]) {
      const response = await t.get(path)
      expect(response.status, path).toBe(200)
      expect(response.headers.get('content-type')).toBe('image/svg+xml')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('content-security-policy')).toBe(
        "default-src 'none'; style-src 'unsafe-inline'",
      )
      expect(response.headers.get('cache-control')).toMatch(/max-age=\d{6,}/)
      expect(await response.text()).toMatch(/^<svg /)
    }
  })

  test('every known network and every social provider has an image', async () => {
    t = await createTestApp()
    for (const network of KNOWN_NETWORKS) {
      const path = `/public/getAssetImage/${network.assets.imageId}`
      expect((await t.get(path)).status, path).toBe(200)
    }
    for (const provider of SocialProvider.options) {
      const path = `/public/getSocialImage/${provider}`
      expect((await t.get(path)).status, path).toBe(200)
    }
  })

  test('brand logos replace the monograms: MetaMask, Ethereum and Google are drawn, not lettered', async () => {
    t = await createTestApp()
    for (const path of [
      '/getWalletImage/metamask',
      '/public/getAssetImage/eip155:1',
      '/public/getSocialImage/google',
    ]) {
      const body = await (await t.get(path)).text()
      expect(body, path).toMatch(/<path [^>]*d="M/)
      expect(body, path).not.toMatch(/<text/)
    }
  })

  test('SVGs come brotli- or gzip-compressed as the request accepts, with Vary and an ETag per encoding', async () => {
    t = await createTestApp()
    const plain = await t.get('/getWalletImage/metamask')
    const text = await plain.text()
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.headers.get('vary')).toMatch(/Accept-Encoding/)
    const br = await t.get('/getWalletImage/metamask', { 'accept-encoding': 'gzip, deflate, br' })
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('content-type')).toBe('image/svg+xml')
    expect(br.headers.get('vary')).toMatch(/Accept-Encoding/)
    const brBody = Buffer.from(await br.arrayBuffer())
    expect(brBody.length).toBeLessThan(text.length)
    expect(brotliDecompressSync(brBody).toString()).toBe(text)
    const gzip = await t.get('/getWalletImage/metamask', { 'accept-encoding': 'gzip' })
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(text)
    const etags = [plain, br, gzip].map((response) => response.headers.get('etag'))
    expect(new Set(etags).size).toBe(3)
    const again = await t.get('/getWalletImage/metamask', {
      'accept-encoding': 'br',
      'if-none-match': etags[1]!,
    })
    expect(again.status).toBe(304)
    expect(
      (
        await t.get('/getWalletImage/metamask', {
          'accept-encoding': 'br',
          'if-none-match': etags[0]!,
        })
      ).status,
    ).toBe(200)
  })

  test('an assets directory given to the app is what it serves, in place of the bundled logos', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'porthole-assets-'))
    try {
      mkdirSync(join(dir, 'wallets'))
      const own =
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="#123456" d="M0 0h24v24H0z"/></svg>'
      writeFileSync(join(dir, 'wallets', 'metamask.svg'), own)
      t = await createTestApp({ assetsDir: dir })
      const response = await t.get('/getWalletImage/metamask')
      expect(response.status).toBe(200)
      expect(await response.text()).toBe(own)
      expect((await t.get('/getWalletImage/trust')).status).toBe(404)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('an assets directory holding an SVG with a script stops the app from starting', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'porthole-assets-'))
    try {
      mkdirSync(join(dir, 'socials'))
      writeFileSync(
        join(dir, 'socials', 'google.svg'),
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      )
      await expect(createTestApp({ assetsDir: dir })).rejects.toThrow(
        /socials\/google\.svg: refused SVG/,
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('the network ids of eip155 chains 1, 10, 137, 8453, 42161, 56, 11155111, 31337, 31338 exist', async () => {
    t = await createTestApp()
    for (const id of [1, 10, 137, 8453, 42161, 56, 11155111, 31337, 31338])
      expect((await t.get(`/public/getAssetImage/eip155:${id}`)).status, String(id)).toBe(200)
  })

  test('answers 304 to a matching If-None-Match', async () => {
    t = await createTestApp()
    const first = await t.get('/public/getTokenImage/eth')
    const etag = first.headers.get('etag')!
    const second = await t.get('/public/getTokenImage/eth', { 'if-none-match': etag })
    expect(second.status).toBe(304)
  })

  test('unknown or path-like ids answer 404 JSON', async () => {
    t = await createTestApp()
    for (const path of [
      '/getWalletImage/nope',
      '/getWalletImage/..%2F..%2Fpackage.json',
      '/public/getAssetImage/eip155:999',
      '/public/getCurrencyImage/XXX',
      '/public/getSocialImage/myspace',
      '/public/getSocialImage/..%2Fwallets%2Fmetamask',
    ]) {
      const response = await t.get(path)
      expect(response.status, path).toBe(404)
      expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' })
    }
  })
})

describe('CORS', () => {
  test('allows only the frame origins, exactly', async () => {
    t = await createTestApp()
    for (const origin of [MODAL_ORIGIN, WALLET_ORIGIN]) {
      const response = await t.get('/appkit/v1/config', { origin })
      expect(response.headers.get('access-control-allow-origin')).toBe(origin)
      expect(response.headers.get('vary')).toMatch(/Origin/)
    }
    for (const origin of [
      'http://localhost:4000',
      'http://127.0.0.1:4101',
      `${MODAL_ORIGIN}.evil.test`,
    ]) {
      const response = await t.get('/appkit/v1/config', { origin })
      expect(response.headers.get('access-control-allow-origin'), origin).toBeNull()
    }
  })

  test('answers preflights for frame origins and refuses others', async () => {
    t = await createTestApp()
    const preflight = (origin: string) =>
      t.app.request('/e?projectId=test-project', {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      })
    const ok = await preflight(MODAL_ORIGIN)
    expect(ok.status).toBe(204)
    expect(ok.headers.get('access-control-allow-origin')).toBe(MODAL_ORIGIN)
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST')
    expect(ok.headers.get('access-control-allow-headers')).toMatch(/content-type/i)
    const refused = await preflight('https://evil.test')
    expect(refused.status).toBe(403)
    expect(refused.headers.get('access-control-allow-origin')).toBeNull()
    expect(await refused.json()).toEqual({
      code: 'ORIGIN_NOT_ALLOWED',
      message: 'Origin Not Allowed',
    })
  })

  test('error responses to a frame origin are readable (CORS headers on 4xx)', async () => {
    t = await createTestApp()
    const response = await t.app.request('/getWallets?projectId=nope', {
      headers: { origin: MODAL_ORIGIN },
    })
    expect(response.status).toBe(403)
    expect(response.headers.get('access-control-allow-origin')).toBe(MODAL_ORIGIN)
  })
})

describe('rate limiting', () => {
  test('answers 429 Rate Limited with Retry-After once the bucket is empty, per project', async () => {
    t = await createTestApp({ rateLimit: { ratePerSecond: 0.5, burst: 3 } })
    for (let i = 0; i < 3; i++) expect((await t.get('/getAnalyticsConfig')).status).toBe(200)
    const limited = await t.get('/getAnalyticsConfig', { origin: MODAL_ORIGIN })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('2')
    expect(limited.headers.get('access-control-expose-headers')).toMatch(/Retry-After/)
    expect(await limited.json()).toEqual({ code: 'RATE_LIMITED', message: 'Rate Limited' })
    // another project has its own bucket; /health is never limited
    await createProject(t.db, { id: 'other' })
    expect((await t.get('/getAnalyticsConfig?projectId=other')).status).toBe(200)
    expect((await t.app.request('/health')).status).toBe(200)
  })
})

describe('unexpected errors', () => {
  test('map to 500 Server Error and are reported once', async () => {
    const reported: unknown[] = []
    t = await createTestApp({ onError: (error) => reported.push(error) })
    const broken: Db = {
      ...t.db,
      query: async () => {
        throw new Error('disk on fire')
      },
    }
    const { createApp } = await import('./app.js')
    const app = createApp({
      db: broken,
      config: { onError: (error) => reported.push(error), rateLimit: false },
    })
    const response = await app.request(`/getWallets?projectId=${PROJECT_ID}`)
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({ code: 'SERVER_ERROR', message: 'Server Error' })
    expect(reported).toHaveLength(1)
    expect(String(reported[0])).toContain('disk on fire')
  })
})

describe('POST /e (analytics)', () => {
  const event = {
    eventId: '6f1b8a0e-5f7e-4c51-9d8e-3f2b8c1a0d11',
    url: 'http://localhost:4000/checkout',
    domain: 'localhost:4000',
    timestamp: 1_763_000_000_000,
    props: {
      type: 'error',
      event: 'ERROR',
      errorType: 'HttpError',
      errorMessage: 'HTTP status code: 503',
      stackTrace: 'HttpError: HTTP status code: 503\n    at send (http.ts:61)',
    },
  }

  test('stores an error report once per eventId and answers 204', async () => {
    t = await createTestApp()
    expect((await t.post('/e', event)).status).toBe(204)
    expect((await t.post('/e', event)).status).toBe(204)
    expect(
      (
        await t.post('/e', {
          ...event,
          eventId: 'e2',
          props: { type: 'track', event: 'SEND_SUCCESS', properties: { amount: '1' } },
        })
      ).status,
    ).toBe(204)
    const rows = await t.db.query<{
      event_id: string
      project_id: string
      props: string
      sdk_type: string
      sdk_version: string
      timestamp: number
    }>(
      'SELECT event_id, project_id, props, sdk_type, sdk_version, timestamp FROM analytics_events ORDER BY event_id',
    )
    expect(rows).toHaveLength(2)
    expect(rows[0]).toMatchObject({
      event_id: event.eventId,
      project_id: PROJECT_ID,
      sdk_type: 'appkit',
      sdk_version: 'html-test-1',
      timestamp: event.timestamp,
    })
    expect(JSON.parse(rows[0]!.props)).toEqual(event.props)
  })

  test('refuses invalid bodies, non-JSON content types and oversized bodies', async () => {
    t = await createTestApp()
    const bad = [
      { ...event, props: { type: 'error', event: 'ERROR' } },
      { ...event, timestamp: 'yesterday' },
      { ...event, url: 'not a url' },
      { ...event, extra: 1 },
    ]
    for (const body of bad) {
      const response = await t.post('/e', body)
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'INVALID_REQUEST' })
    }
    expect((await t.post('/e', '{nope')).status).toBe(400)
    expect((await t.post('/e', event, { 'content-type': 'text/plain' })).status).toBe(415)
    const huge = { ...event, props: { ...event.props, stackTrace: 'x'.repeat(70_000) } }
    const tooLarge = await t.post('/e', huge)
    expect(tooLarge.status).toBe(413)
    expect(await tooLarge.json()).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'Payload Too Large',
    })
    expect(await t.db.query('SELECT id FROM analytics_events')).toEqual([])
  })

  test('does not store events of a project with analytics off', async () => {
    t = await createTestApp()
    await setProjectFeatures(t.db, { projectId: PROJECT_ID, features: { analytics: false } })
    expect((await t.post('/e', event)).status).toBe(204)
    expect(await t.db.query('SELECT id FROM analytics_events')).toEqual([])
  })
})
