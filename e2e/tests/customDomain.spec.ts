/**
 * Issue 18, custom domains: the demo dapp on a site of its own (`http://app.localhost:4000`) with
 * the modal on `connect.app.localhost:4100` and the wallet on `wallet.app.localhost:4200` — the
 * local stack registers them for the demo project beside the default third-party setup, on the
 * same ports. Wallets see the dapp's site, the wallet frame's storage is first-party and keeps
 * the device share across a browser restart, passkeys belong to the dapp's site, the allowlist
 * still decides who frames the modal, and hosts nobody registered are refused.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium, type Page } from '@playwright/test'
import { chromiumLaunchOptions } from '@porthole/local-stack/chromium'
import { customDomainUrls } from '@porthole/local-stack/customDomain'
import { portOf } from '@porthole/shared'
import type { Hex } from 'viem'
import {
  admin,
  emailLogin,
  freshEmail,
  inbox,
  providerRequest,
  signsFor,
  waitForMail,
  walletFrame,
} from '../support/embedded.js'
import { expect, modal, state, test, URLS, waitForPorthole } from '../support/fixtures.js'
import { startHostPage } from '../support/hostPage.js'
import { closePage } from '../support/pages.js'
import { startPairing } from '../support/pairing.js'
import { startTestWallet } from '../support/testWallet.js'

const { demo: APP, modal: CONNECT, wallet: WALLET } = customDomainUrls(URLS)
/** anvil account 4, the WalletConnect wallet's key. */
const WC_KEY = '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a'
const WC_ADDRESS = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65'
/** A hostile site: not on the demo project's allowlist. */
const EVIL_PORT = 4061
const EVIL = `http://evil.localhost:${EVIL_PORT}`
/** The hostile site's own project (the attacker signs up like anyone). */
const ATTACKER_PORT = 4062
const ATTACKER = `http://attacker.localhost:${ATTACKER_PORT}`

// One test launches (and relaunches) a persistent browser of its own: Playwright's tracing
// looks for that browser's recordings after it closed and fails the test.
test.use({ trace: 'off' })

