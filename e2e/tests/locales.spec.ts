/**
 * Issue 16, "Languages", in Chromium against the local stack: the `locale` option (here the
 * script tag's `data-locale`) and the browser's language choose the modal's language; each
 * locale's strings are a chunk of their own, fetched only for that locale; Arabic is laid out
 * right to left; an unknown locale is refused like any invalid option.
 */
import type { Page } from '@playwright/test'
// The shared admin helper waits out the origin caches after `project allow`, so the first page
// load is allowed.
import { admin, freshEmail, waitForCode, walletFrame } from '../support/embedded.js'
import {
  DEMO_URL,
  expect,
  MODAL_ORIGIN,
  modal,
  test,
  WALLET_ORIGIN,
  waitForPorthole,
} from '../support/fixtures.js'
import { startHostPage } from '../support/hostPage.js'
import { trackRequests } from '../support/network.js'

type W = Window & { porthole: { open(): Promise<void> } }

const PORT = 4075
const ORIGIN = `http://localhost:${PORT}`

/**
 * A host page with the one script tag, its `data-locale` from the page's `?locale=` (one page and
 * one allowlist entry serve every test).
 */
const HOST_HTML = `<!doctype html><html><head><title>Locale host</title>
<script>
  const tag = document.createElement('script')
  tag.src = '${MODAL_ORIGIN}/sdk.js'
  tag.dataset.projectId = 'porthole-demo'
  tag.dataset.networks = 'eip155:31337'
  tag.dataset.locale = new URLSearchParams(location.search).get('locale')
  document.head.append(tag)
</script></head>
<body><h1>Locale host</h1></body></html>`

let host: Awaited<ReturnType<typeof startHostPage>>

test.beforeAll(async () => {
  host = await startHostPage(PORT, null, 'localhost', HOST_HTML)
  admin('project', 'allow', 'porthole-demo', ORIGIN)
  // Vetted, so its cards approve in the page as on the demo (elsewhere: the wallet window).
  admin('project', 'trust', 'porthole-demo', ORIGIN)
})

test.afterAll(async () => {
  admin('project', 'deny', 'porthole-demo', ORIGIN)
  await host.close()
})

/** The host page with `data-locale="<locale>"`. */
const hostUrl = (locale: string) => `${host.url}/?locale=${encodeURIComponent(locale)}`

const openModal = (page: Page) => page.evaluate(() => (window as unknown as W).porthole.open())

/** The locale chunks the modal frame fetched (`/assets/locale-<tag>-<hash>.js`). */
function recordLocaleChunks(page: Page): string[] {
  const fetched: string[] = []
  page.on('request', (request) => {
    const match = /\/assets\/locale-([A-Za-z-]+?)-[\w-]{8}\.js$/.exec(
      new URL(request.url()).pathname,
    )
    if (match?.[1]) fetched.push(match[1])
  })
  return fetched
}

test("locale 'ar': the modal is laid out right to left, in Arabic", async ({ page }) => {
  await page.goto(hostUrl('ar'))
  await waitForPorthole(page)
  await openModal(page)
  const frame = modal(page)
  const dialog = frame.getByRole('dialog', { name: 'ربط المحفظة' })
  await expect(dialog).toBeVisible()
  await expect(frame.locator('.ph-root')).toHaveAttribute('dir', 'rtl')
  await expect(frame.locator('html')).toHaveAttribute('lang', 'ar')
  // Mirrored: the close button is on the left, the help button on the right.
  const close = await frame.getByRole('button', { name: 'إغلاق' }).boundingBox()
  const help = await frame.getByRole('button', { name: 'ما المحفظة؟' }).boundingBox()
  expect(close && help && close.x < help.x).toBe(true)
  await expect(frame.getByRole('textbox', { name: 'البريد الإلكتروني' })).toBeVisible()
  // Back points the other way in a right-to-left layout.
  await frame.getByRole('button', { name: 'ما المحفظة؟' }).click()
  await expect(frame.getByRole('dialog', { name: 'ما المحفظة؟' })).toBeVisible()
  const back = frame.getByRole('button', { name: 'رجوع' })
  await expect(back.locator('svg')).toHaveCSS('transform', 'matrix(-1, 0, 0, 1, 0, 0)')
})

