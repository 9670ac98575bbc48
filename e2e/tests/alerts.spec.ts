/**
 * The spec's alerts (§8) in Chromium, each provoked the way it happens against the real stack:
 * a session that expired or that the wallet ended while the visitor was away, an API that is
 * down, a client over the API's rate limit, a sign-in step nobody finishes in time.
 *
 * Every test leaves the stack as it found it: the API that is stopped is an instance of this
 * test's own, the rate limit is exceeded for a project made for the test, and the sessions ended
 * are the test's own users'.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Page } from '@playwright/test'
import { openDatabase, startApi } from '@porthole/api'
import { portOf } from '@porthole/shared'
import { readSdkVersion, sdkFiles, startStaticServer } from '@porthole/static-hosting'
import {
  API_URL,
  admin,
  emailLogin,
  enterCode,
  freshEmail,
  providerRequest,
  startEmailConnect,
  waitForCode,
} from '../support/embedded.js'
import { DEMO_URL, expect, modal, state, test, URLS, waitForPorthole } from '../support/fixtures.js'
import { startHostPage } from '../support/hostPage.js'
import { closePage } from '../support/pages.js'
import { startPairing } from '../support/pairing.js'
import { startTestWallet } from '../support/testWallet.js'

const ROOT = resolve(import.meta.dirname, '../..')

/** Ports of this spec's own servers: beside the stack's demo (4080–4084 on the default ports). */
const port = (n: number) => portOf(DEMO_URL) + 80 + n

/** anvil account 4 (no other spec's WalletConnect wallet). */
const WC_KEY = '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a'
const WC_ADDRESS = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65'

/** The demo page without any injected wallet. */
async function openDemo(page: Page): Promise<void> {
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
}