type Failure = { code: number; message: string } | 'resolved'
const connectFailure = (page: Page): Promise<Failure> =>
  page.evaluate(() =>
    (window as unknown as { porthole: { connect(): Promise<unknown> } }).porthole.connect().then(
      () => 'resolved' as const,
      (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
    ),
  )

/** A page that loads sdk.js from the demo's custom modal domain for `projectId`. */
const hostilePage = (projectId: string) =>
  `<!doctype html><html><head><title>Hostile host</title>
<script src="${CONNECT}/sdk.js" data-project-id="${projectId}" data-networks="eip155:31337"></script></head>
<body><iframe id="wallet" src="${WALLET}/?projectId=${projectId}"></iframe></body></html>`

/**
 * The device share as the wallet origin's own, top-level page reads it: `null` unless the frame
 * wrote it to first-party storage (a partitioned frame's storage is not this page's).
 */
async function firstPartyDeviceShare(
  context: BrowserContext,
): Promise<{ setId: string; address: string } | null> {
  const probe = await context.newPage()
  try {
    // Any document of the wallet origin will do: a 404 page runs none of the wallet's code.
    await probe.goto(`${WALLET}/first-party-probe`)
    return await probe.evaluate(async () => {
      const names = (await indexedDB.databases()).map((d) => d.name)
      if (!names.includes('porthole-wallet')) return null
      return new Promise((resolve) => {
        const request = indexedDB.open('porthole-wallet')
        request.onerror = () => resolve(null)
        request.onsuccess = () => {
          const db = request.result
          if (!db.objectStoreNames.contains('kv')) return resolve(null)
          const get = db.transaction('kv').objectStore('kv').get('deviceShare')
          get.onerror = () => resolve(null)
          get.onsuccess = () => {
            const value = get.result as { setId: string; address: string } | undefined
            db.close()
            resolve(value ? { setId: value.setId, address: value.address } : null)
          }
        }
      })
    })
  } finally {
    await closePage(probe)
  }
}

test('a WalletConnect wallet is shown the dapp’s own site, not Porthole’s', async ({ page }) => {
  const wallet = await startTestWallet({ privateKey: WC_KEY, name: 'Custom Domain Wallet' })
  try {
    await wallet.pair(await startPairing(page, APP))
    const outcome = (await page.evaluate('window.__connect')) as { value?: { address: string } }
    expect(outcome.value?.address).toBe(WC_ADDRESS)
    // The modal runs on connect.app.localhost, so that is the page WalletConnect names.
    const [proposal] = wallet.proposals
    const url = proposal?.params.proposer.metadata.url
    expect(url).toBe(CONNECT)
    expect(new URL(url as string).hostname).toMatch(/(^|\.)app\.localhost$/)
    expect(wallet.session()?.peer.metadata.url).toBe(CONNECT)
    // What Verify (when the relay has it) reports is that origin too, never Porthole's.
    const verified = proposal?.verifyContext?.verified.origin
    if (verified) expect(verified).not.toContain('127.0.0.1')
  } finally {
    await wallet.close()
  }
})

test('social login on the dapp’s domain: the provider’s popup comes back to its custom wallet origin, and the wallet is the dapp’s', async ({
  page,
}) => {
  await page.goto(APP)
  await waitForPorthole(page)
  await page.evaluate(`window.__connect = window.porthole.connect().then(
    (value) => ({ value }), (error) => ({ error: { code: error.code, message: error.message } })); undefined`)
  const popupOpened = page.waitForEvent('popup')
  await modal(page).getByRole('button', { name: 'Continue with Google' }).click()
  const popup = await popupOpened
  // Every page the popup shows, in order: the provider's, then the wallet's return page.
  const visited: string[] = [popup.url()]
  popup.on('framenavigated', (frame) => {
    if (frame === popup.mainFrame()) visited.push(frame.url())
  })
  const login = `custom-${Date.now().toString(36)}@porthole.test`
  await popup.getByLabel('E-mail').fill(login)
  await popup.getByLabel('Username').fill('custom-domain-fan')
  await popup.getByRole('button', { name: 'Continue' }).click()
  const outcome = (await page.evaluate('window.__connect')) as {
    value?: { address: string }
    error?: unknown
  }
  expect(outcome.error).toBeUndefined()
  expect(outcome.value?.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  const origins = [...new Set(visited.map((url) => new URL(url).origin))]
  // The provider sent it back to the dapp's wallet domain, never to Porthole's own wallet origin.
  expect(origins, visited.join(' → ')).toContain(WALLET)
  expect(origins, visited.join(' → ')).not.toContain(URLS.wallet)
  // The wallet frame that holds the account is the custom one.
  expect(page.frames().some((frame) => frame.url().startsWith(WALLET))).toBe(true)
  expect(await state(page)).toMatchObject({ status: 'connected', connector: { type: 'AUTH' } })
})

test('the third-party setup still names Porthole’s modal origin (the README says so)', async ({
  page,
}) => {
  const wallet = await startTestWallet({ privateKey: WC_KEY, name: 'Third Party Wallet' })
  try {
    await wallet.pair(await startPairing(page))
    const outcome = (await page.evaluate('window.__connect')) as { value?: { address: string } }
    expect(outcome.value?.address).toBe(WC_ADDRESS)
    expect(wallet.proposals[0]?.params.proposer.metadata.url).toBe(URLS.modal)
  } finally {
    await wallet.close()
  }
})

test.describe('a browser restart', () => {
  test('the embedded wallet keeps its device share in first-party storage across a browser restart; a passkey is made in the wallet frame for the dapp’s site', async () => {
    test.setTimeout(180_000)
    const profile = mkdtempSync(join(tmpdir(), 'porthole-custom-domain-'))
    const launch = () =>
      chromium.launchPersistentContext(profile, { ...chromiumLaunchOptions, headless: true })
    let context = await launch()
    try {
      let page = context.pages()[0] ?? (await context.newPage())
      await page.goto(APP)
      await waitForPorthole(page)
      const email = freshEmail('domain')
      const address = await emailLogin(page, email)
      // The frames really are on the dapp's site.
      const frameOrigins = page.frames().map((f) => new URL(f.url()).origin)
      expect(frameOrigins).toContain(CONNECT)
      expect(frameOrigins).toContain(WALLET)

      // First-party: the wallet origin's own top-level page sees what its frame wrote.
      const share = await firstPartyDeviceShare(context)
      expect(share?.setId).toMatch(/\S/)

      // A passkey, created in the wallet frame, for the dapp's site.
      const cdp = await context.newCDPSession(page)
      await cdp.send('WebAuthn.enable')
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          hasPrf: true,
          automaticPresenceSimulation: true,
        },
      })
      await page.evaluate('window.porthole.open()')
      await modal(page).getByRole('button', { name: 'Protect with a passkey' }).click()
      await walletFrame(page)
        .getByRole('dialog', { name: 'Protect your wallet with a passkey' })
        .getByRole('button', { name: 'Create passkey' })
        .click()
      await expect(modal(page).getByTestId('wallet-protected')).toBeVisible()
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
      expect(credentials.map((c) => c.rpId)).toEqual(['app.localhost'])
      await waitForMail(email, /^The recovery of your Porthole wallet changed/)

      // Restart the browser: same profile, nothing kept in memory.
      await context.close()
      context = await launch()
      page = context.pages()[0] ?? (await context.newPage())
      expect(await firstPartyDeviceShare(context)).toEqual(share)
      await page.goto(APP)
      await waitForPorthole(page)
      await expect
        .poll(async () => (await state(page)).status, { timeout: 20_000 })
        .toBe('connected')
      expect((await state(page)).address).toBe(address)
      // The key is rebuilt from this device's share: it signs, with no new code or recovery.
      const signing = providerRequest(page, 'personal_sign', ['0x6f6b', address])
      await walletFrame(page).getByRole('button', { name: 'Approve' }).click()
      expect(await signsFor(address, 'ok', (await signing).value as Hex)).toBe(true)
      const subjects = (await inbox(email)).map((m) => m.subject)
      expect(subjects.filter((s) => /^Your Porthole code (for \S+ )?is/.test(s))).toHaveLength(1)
      expect(subjects.some((s) => /new device/.test(s))).toBe(false)
    } finally {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    }
  })
})

