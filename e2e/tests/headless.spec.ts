/**
 * Headless mode (issue 16): a host page draws its own wallet list from `porthole.wallets()`,
 * connects with `connect({ wallet })` (the dev wallet through the page; a WalletConnect wallet by
 * the URI of `display_uri`, drawn by the host) and `connect({ email })` (the modal shows only the
 * code entry). Throughout, the modal's Connect view never becomes visible: every state the SDK
 * publishes and every view the modal frame renders open are recorded and checked.
 */
import type { Frame, Page } from '@playwright/test'
import { admin, enterCode, freshEmail, waitForCode } from '../support/embedded.js'
import {
  devWalletScript,
  expect,
  MODAL_ORIGIN,
  modal,
  state,
  test,
  WALLET_ADDRESS,
  waitForPorthole,
  walletMode,
} from '../support/fixtures.js'
import { startHostPage } from '../support/hostPage.js'
import { startTestWallet, type TestWallet } from '../support/testWallet.js'

/** anvil account 2: the WalletConnect test wallet's key. */
const KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a'
const ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

/**
 * The host's own page, on a real loopback server (Chromium lets only such pages reach the
 * loopback frames), allowed for the demo project while this file runs.
 */
const HOST_PORT = 4071

/**
 * The host's page: its own list (`#wallets`, one button per wallet with its icon), its own QR
 * stand-in (`#uri`, the pairing URI of `display_uri`) and e-mail form. Each connect's outcome
 * lands in `window.__outcomes`; every published state in `window.__states`.
 */
const HOST_HTML = `<!doctype html><html><head><title>Headless host</title>
<script src="${MODAL_ORIGIN}/sdk.js" data-project-id="porthole-demo" data-networks="eip155:31337"></script></head>
<body>
<button id="list">List wallets</button>
<ul id="wallets"></ul>
<p id="uri"></p>
<form id="email"><input name="email" aria-label="E-mail"><button>Sign in</button></form>
<script>
  window.__states = []
  window.__outcomes = []
  window.__uris = []
  porthole.subscribe((s) => window.__states.push({ open: s.open, view: s.view }))
  porthole.on('display_uri', (uri) => {
    window.__uris.push(uri)
    document.getElementById('uri').textContent = uri
  })
  const settle = (promise) => promise.then(
    (value) => window.__outcomes.push({ value }),
    (error) => window.__outcomes.push({ error: { code: error.code, message: error.message } }))
  document.getElementById('list').onclick = async () => {
    const list = await porthole.wallets()
    window.__wallets = list
    document.getElementById('wallets').replaceChildren(...list.map((w) => {
      const li = document.createElement('li')
      const button = document.createElement('button')
      button.dataset.walletId = w.id
      button.dataset.section = w.section
      button.dataset.installed = String(w.installed)
      if (w.icon) {
        const img = document.createElement('img')
        img.src = w.icon
        img.alt = ''
        img.width = 24
        button.append(img)
      }
      button.append(w.name)
      button.onclick = () => settle(porthole.connect({ wallet: w.id }))
      li.append(button)
      return li
    }))
  }
  document.getElementById('email').onsubmit = (event) => {
    event.preventDefault()
    settle(porthole.connect({ email: event.target.email.value }))
  }
</script>
</body></html>`

type Outcome = {
  value?: { address: string; chainId: number }
  error?: { code: number; message: string }
}

/** The modal frame (a Playwright frame, for scripts run inside it). */
async function modalFrame(page: Page): Promise<Frame> {
  const element = await page.locator('iframe[title="Connect a wallet"]').elementHandle()
  const frame = await element?.contentFrame()
  if (!frame) throw new Error('no modal frame')
  return frame
}