/** `porthole.connect()`'s refusal, `{ code, message }` (or 'resolved'). */
function connectFailure(page: Page): Promise<{ code: number; message: string } | 'resolved'> {
  return page.evaluate(() =>
    (window as unknown as { porthole: { connect(): Promise<unknown> } }).porthole.connect().then(
      () => 'resolved' as const,
      (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
    ),
  )
}

const status = (page: Page) => async () => (await state(page)).status

const isRateLimited = (outcome: unknown) =>
  (outcome as { message?: unknown } | null)?.message === 'Rate Limited'

test("'Session Expired': an e-mail sign-in whose session expired on the API while the visitor was away", async ({
  page,
}) => {
  await openDemo(page)
  const email = freshEmail('expired')
  await emailLogin(page, email)
  // The API's session table says the session is over (its expiry passed: a week away), as the
  // API's own clock would; the wallet frame's device share is untouched.
  const db = await openDatabase({ url: process.env.PORTHOLE_DATABASE_URL as string })
  try {
    const { rowsAffected } = await db.execute(
      'UPDATE auth_sessions SET expires_at = ? WHERE user_id IN (SELECT id FROM auth_users WHERE email = ?)',
      [Date.now() - 1000, email],
    )
    expect(rowsAffected).toBeGreaterThan(0)
  } finally {
    await db.close()
  }
  await page.reload()
  await waitForPorthole(page)
  await expect.poll(status(page), { timeout: 20_000 }).toBe('disconnected')
  expect(await providerRequest(page, 'eth_accounts')).toEqual({ value: [] })
  await page.evaluate('window.porthole.open()')
  await expect(modal(page).getByTestId('alert')).toHaveText('Session Expired')
  // It informs (not fatal): the visitor dismisses it and signs in again from Connect.
  await modal(page).getByTestId('alert').getByRole('button').click()
  await expect(modal(page).getByTestId('alert')).toHaveCount(0)
  await expect(modal(page).getByRole('textbox', { name: 'Email' })).toBeVisible()
})

test("'Session Expired': a WalletConnect session the wallet ended while the dapp's tab was closed", async ({
  context,
}) => {
  const wallet = await startTestWallet({ privateKey: WC_KEY })
  try {
    const first = await context.newPage()
    await wallet.pair(await startPairing(first))
    expect(await first.evaluate('window.__connect')).toMatchObject({
      value: { address: WC_ADDRESS },
    })
    await closePage(first)
    // The wallet ends the session (its user removed the dapp) while no page of the dapp is
    // open: the relay keeps the message for the dapp's next visit.
    await wallet.disconnect()
    expect(wallet.session()).toBeUndefined()
    const page = await context.newPage()
    await openDemo(page)
    await expect.poll(status(page), { timeout: 20_000 }).toBe('disconnected')
    await page.evaluate('window.porthole.open()')
    await expect(modal(page).getByTestId('alert')).toHaveText('Session Expired')
    expect(await providerRequest(page, 'eth_accounts')).toEqual({ value: [] })
  } finally {
    await wallet.close()
  }
})

test("'Server Error': a visitor arriving while the API is down is told so, and the modal comes back with the API", async ({
  page,
}) => {
  // An API and a modal server of this test's own (the stack's stay up): the modal server asks
  // this API for the project's allowlist, as Porthole's asks the stack's.
  const dir = mkdtempSync(join(tmpdir(), 'porthole-alerts-'))
  const host = `http://localhost:${port(2)}`
  const apiAt = (n: number) =>
    startApi({
      port: n,
      databaseUrl: `file:${join(dir, 'porthole.db')}`,
      demoOrigin: host,
      modalOrigin: `http://127.0.0.1:${port(1)}`,
      frameOrigins: [`http://127.0.0.1:${port(1)}`, new URL(URLS.wallet).origin],
    })
  let api = await apiAt(port(0))
  const frames = await startStaticServer({
    kind: 'modal',
    port: port(1),
    root: resolve(ROOT, 'apps/modal-host/dist'),
    apiUrl: api.url,
    relayUrl: URLS.relay,
    frameOrigins: { modal: `http://127.0.0.1:${port(1)}`, wallet: URLS.wallet },
    extraFiles: sdkFiles({
      file: resolve(ROOT, 'packages/sdk/dist/sdk.js'),
      version: readSdkVersion(),
    }),
  })
  const site = await startHostPage(
    port(2),
    null,
    'localhost',
    `<!doctype html><title>Alerts host</title><script src="http://127.0.0.1:${port(1)}/sdk.js" data-project-id="porthole-demo" data-networks="eip155:31337"></script>`,
  )
  try {
    // Up: the modal opens.
    await page.goto(host)
    await waitForPorthole(page)
    await page.evaluate('void window.porthole.open()')
    await expect(modal(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    // The API process stops (a crash, a deploy gone wrong); the visitor arrives meanwhile.
    await api.close()
    await page.reload()
    await waitForPorthole(page)
    expect(await connectFailure(page)).toEqual({ code: 4100, message: 'Server Error' })
    expect(await state(page)).toMatchObject({ error: { message: 'Server Error' } })
    // Back up: the next visit works, nothing was lost.
    api = await apiAt(port(0))
    // The frame server keeps the API's answer (here, its failure) for a second.
    await page.waitForTimeout(1_500)
    await page.reload()
    await waitForPorthole(page)
    await page.evaluate('void window.porthole.open()')
    await expect(modal(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  } finally {
    await site.close()
    await frames.close()
    // Already closed when the test failed before restarting it: nothing left to close.
    await api.close().catch(() => {})
    rmSync(dir, { recursive: true, force: true })
  }
})

test("'Rate Limited': a client over the API's rate limit is told so, and the modal loads once it is back under it", async ({
  page,
}) => {
  // A project of this test's own, so no other test's requests share its bucket.
  const host = `http://localhost:${port(3)}`
  const output = admin('project', 'create', '--origin', host, '--name', 'e2e alerts')
  const projectId = output.trim().split('\n').at(-1) as string
  const site = await startHostPage(port(3), projectId)
  // This machine (the browser, and the Porthole server in front of the frames, on the same
  // loopback address) sends far more than the API's 50 requests a second for the project:
  // 8 requests at a time, each one sent as the last answer comes (hundreds to thousands a second
  // on loopback). The bucket still refills 50 tokens a second, so a request of the page's can slip
  // through (then the modal loads, or /frame-check finds the project readable and the SDK can only
  // say 'Network Error - Could not load the modal'): a visit is tried up to 3 times, and one must
  // be told 'Rate Limited'.
  const url = `${API_URL}/projects/v1/origins?projectId=${projectId}&st=e2e&sv=1`
  const answers: number[] = []
  let flooding = true
  const flood = Promise.all(
    Array.from({ length: 8 }, async () => {
      while (flooding) {
        // A request the loaded API drops (reset) is counted and the loop goes on.
        const answer = await fetch(url).then(
          async (response) => {
            await response.body?.cancel()
            return response.status
          },
          () => 0,
        )
        answers.push(answer)
      }
    }),
  )
  try {
    await expect.poll(() => answers.filter((s) => s === 429).length).toBeGreaterThan(0)
    const outcomes: unknown[] = []
    for (let visit = 0; visit < 3 && !outcomes.some(isRateLimited); visit++) {
      await page.goto(host)
      await waitForPorthole(page)
      outcomes.push(
        await Promise.race([
          connectFailure(page),
          page.waitForTimeout(10_000).then(() => 'the modal loaded'),
        ]),
      )
    }
    console.log(`visits while over the limit: ${JSON.stringify(outcomes)}`)
    expect(outcomes.filter(isRateLimited)).toEqual([{ code: 4100, message: 'Rate Limited' }])
    flooding = false
    await flood
    const limited = answers.filter((s) => s === 429).length
    console.log(`flood: ${answers.length} requests, ${limited} answered 429 Rate Limited`)
    // Back under the limit (the bucket refills at 50 a second): the next visit works.
    await page.waitForTimeout(5_000)
    await page.reload()
    await waitForPorthole(page)
    await page.evaluate('void window.porthole.open()')
    await expect(modal(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  } finally {
    flooding = false
    await flood
    await site.close()
  }
})

test("'Embedded Wallet Request Timed Out': a new device's sign-in waits 120 s for the approval from the e-mail, then says so", async ({
  page,
  browser,
}) => {
  await openDemo(page)
  const email = freshEmail('timeout')
  await emailLogin(page, email)
  // Another browser (a new device): the sign-in asks for the approval mailed to the user. The
  // wallet frame waits on it, and nobody approves. Its clock is Playwright's, which runs as the
  // real one until the test moves it on by the spec's 120 s (an e2e test cannot wait that long).
  const device = await browser.newContext()
  try {
    await device.clock.install()
    const other = await device.newPage()
    await openDemo(other)
    await startEmailConnect(other, email)
    await enterCode(other, await waitForCode(email, 2))
    await expect(modal(other).getByRole('dialog', { name: 'Register this device' })).toBeVisible()
    // Less than 120 s since the request (a few real seconds went by already): still waiting.
    await device.clock.fastForward('01:50')
    await expect(modal(other).getByTestId('alert')).toHaveCount(0)
    await device.clock.fastForward('00:15')
    await expect(modal(other).getByTestId('alert')).toHaveText('Embedded Wallet Request Timed Out')
    expect((await state(other)).status).not.toBe('connected')
  } finally {
    await device.close()
  }
})

test("'Unverified Domain': a project whose custom modal took Porthole's wallet origin; Porthole's own modal on its site is refused by that wallet origin", async ({
  page,
}) => {
  const host = `http://localhost:${port(4)}`
  const output = admin('project', 'create', '--origin', host, '--name', 'e2e alerts domain')
  const projectId = output.trim().split('\n').at(-1) as string
  // The project moves to a modal on its own domain, without a wallet origin of its own: Porthole's
  // wallet origin now answers that modal only, for this project. A site of the project still has
  // Porthole's script tag.
  const custom = `http://connect.alerts.localhost:${portOf(URLS.modal)}`
  admin('project', 'domain', 'add', projectId, custom)
  const site = await startHostPage(port(4), projectId)
  try {
    // The API's and the hosting's caches of the project's domains (1 s each).
    await page.waitForTimeout(2_200)
    await page.goto(host)
    await waitForPorthole(page)
    await startEmailConnect(page, freshEmail('unverified'))
    // The wallet frame never starts (the browser refuses it: its frame-ancestors do not name this
    // modal); after the 20 s load timeout the modal asks the API why.
    await expect(modal(page).getByTestId('alert')).toHaveText('Unverified Domain', {
      timeout: 30_000,
    })
    expect((await state(page)).status).not.toBe('connected')
  } finally {
    await site.close()
    admin('project', 'domain', 'remove', projectId, custom)
  }
})
