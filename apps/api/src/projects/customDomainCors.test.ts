import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { bearer, DEVICE_A, emailSignIn } from '../../test/auth.js'
import { startTestSmtp, type TestSmtp } from '../../test/smtp.js'
import { createTestApp, MODAL_ORIGIN, PROJECT_ID, type TestApp } from '../../test/testApp.js'
import { addProjectDomain } from './addProjectDomain.js'
import { createProject } from './createProject.js'
import { removeProjectDomain } from './removeProjectDomain.js'

const CONNECT = 'https://connect.shop.test'
const WALLET = 'https://wallet.shop.test'

let smtp: TestSmtp
let t: TestApp
beforeAll(async () => {
  smtp = await startTestSmtp()
})
afterAll(async () => {
  await smtp.close()
})
afterEach(async () => {
  await t?.close()
})

const preflight = (origin: string, projectId = PROJECT_ID) =>
  t.app.request(`/auth/v1/logout?projectId=${projectId}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST' },
  })

test("a project's custom frame origins get the frames' CORS; the wallet's also its credentials", async () => {
  t = await createTestApp({ auth: { smtpUrl: smtp.url } }, { catalogue: false })
  expect((await preflight(CONNECT)).status).toBe(403)
  await addProjectDomain(t.db, {
    projectId: PROJECT_ID,
    modalOrigin: CONNECT,
    walletOrigin: WALLET,
  })

  const modal = await preflight(CONNECT)
  expect(modal.status).toBe(204)
  expect(modal.headers.get('access-control-allow-origin')).toBe(CONNECT)
  expect(modal.headers.get('access-control-allow-credentials')).toBeNull()
  const wallet = await preflight(WALLET)
  expect(wallet.status).toBe(204)
  expect(wallet.headers.get('access-control-allow-origin')).toBe(WALLET)
  expect(wallet.headers.get('access-control-allow-credentials')).toBe('true')
  // Exact origins: a sibling, another port or scheme is refused.
  for (const origin of ['https://evil.shop.test', 'http://wallet.shop.test', `${WALLET}:8443`])
    expect((await preflight(origin)).status, origin).toBe(403)
  // Porthole's own frames are unchanged.
  expect((await preflight(MODAL_ORIGIN)).headers.get('access-control-allow-origin')).toBe(
    MODAL_ORIGIN,
  )
  const answer = await t.get('/getWallets', { origin: WALLET })
  expect(answer.headers.get('access-control-allow-origin')).toBe(WALLET)
})

test('the custom wallet origin may write with the session cookie while it is registered', async () => {
  t = await createTestApp({ auth: { smtpUrl: smtp.url } }, { catalogue: false })
  await addProjectDomain(t.db, {
    projectId: PROJECT_ID,
    modalOrigin: CONNECT,
    walletOrigin: WALLET,
  })
  const logout = async (origin: string) => {
    const session = await emailSignIn(t, smtp, `c${Math.random()}@example.com`, DEVICE_A)
    const response = await t.post('/auth/v1/logout', undefined, {
      cookie: `porthole_session=${session.token}`,
      origin,
    })
    return {
      status: response.status,
      alive: (await t.get('/auth/v1/me', bearer(session.token))).status,
    }
  }
  // The custom modal is not a credential origin: it never holds the session.
  expect(await logout(CONNECT)).toEqual({ status: 403, alive: 200 })
  expect(await logout(WALLET)).toEqual({ status: 204, alive: 401 })
  await removeProjectDomain(t.db, { projectId: PROJECT_ID, modalOrigin: CONNECT })
  expect(await logout(WALLET)).toEqual({ status: 403, alive: 200 })
})

test('a custom origin gets CORS only for the project that registered it, never for another', async () => {
  t = await createTestApp({ auth: { smtpUrl: smtp.url } }, { catalogue: false })
  await createProject(t.db, { id: 'stranger', origins: ['https://stranger.example'] })
  await addProjectDomain(t.db, {
    projectId: PROJECT_ID,
    modalOrigin: CONNECT,
    walletOrigin: WALLET,
  })
  // The shop's wallet domain asking about another project (its sessions, its config): refused.
  expect((await preflight(WALLET, 'stranger')).status).toBe(403)
  expect((await preflight(CONNECT, 'stranger')).status).toBe(403)
  const read = await t.app.request('/getWallets?projectId=stranger', {
    headers: { origin: WALLET },
  })
  expect(read.headers.get('access-control-allow-origin')).toBeNull()
  expect(read.headers.get('access-control-allow-credentials')).toBeNull()
  // Without a project at all, nothing either; its own project, yes.
  expect(
    (await t.app.request('/getWallets', { headers: { origin: CONNECT } })).headers.get(
      'access-control-allow-origin',
    ),
  ).toBeNull()
  expect((await preflight(WALLET)).status).toBe(204)
})