/** Opens the host page with the dev wallet and starts recording what the modal frame renders open. */
async function openHost(page: Page): Promise<void> {
  await page.addInitScript(devWalletScript())
  await page.goto(host.url)
  await waitForPorthole(page)
  // Inside the modal frame: every view it renders while open (its card carries `data-view`).
  const frame = await modalFrame(page)
  await frame.waitForSelector('.ph-root', { state: 'attached' })
  await frame.evaluate(() => {
    const seen: string[] = []
    ;(window as unknown as { __openViews: string[] }).__openViews = seen
    const record = () => {
      const root = document.querySelector('.ph-root')
      const view = document.querySelector('.ph-card')?.getAttribute('data-view')
      if (root?.getAttribute('data-open') === 'true' && view && seen.at(-1) !== view)
        seen.push(view)
    }
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-open', 'data-view'],
    })
    record()
  })
}

/** The views the modal frame rendered open, and the `(open, view)` states the SDK published. */
async function shown(page: Page) {
  const frame = await modalFrame(page)
  const openViews = (await frame.evaluate(
    () => (window as unknown as { __openViews: string[] }).__openViews,
  )) as string[]
  const marks = (await frame.evaluate(() =>
    performance
      .getEntriesByName('porthole:view-visible')
      .map((m) => (m as PerformanceMark).detail?.view as string),
  )) as string[]
  const states = (await page.evaluate('window.__states')) as { open: boolean; view: string }[]
  return { openViews, marks, openStates: states.filter((s) => s.open).map((s) => s.view) }
}

/** Waits for the `n`-th connect outcome of the host page. */
async function outcome(page: Page, n: number): Promise<Outcome> {
  await expect.poll(() => page.evaluate('window.__outcomes.length')).toBeGreaterThanOrEqual(n)
  return (await page.evaluate(`window.__outcomes[${n - 1}]`)) as Outcome
}

let host: Awaited<ReturnType<typeof startHostPage>>
test.beforeAll(async () => {
  host = await startHostPage(HOST_PORT, null, 'localhost', HOST_HTML)
  admin('project', 'allow', 'porthole-demo', host.url)
})
test.afterAll(async () => {
  admin('project', 'deny', 'porthole-demo', host.url)
  await host.close()
})

let wallet: TestWallet
test.beforeEach(async () => {
  wallet = await startTestWallet({ privateKey: KEY })
})
test.afterEach(async () => {
  await wallet.close()
})

