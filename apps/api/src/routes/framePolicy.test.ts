import { afterEach, describe, expect, test } from 'vitest'
import {
  createTestApp,
  MODAL_ORIGIN,
  PROJECT_ID,
  type TestApp,
  WALLET_ORIGIN,
} from '../../test/testApp.js'
import { addProjectDomain } from '../projects/addProjectDomain.js'
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

describe('custom domains (issue 18)', () => {
  const CONNECT = 'https://connect.shop.test'
  const WALLET = 'https://wallet.shop.test'
  const policy = (query: string) => t.app.request(`/projects/v1/frame-policy?${query}`)
  const ancestors = async (query: string) => (await policy(query)).headers.get('x-frame-ancestors')
  const register = async () => {
    await addProjectDomain(t.db, {
      projectId: PROJECT_ID,
      modalOrigin: CONNECT,
      walletOrigin: WALLET,
    })
    // The attacker's own project, allowing the attacker's site.
    await createProject(t.db, { id: 'attacker', origins: ['https://attacker.test'] })
  }

  test("a custom modal is framed by its project's allowlist, whatever projectId the URL names", async () => {
    t = await createTestApp()
    await register()
    const origin = `frameOrigin=${encodeURIComponent(CONNECT)}`
    const response = await policy(`kind=modal&projectId=${PROJECT_ID}&${origin}`)
    expect(response.status).toBe(204)
    expect(response.headers.get('x-frame-ancestors')).toBe(ALLOWED)
    expect(response.headers.get('x-porthole-modal-origin')).toBe(CONNECT)
    expect(response.headers.get('x-porthole-wallet-origin')).toBe(WALLET)
    expect(response.headers.get('x-porthole-passkey-rp-id')).toBe('shop.test')
    // No projectId: the domain's project.
    expect(await ancestors(`kind=modal&${origin}`)).toBe(ALLOWED)
    // The attacker names its own project on the victim's domain: framed by nobody.
    expect(await ancestors(`kind=modal&projectId=attacker&${origin}`)).toBe(NONE)
    expect(await ancestors(`kind=modal&projectId=bad%20id&${origin}`)).toBe(NONE)
    // The attacker's project without a domain still works on Porthole's own origin.
    expect(await ancestors('kind=modal&projectId=attacker')).toBe(
      'frame-ancestors https://attacker.test',
    )
  })

  test('a custom wallet is framed by its own modal and the allowlist; other origins by nobody', async () => {
    t = await createTestApp()
    await register()
    const wallet = `frameOrigin=${encodeURIComponent(WALLET)}`
    expect(await ancestors(`kind=wallet&projectId=${PROJECT_ID}&${wallet}`)).toBe(
      `frame-ancestors ${CONNECT} http://localhost:4000 https://*.shop.test`,
    )
    // The wrong frame on a domain, an unknown origin, another project: 'none'.
    expect(await ancestors(`kind=modal&${wallet}`)).toBe(NONE)
    expect(await ancestors(`kind=wallet&frameOrigin=${encodeURIComponent(CONNECT)}`)).toBe(NONE)
    expect(
      await ancestors(`kind=modal&frameOrigin=${encodeURIComponent('https://evil.test')}`),
    ).toBe(NONE)
    expect(await ancestors(`kind=wallet&projectId=attacker&${wallet}`)).toBe(NONE)
    // Porthole's own wallet keeps Porthole's modal for this project (the domain has a wallet).
    expect(await ancestors(`kind=wallet&projectId=${PROJECT_ID}`)).toBe(
      `frame-ancestors ${MODAL_ORIGIN} http://localhost:4000 https://*.shop.test`,
    )
    // A malformed origin is a bad request.
    for (const bad of ['https://wallet.shop.test/', 'HTTPS://wallet.shop.test', 'wallet.shop.test'])
      expect((await policy(`kind=wallet&frameOrigin=${encodeURIComponent(bad)}`)).status, bad).toBe(
        400,
      )
  })

  test("a custom modal without a wallet of its own is the one modal Porthole's wallet answers for the project", async () => {
    t = await createTestApp()
    await addProjectDomain(t.db, { projectId: PROJECT_ID, modalOrigin: CONNECT })
    const response = await policy(`kind=wallet&projectId=${PROJECT_ID}`)
    expect(response.headers.get('x-frame-ancestors')).toBe(
      `frame-ancestors ${CONNECT} http://localhost:4000 https://*.shop.test`,
    )
    expect(response.headers.get('x-porthole-modal-origin')).toBe(CONNECT)
    const modal = await policy(`kind=modal&frameOrigin=${encodeURIComponent(CONNECT)}`)
    expect(modal.headers.get('x-porthole-wallet-origin')).toBeNull()
    expect(modal.headers.get('x-porthole-passkey-rp-id')).toBeNull()
  })

  test("frame-check for a custom modal domain answers for the domain's project", async () => {
    t = await createTestApp()
    await register()
    const check = (query: string, origin: string) =>
      t.app.request(`/projects/v1/frame-check?${query}`, { headers: { origin } })
    const on = `frameOrigin=${encodeURIComponent(CONNECT)}`
    expect(await (await check(`projectId=attacker&${on}`, 'https://attacker.test')).json()).toEqual(
      { allowed: false, reason: 'Origin Not Allowed' },
    )
    expect(await (await check(on, 'https://a.shop.test')).json()).toEqual({ allowed: true })
    // The SDK's own query carries the host page as `origin`: that is not a frame origin.
    expect(
      await (
        await check(
          `projectId=${PROJECT_ID}&origin=http%3A%2F%2Flocalhost%3A4000`,
          'https://evil.test',
        )
      ).json(),
    ).toEqual({ allowed: false, reason: 'Origin Not Allowed' })
    expect(
      await (
        await check(`frameOrigin=${encodeURIComponent(WALLET)}`, 'https://a.shop.test')
      ).json(),
    ).toEqual({ allowed: false, reason: 'Invalid Project ID' })
  })

  describe("frame-check?kind=wallet: whether the wallet document lets the asking modal frame it for a site (else 'Unverified Domain')", () => {
    const SITE = encodeURIComponent('http://localhost:4000')
    const walletCheck = async (query: string, origin: string) =>
      (
        await t.app.request(`/projects/v1/frame-check?kind=wallet&${query}`, {
          headers: { origin },
        })
      ).json()

    test("Porthole's wallet answers Porthole's modal for an allowed site, not another modal or site", async () => {
      t = await createTestApp()
      expect(await walletCheck(`projectId=${PROJECT_ID}&site=${SITE}`, MODAL_ORIGIN)).toEqual({
        allowed: true,
      })
      expect(
        await walletCheck(`projectId=${PROJECT_ID}&site=${SITE}`, 'https://connect.evil.test'),
      ).toEqual({ allowed: false, reason: 'Unverified Domain' })
      const evilSite = encodeURIComponent('https://evil.test')
      expect(await walletCheck(`projectId=${PROJECT_ID}&site=${evilSite}`, MODAL_ORIGIN)).toEqual({
        allowed: false,
        reason: 'Unverified Domain',
      })
      // Its own frame origin named as the wallet's is Porthole's wallet, not a custom domain.
      const own = encodeURIComponent(WALLET_ORIGIN)
      expect(
        await walletCheck(`projectId=${PROJECT_ID}&frameOrigin=${own}&site=${SITE}`, MODAL_ORIGIN),
      ).toEqual({ allowed: true })
      expect(await walletCheck('projectId=nope', MODAL_ORIGIN)).toEqual({
        allowed: false,
        reason: 'Invalid Project ID',
      })
    })

    test("a project whose custom modal has no wallet of its own: Porthole's modal is refused Porthole's wallet", async () => {
      t = await createTestApp()
      await addProjectDomain(t.db, { projectId: PROJECT_ID, modalOrigin: CONNECT })
      expect(await walletCheck(`projectId=${PROJECT_ID}&site=${SITE}`, MODAL_ORIGIN)).toEqual({
        allowed: false,
        reason: 'Unverified Domain',
      })
      expect(await walletCheck(`projectId=${PROJECT_ID}&site=${SITE}`, CONNECT)).toEqual({
        allowed: true,
      })
    })

    test('a custom wallet answers its own modal only, for its own project', async () => {
      t = await createTestApp()
      await register()
      const on = `frameOrigin=${encodeURIComponent(WALLET)}&site=${SITE}`
      expect(await walletCheck(`projectId=${PROJECT_ID}&${on}`, CONNECT)).toEqual({
        allowed: true,
      })
      expect(await walletCheck(`projectId=${PROJECT_ID}&${on}`, MODAL_ORIGIN)).toEqual({
        allowed: false,
        reason: 'Unverified Domain',
      })
      expect(await walletCheck(`projectId=attacker&${on}`, CONNECT)).toEqual({
        allowed: false,
        reason: 'Unverified Domain',
      })
      // A wallet origin no project registered.
      const unknown = `frameOrigin=${encodeURIComponent('https://wallet.gone.test')}&site=${SITE}`
      expect(await walletCheck(`projectId=${PROJECT_ID}&${unknown}`, CONNECT)).toEqual({
        allowed: false,
        reason: 'Unverified Domain',
      })
    })
  })

  test('GET /projects/v1/domain and /domains answer the hosting, without st/sv', async () => {
    t = await createTestApp()
    await register()
    const domain = (origin: string) =>
      t.app.request(`/projects/v1/domain?origin=${encodeURIComponent(origin)}`)
    const modal = await domain(CONNECT)
    expect(modal.status).toBe(200)
    expect(await modal.json()).toEqual({
      kind: 'modal',
      projectId: PROJECT_ID,
      modalOrigin: CONNECT,
      walletOrigin: WALLET,
      passkeyRpId: 'shop.test',
    })
    expect(await (await domain(WALLET)).json()).toMatchObject({ kind: 'wallet' })
    const unknown = await domain('https://evil.test')
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ code: 'NOT_FOUND' })
    expect((await domain('https://evil.test/x')).status).toBe(400)

    const list = await t.app.request(`/projects/v1/domains?projectId=${PROJECT_ID}`)
    expect(await list.json()).toEqual({
      domains: [{ modalOrigin: CONNECT, walletOrigin: WALLET, passkeyRpId: 'shop.test' }],
    })
    expect(await (await t.app.request('/projects/v1/domains?projectId=attacker')).json()).toEqual({
      domains: [],
    })
    expect((await t.app.request('/projects/v1/domains')).status).toBe(400)
  })
})