test('the hosting refuses hosts nobody registered, never serving the app', async ({ page }) => {
  for (const url of [
    `http://evil.localhost:${portOf(URLS.modal)}/?projectId=porthole-demo`,
    `http://evil.localhost:${portOf(URLS.wallet)}/?projectId=porthole-demo`,
    // The demo's domains on the other frame's port.
    `http://connect.app.localhost:${portOf(URLS.wallet)}/?projectId=porthole-demo`,
    `http://wallet.app.localhost:${portOf(URLS.modal)}/?projectId=porthole-demo`,
  ]) {
    const response = await page.goto(url)
    expect(response?.status(), url).toBe(421)
    const text = await page.locator('body').innerText()
    expect(text).toMatch(/^Misdirected Request: \S+ is not a Porthole (modal|wallet) domain/)
    expect(await page.locator('#root').count()).toBe(0)
  }
  // The default setup is untouched.
  expect((await page.goto(`${URLS.modal}/?projectId=porthole-demo`))?.status()).toBe(200)
})

test('a site outside the allowlist cannot frame the dapp’s custom modal (CSP frame-ancestors)', async ({
  page,
}) => {
  // What the browser enforces: the documents' frame-ancestors name only the allowlist.
  const csp = async (url: string) =>
    (await (await page.goto(url))?.allHeaders())?.['content-security-policy'] ?? ''
  const ancestors = (await csp(`${CONNECT}/?projectId=porthole-demo`))
    .split('; ')
    .find((d) => d.startsWith('frame-ancestors'))
  expect(ancestors?.split(' ')).toContain(APP)
  expect(ancestors).not.toContain('evil')
  expect(await csp(`${WALLET}/?projectId=porthole-demo`)).toContain(`frame-ancestors ${CONNECT} `)

  const host = await startHostPage(EVIL_PORT, null, 'evil.localhost', hostilePage('porthole-demo'))
  try {
    const blocked: string[] = []
    page.on('console', (m) => {
      if (/frame-ancestors/.test(m.text())) blocked.push(m.text())
    })
    await page.goto(EVIL)
    await waitForPorthole(page)
    expect(await connectFailure(page)).toEqual({ code: 4100, message: 'Origin Not Allowed' })
    // The browser refused both frames: no Porthole UI ever rendered in them.
    await expect(modal(page).getByRole('dialog')).toHaveCount(0)
    await expect.poll(() => blocked.length).toBeGreaterThan(0)
  } finally {
    await host.close()
  }
})

test('an attacker’s own project cannot borrow the dapp’s custom domain', async ({ page }) => {
  const created = admin('project', 'create', '--origin', ATTACKER, '--name', 'attacker')
  const attacker = created.trimEnd().split('\n').at(-1) as string
  // The domain serves the demo project only: the attacker's project is refused outright.
  for (const origin of [CONNECT, WALLET]) {
    const response = await page.goto(`${origin}/?projectId=${attacker}`)
    expect(response?.status(), origin).toBe(403)
    expect(await page.locator('body').innerText()).toBe(
      `Forbidden: ${new URL(origin).host} serves project porthole-demo only.`,
    )
  }
  const host = await startHostPage(ATTACKER_PORT, null, 'attacker.localhost', hostilePage(attacker))
  try {
    await page.goto(ATTACKER)
    await waitForPorthole(page)
    expect(await connectFailure(page)).toEqual({ code: 4100, message: 'Origin Not Allowed' })
    await expect(modal(page).getByRole('dialog')).toHaveCount(0)
  } finally {
    await host.close()
  }
})