test('a host lists the wallets itself and connects the dev wallet, then a WalletConnect wallet by its own QR; Connect never shows', async ({
  page,
}) => {
  await openHost(page)
  await page.getByRole('button', { name: 'List wallets' }).click()
  const list = page.locator('#wallets button')
  await expect(list.first()).toBeVisible()
  const wallets = (await page.evaluate('window.__wallets')) as {
    id: string
    name: string
    icon: string
    type: string
    section: string
    installed: boolean
  }[]
  // The dev wallet (EIP-6963) is installed; WalletConnect opens the list (the spec's order).
  expect(wallets.find((w) => w.name === 'Porthole Dev Wallet')).toMatchObject({
    id: 'dev.porthole.wallet',
    type: 'injected',
    section: 'installed',
    installed: true,
    icon: expect.stringMatching(/^data:image\//),
  })
  expect(wallets[0]).toMatchObject({ id: 'walletConnect', type: 'walletConnect' })
  expect(wallets.filter((w) => w.section === 'recommended').length).toBeGreaterThan(0)
  for (const w of wallets.filter((x) => !x.installed)) expect(w.type).toBe('walletConnect')
  // The Connect view the closed modal keeps prepared shows the same wallets in the same order
  // (below e-mail and social login both are the short list).
  const frame = await modalFrame(page)
  const rows = () =>
    frame.evaluate(() =>
      [...document.querySelectorAll('.ph-card[data-view="Connect"] [data-wallet-id]')].map(
        (b) => b.getAttribute('data-wallet-id') as string,
      ),
    )
  await expect.poll(async () => (await rows()).length).toBeGreaterThan(1)
  const onConnect = await rows()
  expect(wallets.map((w) => w.id)).toEqual(['walletConnect', ...onConnect])

  // The dev wallet, straight through its provider in the page.
  await page.locator('#wallets button[data-wallet-id="dev.porthole.wallet"]').click()
  expect(await outcome(page, 1)).toEqual({
    value: {
      address: WALLET_ADDRESS,
      caipAddress: `eip155:31337:${WALLET_ADDRESS}`,
      chainId: 31337,
      caipNetworkId: 'eip155:31337',
    },
  })
  expect(await state(page)).toMatchObject({
    status: 'connected',
    address: WALLET_ADDRESS,
    connector: { type: 'ANNOUNCED', name: 'Porthole Dev Wallet' },
    open: false,
  })

  // WalletConnect: the host draws the URI of display_uri; the test wallet pairs with it.
  await page.locator('#wallets button[data-wallet-id="walletConnect"]').click()
  await expect(page.locator('#uri')).toHaveText(/^wc:[0-9a-f]{64}@2\?/)
  const uri = (await page.locator('#uri').textContent()) as string
  await wallet.pair(uri)
  expect(await outcome(page, 2)).toMatchObject({
    value: { address: ADDRESS, chainId: 31337, caipNetworkId: 'eip155:31337' },
  })
  expect(await state(page)).toMatchObject({
    status: 'connected',
    address: ADDRESS,
    connector: { type: 'WALLET_CONNECT', name: 'Porthole Test Wallet' },
    open: false,
  })
  // Both stay connected (multi-wallet); the last one is active.
  expect(((await state(page)).connections as unknown[]).length).toBe(2)

  // Neither flow opened the modal at all.
  expect(await shown(page)).toEqual({ openViews: [], marks: [], openStates: [] })
})

test("refusals reject with 'Connection rejected' (4001): the dev wallet's and the WalletConnect wallet's", async ({
  page,
}) => {
  await openHost(page)
  await page.getByRole('button', { name: 'List wallets' }).click()
  await walletMode(page, 'reject')
  await page.locator('#wallets button[data-wallet-id="dev.porthole.wallet"]').click()
  expect(await outcome(page, 1)).toEqual({ error: { code: 4001, message: 'Connection rejected' } })

  wallet.setMode('reject')
  await page.locator('#wallets button[data-wallet-id="walletConnect"]').click()
  await expect(page.locator('#uri')).toHaveText(/^wc:/)
  await wallet.pair((await page.locator('#uri').textContent()) as string)
  expect(await outcome(page, 2)).toEqual({ error: { code: 4001, message: 'Connection rejected' } })
  expect(await state(page)).toMatchObject({ status: 'disconnected' })
  expect(await shown(page)).toEqual({ openViews: [], marks: [], openStates: [] })
})

test('e-mail: the modal shows only the code entry; the code from the mail connects the embedded wallet', async ({
  page,
}) => {
  await openHost(page)
  const email = freshEmail('headless')
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email)
  await page.getByRole('button', { name: 'Sign in' }).click()
  // The modal opens on the code entry alone: no Connect under it, so no Back button.
  const card = modal(page).getByRole('dialog', { name: 'Verification code' })
  await expect(card).toBeVisible()
  await expect(card.getByRole('button', { name: 'Back' })).toHaveCount(0)
  await enterCode(page, await waitForCode(email))
  const connected = await outcome(page, 1)
  expect(connected.value?.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  expect(await state(page)).toMatchObject({
    status: 'connected',
    address: connected.value?.address,
    connector: { type: 'AUTH' },
    open: false,
  })
  const { openViews, marks, openStates } = await shown(page)
  expect(openViews).toEqual(['EmailVerifyOtp'])
  expect(marks).toEqual(['EmailVerifyOtp'])
  expect(openStates.length).toBeGreaterThan(0)
  expect(new Set(openStates)).toEqual(new Set(['EmailVerifyOtp']))
})

test("e-mail: closing the code entry rejects with 'Modal closed' (4001)", async ({ page }) => {
  await openHost(page)
  await page.getByRole('textbox', { name: 'E-mail' }).fill(freshEmail('hlclose'))
  await page.getByRole('button', { name: 'Sign in' }).click()
  const card = modal(page).getByRole('dialog', { name: 'Verification code' })
  await expect(card).toBeVisible()
  await card.getByRole('button', { name: 'Close' }).click()
  expect(await outcome(page, 1)).toEqual({ error: { code: 4001, message: 'Modal closed' } })
  expect((await shown(page)).openViews).toEqual(['EmailVerifyOtp'])
})