test("locale 'ja': only the Japanese chunk is fetched, and Connect is in Japanese", async ({
  page,
}) => {
  const fetched = recordLocaleChunks(page)
  const network = trackRequests(page)
  await page.goto(hostUrl('ja'))
  await waitForPorthole(page)
  await openModal(page)
  const frame = modal(page)
  await expect(frame.getByRole('dialog', { name: 'ウォレットを接続' })).toBeVisible()
  await expect(frame.getByRole('button', { name: 'すべてのウォレット' })).toBeVisible()
  await expect(frame.locator('.ph-root')).toHaveAttribute('dir', 'ltr')
  // Lazy views the idle modal fetches ahead (the QR view) bring no other locale either.
  await network.settled()
  expect(fetched).toEqual(['ja'])
})

test('without the option, a German browser gets German; an English one fetches no locale chunk', async ({
  browser,
}) => {
  const german = await browser.newContext({ locale: 'de-DE' })
  try {
    const page = await german.newPage()
    const fetched = recordLocaleChunks(page)
    await page.goto(DEMO_URL)
    await waitForPorthole(page)
    await openModal(page)
    await expect(modal(page).getByRole('dialog', { name: 'Wallet verbinden' })).toBeVisible()
    await expect(modal(page).getByRole('button', { name: 'Alle Wallets' })).toBeVisible()
    expect(fetched).toEqual(['de'])
  } finally {
    await german.close()
  }
  const english = await browser.newContext({ locale: 'en-US' })
  try {
    const page = await english.newPage()
    const fetched = recordLocaleChunks(page)
    const network = trackRequests(page)
    await page.goto(DEMO_URL)
    await waitForPorthole(page)
    await openModal(page)
    await expect(modal(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    await network.settled()
    expect(fetched).toEqual([])
  } finally {
    await english.close()
  }
})

test('an unknown locale is refused with an options error, and the browser’s language applies', async ({
  page,
}) => {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.goto(hostUrl('xx-YY'))
  await waitForPorthole(page)
  await openModal(page)
  await expect(modal(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  expect(errors).toContain(
    '[porthole] Invalid option "locale" ignored: "xx-YY" is not one of en, de, es, fr, pt-BR, ja, ko, zh-CN, tr, ar',
  )
})

/** The wallet frame's locale chunks fetched (`/assets/<locale>-<hash>.js` on the wallet origin). */
function recordWalletChunks(page: Page): string[] {
  const fetched: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    const match = /^\/assets\/(de|es|fr|pt-BR|ja|ko|zh-CN|tr|ar)-[\w-]{8}\.js$/.exec(url.pathname)
    if (url.origin === WALLET_ORIGIN && match?.[1]) fetched.push(match[1])
  })
  return fetched
}

/** An e-mail login through the modal in any language (fields found by type, not by name). */
async function emailLoginAnyLanguage(page: Page): Promise<string> {
  const email = freshEmail('locale')
  await page.evaluate(`window.__connect = window.porthole.connect(); undefined`)
  const field = modal(page).locator('input[type="email"]')
  await field.fill(email)
  await field.press('Enter')
  await modal(page)
    .locator('input[autocomplete="one-time-code"]')
    .fill(await waitForCode(email))
  const { address } = (await page.evaluate('window.__connect')) as { address: string }
  return address
}

/** `personal_sign` through the page's provider; its outcome, an error as `{ code, message }`. */
function sign(page: Page, address: string) {
  return page.evaluate(
    `window.porthole.getProvider('eip155').request({ method: 'personal_sign', params: ['0x6869', '${address}'] })
      .then((value) => ({ value }), (error) => ({ error: { code: error.code, message: error.message } }))`,
  ) as Promise<{ value?: string; error?: { code: number; message: string } }>
}

test("locale 'ar': the wallet frame's approval card is in Arabic, right to left; its errors stay English", async ({
  page,
}) => {
  const fetched = recordWalletChunks(page)
  await page.goto(hostUrl('ar'))
  await waitForPorthole(page)
  const address = await emailLoginAnyLanguage(page)
  const signing = sign(page, address)
  const card = walletFrame(page).getByRole('dialog', { name: 'توقيع رسالة' })
  await expect(card).toBeVisible()
  await expect(card.getByText('الرسالة', { exact: true })).toBeVisible()
  await expect(walletFrame(page).locator('html')).toHaveAttribute('dir', 'rtl')
  await expect(walletFrame(page).locator('html')).toHaveAttribute('lang', 'ar')
  // Mirrored: Reject (first in order) sits on the right, Approve on the left.
  const reject = await card.getByRole('button', { name: 'رفض' }).boundingBox()
  const approve = await card.getByRole('button', { name: 'موافقة' }).boundingBox()
  expect(reject && approve && reject.x > approve.x).toBe(true)
  // The address reads left to right inside the right-to-left card.
  await expect(card.locator('dd[dir="ltr"]').first()).toHaveText(address)
  await card.getByRole('button', { name: 'رفض' }).click()
  // The dapp's error is the spec's, in English.
  expect((await signing).error).toEqual({ code: 4001, message: 'User rejected the request.' })
  expect(fetched).toEqual(['ar'])
})

test("locale 'de': the approval card and the custody card are in German, from the German chunk only", async ({
  page,
}) => {
  const fetched = recordWalletChunks(page)
  await page.goto(hostUrl('de'))
  await waitForPorthole(page)
  const address = await emailLoginAnyLanguage(page)
  const signing = sign(page, address)
  const card = walletFrame(page).getByRole('dialog', { name: 'Nachricht signieren' })
  await expect(card.getByText('Signiert als')).toBeVisible()
  await expect(walletFrame(page).locator('html')).toHaveAttribute('lang', 'de')
  const approve = card.getByRole('button', { name: 'Bestätigen' })
  await expect(approve).toHaveAttribute('aria-disabled', 'false')
  await approve.click()
  expect((await signing).value).toMatch(/^0x[0-9a-f]+$/)
  // The key export card, from the Account view.
  await page.evaluate('window.porthole.open()')
  await modal(page).getByRole('button', { name: 'Privaten Schlüssel exportieren' }).click()
  const custody = walletFrame(page).getByRole('dialog', { name: 'Privaten Schlüssel exportieren' })
  await expect(custody.getByRole('button', { name: 'Schlüssel anzeigen' })).toBeVisible()
  await custody.getByRole('button', { name: 'Abbrechen' }).click()
  await expect(custody).toHaveCount(0)
  expect(fetched).toEqual(['de'])
})

test("locale 'de', a returning visitor: the wallet frame made before the host's handshake (no language in its URL) draws its card in German", async ({
  page,
}) => {
  await page.goto(hostUrl('de'))
  await waitForPorthole(page)
  const address = await emailLoginAnyLanguage(page)
  const fetched = recordWalletChunks(page)
  // The allowlist answers late, so the handshake is still waiting on it when the page's load
  // event makes the wallet frame (a hello that arrives before the modal's code has run is
  // otherwise accepted before that).
  await page.route(
    (url) => url.pathname === '/projects/v1/origins',
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500))
      await route.continue()
    },
  )
  await page.reload()
  await waitForPorthole(page)
  await expect
    .poll(() => page.evaluate('window.porthole.getState().status'), { timeout: 20_000 })
    .toBe('connected')
  const wallet = page.frames().find((f) => f.url().startsWith(`${WALLET_ORIGIN}/`))
  expect(new URL(wallet?.url() ?? 'about:blank').searchParams.get('locale')).toBeNull()
  const signing = sign(page, address)
  const card = walletFrame(page).getByRole('dialog', { name: 'Nachricht signieren' })
  await expect(card.getByText('Signiert als')).toBeVisible()
  await expect(walletFrame(page).locator('html')).toHaveAttribute('lang', 'de')
  await card.getByRole('button', { name: 'Ablehnen' }).click()
  expect((await signing).error).toMatchObject({ code: 4001 })
  expect(fetched).toEqual(['de'])
})
