import { afterEach, describe, expect, test } from 'vitest'
import { createTestApp, MODAL_ORIGIN, PROJECT_ID, type TestApp } from '../../test/testApp.js'
import { allowOrigin } from '../projects/allowOrigin.js'
import { createProject } from '../projects/createProject.js'
import { denyOrigin } from '../projects/denyOrigin.js'

let t: TestApp
afterEach(async () => {
  await t?.close()
})

const ALLOWED = 'frame-ancestors http://localhost:4000 https://*.shop.test'
const NONE = "frame-ancestors 'none'"

describe('GET /projects/v1/frame-policy', () => {
  // No st/sv: nginx sends only kind and projectId.
  const policy = (query: string) => t.app.request(`/projects/v1/frame-policy?${query}`)

  test("answers 204 with the modal's frame-ancestors, not cached", async () => {
    t = await createTestApp()
    const response = await policy(`kind=modal&projectId=${PROJECT_ID}`)
    expect(response.status).toBe(204)
    expect(response.headers.get('x-frame-ancestors')).toBe(ALLOWED)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.text()).toBe('')
  })

  test('lets the configured modal origin frame the wallet, before the allowlist', async () => {
    t = await createTestApp({ modalOrigin: 'https://modal.example' })
    const response = await policy(`kind=wallet&projectId=${PROJECT_ID}`)
    expect(response.status).toBe(204)
    expect(response.headers.get('x-frame-ancestors')).toBe(
      'frame-ancestors https://modal.example http://localhost:4000 https://*.shop.test',
    )
  })

  test("an unknown or malformed project answers 204 'none' (never 401/403)", async () => {
    t = await createTestApp()
    for (const kind of ['modal', 'wallet'])
      for (const id of ['nope', 'bad%20id', '..%2Fx', 'x'.repeat(65)]) {
        const response = await policy(`kind=${kind}&projectId=${id}`)
        expect(response.status, `${kind} ${id}`).toBe(204)
        expect(response.headers.get('x-frame-ancestors'), `${kind} ${id}`).toBe(NONE)
      }
  })

  test('without a projectId the modal may be framed anywhere and the wallet nowhere', async () => {
    t = await createTestApp()
    for (const query of ['kind=modal', 'kind=modal&projectId=', 'kind=modal&projectId=%20'])
      expect((await policy(query)).headers.get('x-frame-ancestors'), query).toBe(
        'frame-ancestors *',
      )
    for (const query of ['kind=wallet', 'kind=wallet&projectId='])
      expect((await policy(query)).headers.get('x-frame-ancestors'), query).toBe(NONE)
  })

  test('follows allowlist changes; an emptied allowlist frames nobody', async () => {
    t = await createTestApp()
    await createProject(t.db, { id: 'shop', origins: ['https://shop.example'] })
    expect((await policy('kind=modal&projectId=shop')).headers.get('x-frame-ancestors')).toBe(
      'frame-ancestors https://shop.example',
    )
    await allowOrigin(t.db, { projectId: 'shop', origin: 'https://*.shop.example' })
    expect((await policy('kind=modal&projectId=shop')).headers.get('x-frame-ancestors')).toBe(
      'frame-ancestors https://*.shop.example https://shop.example',
    )
    await denyOrigin(t.db, { projectId: 'shop', origin: 'https://*.shop.example' })
    await denyOrigin(t.db, { projectId: 'shop', origin: 'https://shop.example' })
    for (const kind of ['modal', 'wallet'])
      expect((await policy(`kind=${kind}&projectId=shop`)).headers.get('x-frame-ancestors')).toBe(
        NONE,
      )
  })

  test('a missing or unknown kind answers 400 Invalid Request', async () => {
    t = await createTestApp()
    for (const query of [`projectId=${PROJECT_ID}`, 'kind=', 'kind=MODAL', 'kind=host']) {
      const response = await policy(query)
      expect(response.status, query).toBe(400)
      expect(await response.json()).toEqual({ code: 'INVALID_REQUEST', message: 'Invalid Request' })
    }
  })

  test('is rate limited like the other project endpoints', async () => {
    t = await createTestApp({ rateLimit: { ratePerSecond: 0.5, burst: 2 } })
    const query = `kind=modal&projectId=${PROJECT_ID}`
    for (let i = 0; i < 2; i++) expect((await policy(query)).status).toBe(204)
    expect((await policy(query)).status).toBe(429)
  })
})

describe('GET /projects/v1/frame-check', () => {
  const check = (query: string, origin?: string) =>
    t.app.request(`/projects/v1/frame-check${query}`, { headers: origin ? { origin } : {} })

  test('tells an allowed origin it may frame the modal, readable cross-origin', async () => {
    t = await createTestApp()
    const response = await check(`?projectId=${PROJECT_ID}`, 'https://a.shop.test')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ allowed: true })
    expect(response.headers.get('access-control-allow-origin')).toBe('https://a.shop.test')
    expect(response.headers.get('vary')).toBe('Origin')
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  test('any host origin can read why it is refused (not only the frame origins)', async () => {
    t = await createTestApp()
    const response = await check(`?projectId=${PROJECT_ID}`, 'https://evil.test')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ allowed: false, reason: 'Origin Not Allowed' })
    expect(response.headers.get('access-control-allow-origin')).toBe('https://evil.test')
    // A frame origin gets the same answer, without the API's frame-origin CORS headers.
    const modal = await check(`?projectId=${PROJECT_ID}`, MODAL_ORIGIN)
    expect(await modal.json()).toEqual({ allowed: false, reason: 'Origin Not Allowed' })
    expect(modal.headers.get('access-control-allow-origin')).toBe(MODAL_ORIGIN)
    expect(modal.headers.get('access-control-expose-headers')).toBeNull()
    expect(modal.headers.get('vary')).toBe('Origin')
  })

  test('names an unknown or missing project, with no st/sv needed', async () => {
    t = await createTestApp()
    const origin = 'http://localhost:4000'
    for (const query of ['?projectId=nope', '?projectId=bad%20id'])
      expect(await (await check(query, origin)).json(), query).toEqual({
        allowed: false,
        reason: 'Invalid Project ID',
      })
    for (const query of ['', '?projectId=', '?projectId=%20'])
      expect(await (await check(query, origin)).json(), query).toEqual({
        allowed: false,
        reason: 'Project ID Not Configured',
      })
  })

  test('echoes only a well-formed Origin', async () => {
    t = await createTestApp()
    const none = await check(`?projectId=${PROJECT_ID}`)
    expect(await none.json()).toEqual({ allowed: false, reason: 'Origin Not Allowed' })
    expect(none.headers.get('access-control-allow-origin')).toBeNull()
    for (const origin of ['http://localhost:4000/path', 'localhost:4000', 'http://a b.test']) {
      const response = await check(`?projectId=${PROJECT_ID}`, origin)
      expect(await response.json(), origin).toEqual({
        allowed: false,
        reason: 'Origin Not Allowed',
      })
      expect(response.headers.get('access-control-allow-origin'), origin).toBeNull()
    }
  })
})
