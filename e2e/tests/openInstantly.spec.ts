/**
 * Issue 11: the modal is painted before the click. While the host's dialog is closed the modal
 * keeps the view it will open on rendered with its data, so the first frame in which the card is
 * visible already holds it; and the bytes a host pays for Porthole stay within budget on the wire.
 */
import type { Frame, Page } from '@playwright/test'
import { admin } from '../support/embedded.js'
import {
  connectThroughModal,
  DEMO_URL,
  devWalletScript,
  expect,
  MODAL_ORIGIN,
  state,
  test,
  waitForPorthole,
} from '../support/fixtures.js'
import { startHostPage } from '../support/hostPage.js'
import { trackRequests } from '../support/network.js'

type W = Window & { porthole: { open(): Promise<void>; close(): Promise<void> } }

/** What the modal frame showed in the first frame its card was visible. */
type FirstFrame = {
  view: string
  wallets: number
  emailField: boolean
  focused: boolean
  /** Social buttons still showing their letter tile (their logo not drawn yet). */
  socialTiles: number
  /** Images of the card not yet loaded. */
  imagesPending: number
  /** When that frame ran (ms since the epoch, the clock of `request.timing().startTime`). */
  at: number
}

function modalFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f.url().startsWith(`${MODAL_ORIGIN}/`))
  if (!frame) throw new Error('No modal frame')
  return frame
}

/**
 * Arms a probe in the modal frame, independent of the app's own mark: the host focuses the frame
 * in the click that shows it, and the probe records what the card holds in the first animation
 * frame after that focus.
 */
async function armFirstFrameProbe(page: Page): Promise<void> {
  await modalFrame(page).evaluate(() => {
    const probe = window as unknown as { __firstFrame?: Promise<FirstFrame> }
    probe.__firstFrame = new Promise((resolve) => {
      addEventListener(
        'focus',
        () =>
          requestAnimationFrame(() => {
            const card = document.querySelector('.ph-card') as HTMLElement
            resolve({
              view: card.dataset.view ?? '',
              wallets: card.querySelectorAll('ul.ph-list li').length,
              emailField: !!card.querySelector('input[type="email"]'),
              focused: card.contains(document.activeElement),
              socialTiles: card.querySelectorAll('.ph-socials .ph-monogram').length,
              imagesPending: [...card.querySelectorAll('img')].filter(
                (img) => !img.complete || img.naturalWidth === 0,
              ).length,
              at: performance.timeOrigin + performance.now(),
            })
          }),
        { once: true },
      )
    })
  })
}

function firstFrame(page: Page): Promise<FirstFrame> {
  return modalFrame(page).evaluate(
    () => (window as unknown as { __firstFrame: Promise<FirstFrame> }).__firstFrame,
  )
}

/** Waits until the closed modal has its opening view rendered. */
async function preparedView(page: Page, view: string): Promise<void> {
  await expect
    .poll(() =>
      modalFrame(page).evaluate(
        (v) => !!document.querySelector(`.ph-card[data-view="${v}"] .ph-body`),
        view,
      ),
    )
    .toBe(true)
}

test('open: the wallet list, the e-mail field and every social logo are in the first frame after the click, with focus', async ({
  page: dapp,
}) => {
  const network = trackRequests(dapp)
  await dapp.addInitScript(devWalletScript())
  await dapp.goto(DEMO_URL)
  await waitForPorthole(dapp)
  await preparedView(dapp, 'Connect')
  await expect
    .poll(() => modalFrame(dapp).evaluate(() => document.querySelectorAll('ul.ph-list li').length))
    .toBeGreaterThan(2)
  // The page has settled: everything the prepared view fetches has arrived.
  await network.settled()
  await armFirstFrameProbe(dapp)
  await dapp.locator('#connect').click()
  const shown = await firstFrame(dapp)
  expect(shown.view).toBe('Connect')
  expect(shown.wallets).toBeGreaterThan(2)
  expect(shown.emailField).toBe(true)
  expect(shown.focused).toBe(true)
  // Issue 26: the social logos used to wait for the click (letter tiles in this frame, 7 more
  // requests after it); nothing appears after the first frame now.
  expect(shown.socialTiles).toBe(0)
  expect(shown.imagesPending).toBe(0)
})

test('a visitor who clicks while the page loads: the open rides in the handshake, the dialog opens once and stays open on a complete Connect', async ({
  page,
}) => {
  // A host page that calls open() as soon as the SDK has run, long before the modal has loaded.
  const port = 4016
  admin('project', 'allow', 'porthole-demo', `http://localhost:${port}`)
  const host = await startHostPage(
    port,
    'porthole-demo',
    'localhost',
    `<!doctype html><html><head><title>early click</title>
<script src="${MODAL_ORIGIN}/sdk.js" data-project-id="porthole-demo" data-networks="eip155:31337"></script>
<script>
window.__dialog = []
porthole.open()
const dialog = document.querySelector('dialog')
new MutationObserver(() => window.__dialog.push(dialog.open)).observe(dialog, { attributes: true, attributeFilter: ['open'] })
window.__dialog.push(dialog.open)
</script></head><body><p>page</p></body></html>`,
  )
  try {
    await page.goto(host.url)
    await expect.poll(() => state(page)).toMatchObject({ open: true })
    const frame = modalFrame(page)
    const card = frame.locator('.ph-card[data-view="Connect"]')
    await expect(card.locator('input[type="email"]')).toBeVisible()
    await expect(card.locator('.ph-socials img')).toHaveCount(7)
    // The modal opened from the hello, not from a request one round trip later.
    expect(
      await frame.evaluate(
        () => performance.getEntriesByName('porthole:opened-at-handshake').length,
      ),
    ).toBe(1)
    await page.waitForTimeout(300)
    // Shown once when open() was called, never hidden in between.
    expect(
      await page.evaluate(() => (window as unknown as { __dialog: boolean[] }).__dialog),
    ).toEqual([true])
    expect(await state(page)).toMatchObject({ open: true })
  } finally {
    await host.close()
  }
})

test('the view shown is current after a change while hidden: connected in another tab, open shows Account', async ({
  dapp,
  context,
}) => {
  await preparedView(dapp, 'Connect')
  const other = await context.newPage()
  await other.addInitScript(devWalletScript())
  await other.goto(DEMO_URL)
  await waitForPorthole(other)
  await connectThroughModal(other)
  // The first tab follows without a reload, and prepares Account behind its closed dialog.
  await expect.poll(() => state(dapp)).toMatchObject({ status: 'connected', open: false })
  await preparedView(dapp, 'Account')
  // Back to the first tab (a background tab's frames get no focus events).
  await dapp.bringToFront()
  await armFirstFrameProbe(dapp)
  await dapp.evaluate(() => (window as unknown as W).porthole.open())
  expect((await firstFrame(dapp)).view).toBe('Account')
})

test('budget on the wire: sdk.js at most 5,120 B, everything until the first usable view at most 120 KiB (issue 26)', async ({
  browser,
}) => {
  const context = await browser.newContext()
  const page = await context.newPage()
  const porthole: { url: string; bytes: number; startTime: number }[] = []
  let sdkBody = Number.NaN
  // When each request started: while the page loads, while it idles with Connect ready behind
  // the closed dialog, or after the click.
  type Phase = 'load' | 'idle' | 'click'
  let phase: Phase = 'load'
  const started = new WeakMap<object, Phase>()
  const inFlight = new Set<object>()
  context.on('request', (request) => {
    started.set(request, phase)
    inFlight.add(request)
  })
  context.on('requestfailed', (request) => inFlight.delete(request))
  context.on('requestfinished', async (request) => {
    const url = new URL(request.url())
    const sizes = await request.sizes()
    inFlight.delete(request)
    // What embedding Porthole costs a host: the SDK, both frames and the API they call.
    if (url.origin === new URL(DEMO_URL).origin) return
    // Code for other views that the idle page fetches ahead (the WalletConnect provider and the
    // QR view, after Connect is ready) is not part of the first usable view: that view was ready
    // before it started. Everything else the idle page fetches still counts.
    if (started.get(request) === 'idle' && request.resourceType() === 'script') return
    // sdk-calls.js (calls, bridges, headless) is fetched after the click by design, and the
    // view needs nothing from it; whether its request starts before or after the modal's first
    // frame is a race between two processes.
    if (url.pathname.endsWith('/sdk-calls.js')) return
    if (url.pathname === '/sdk.js') sdkBody = sizes.responseBodySize
    porthole.push({
      url: request.url(),
      bytes: sizes.responseBodySize + sizes.responseHeadersSize,
      startTime: request.timing().startTime,
    })
  })
  const network = trackRequests(page)
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  await preparedView(page, 'Connect')
  phase = 'idle'
  await network.settled()
  await armFirstFrameProbe(page)
  phase = 'click'
  await page.locator('#connect').click()
  const shown = await firstFrame(page)
  expect(shown.view).toBe('Connect')
  // Every request is answered before counting; what started after the first usable frame (the
  // WalletConnect warm-up the open view starts when idle) did not build it.
  await expect.poll(() => inFlight.size, { timeout: 10_000 }).toBe(0)
  const beforeFrame = porthole.filter((r) => r.startTime <= shown.at)
  const total = beforeFrame.reduce((sum, r) => sum + r.bytes, 0)
  console.log(`first usable view: ${total} B on the wire (${beforeFrame.length} responses)`)
  const largest = [...beforeFrame]
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 6)
    .map((r) => `${r.bytes} ${r.url}`)
  expect(sdkBody, 'sdk.js body on the wire').toBeLessThanOrEqual(5120)
  // Issue 26's goal (the host page itself, not Porthole's, is not counted): a change that adds
  // to the first view fails here.
  expect(total, `bytes on the wire; largest:\n${largest.join('\n')}`).toBeLessThanOrEqual(
    120 * 1024,
  )
  await context.close()
})

/** The SDK's script files a host page fetches: sdk.js, and the parts it loads beside it. */
const HOST_SCRIPT = /^\/sdk(?:\.js|\/[^/]+\/sdk(?:-[a-z]+)?\.js)$/

/**
 * Records, in the modal frame (an init script runs in every frame), what the card holds in the
 * first frame the modal renders open: the modal marks `porthole:view-visible` from that frame's
 * animation-frame callback, before it is painted.
 */
const FIRST_OPEN_FRAME_PROBE = `if (location.origin === ${JSON.stringify(MODAL_ORIGIN)}) {
  const mark = performance.mark.bind(performance)
  performance.mark = (name, options) => {
    if (name === 'porthole:view-visible' && !window.__firstOpenFrame) {
      const card = document.querySelector('.ph-card')
      window.__firstOpenFrame = {
        view: card ? card.dataset.view : '',
        rows: card ? [...card.querySelectorAll('ul.ph-list li')].map((li) => li.textContent.trim()) : [],
        at: performance.timeOrigin + performance.now(),
      }
    }
    return mark(name, options)
  }
}`

/** A third-party page with the one script tag, an Open button and the dev (extension) wallet. */
async function extensionWalletPage(page: Page, port: number, clickAt: 'dcl' | 'never') {
  admin('project', 'allow', 'porthole-demo', `http://localhost:${port}`)
  await page.addInitScript(devWalletScript())
  await page.addInitScript(FIRST_OPEN_FRAME_PROBE)
  const host = await startHostPage(
    port,
    'porthole-demo',
    'localhost',
    `<!doctype html><html><head><title>first visit</title>
<script src="${MODAL_ORIGIN}/sdk.js" data-project-id="porthole-demo" data-networks="eip155:31337"></script>
</head><body><button id="open">Open</button>
<script>
window.__clicks = []
document.getElementById('open').addEventListener('click', (event) => {
  window.__clicks.push(performance.timeOrigin + event.timeStamp)
  porthole.open()
})
${clickAt === 'dcl' ? "document.addEventListener('DOMContentLoaded', () => document.getElementById('open').click())" : ''}
</script></body></html>`,
  )
  /** Host script responses: path, encoded body bytes, when the request started (epoch ms). */
  const scripts: { path: string; body: number; startTime: number }[] = []
  page.on('requestfinished', async (request) => {
    const url = new URL(request.url())
    if (url.origin !== MODAL_ORIGIN || !HOST_SCRIPT.test(url.pathname)) return
    const { responseBodySize } = await request.sizes()
    scripts.push({
      path: url.pathname.slice(url.pathname.lastIndexOf('/') + 1),
      body: responseBodySize,
      startTime: request.timing().startTime,
    })
  })
  return { host, scripts }
}

type FirstOpenFrame = { view: string; rows: string[]; at: number }

test('issue 26: a visitor with an extension wallet who clicks at DOMContentLoaded sees its row in the first frame the modal shows; sdk-calls.js comes after the click', async ({
  page,
}) => {
  const port = Number(new URL(DEMO_URL).port) + 17
  const { host, scripts } = await extensionWalletPage(page, port, 'dcl')
  try {
    await page.goto(host.url)
    await expect.poll(() => state(page)).toMatchObject({ open: true })
    const frame = modalFrame(page)
    await expect
      .poll(() =>
        frame.evaluate(() => !!(window as { __firstOpenFrame?: unknown }).__firstOpenFrame),
      )
      .toBe(true)
    const shown = (await frame.evaluate(
      () => (window as unknown as { __firstOpenFrame: FirstOpenFrame }).__firstOpenFrame,
    )) as FirstOpenFrame
    expect(shown.view).toBe('Connect')
    expect(
      shown.rows.some((row) => row.includes('Porthole Dev Wallet')),
      shown.rows.join(' | '),
    ).toBe(true)
    // (Its images may still be on their way on a cold first visit: the modal's part of issue 26.)
    // The wallet's row works: picking it runs the call on the extension (through sdk-calls.js).
    const connected = page.evaluate(() =>
      (
        window as unknown as { porthole: { connect(): Promise<{ address: string }> } }
      ).porthole.connect(),
    )
    await frame.getByRole('button', { name: 'Porthole Dev Wallet' }).click()
    expect((await connected).address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    const click = (
      await page.evaluate(() => (window as unknown as { __clicks: number[] }).__clicks)
    )[0] as number
    const calls = scripts.find((s) => s.path === 'sdk-calls.js')
    expect(calls, 'sdk-calls.js loaded for the connection').toBeDefined()
    expect(calls?.startTime).toBeGreaterThan(click)
  } finally {
    await host.close()
  }
})

test('issue 26: before the click a host page fetches at most 7 KiB of SDK script on the wire (sdk.js and sdk-chains.js), however long the visitor waits; the extension wallet is in the first frame after the click', async ({
  page,
}) => {
  const port = Number(new URL(DEMO_URL).port) + 18
  const { host, scripts } = await extensionWalletPage(page, port, 'never')
  const network = trackRequests(page)
  try {
    await page.goto(host.url)
    await waitForPorthole(page)
    await preparedView(page, 'Connect')
    // A visitor who clicks late: everything the page would fetch while idle has been fetched.
    await network.settled()
    await page.waitForTimeout(500)
    const beforeClick = [...scripts]
    await armFirstFrameProbe(page)
    await page.locator('#open').click()
    const shown = await firstFrame(page)
    expect(shown.view).toBe('Connect')
    expect(shown.wallets).toBeGreaterThan(0)
    expect(
      await modalFrame(page).evaluate(() =>
        [...document.querySelectorAll('.ph-card ul.ph-list li')].some((li) =>
          li.textContent?.includes('Porthole Dev Wallet'),
        ),
      ),
    ).toBe(true)
    const total = beforeClick.reduce((sum, s) => sum + s.body, 0)
    console.log(
      `host script before the click: ${total} B on the wire (${beforeClick.map((s) => `${s.path} ${s.body} B`).join(', ')})`,
    )
    expect(beforeClick.map((s) => s.path).sort()).toEqual(['sdk-chains.js', 'sdk.js'])
    expect(total, 'host script bodies before the click').toBeLessThanOrEqual(7 * 1024)
    // Where calls run is fetched once the modal has opened, not before.
    await expect.poll(() => scripts.map((s) => s.path)).toContain('sdk-calls.js')
  } finally {
    await host.close()
  }
})

test('the closed modal, laid out over the page but transparent, takes no click and no focus and hides nothing from IntersectionObserver v2', async ({
  dapp,
}) => {
  await preparedView(dapp, 'Connect')
  // A real click in the middle of the viewport, where the prepared card lies, reaches the page.
  await dapp.evaluate(() => {
    const w = window as unknown as { __targets: string[] }
    w.__targets = []
    document.addEventListener(
      'click',
      (event) => w.__targets.push((event.target as Element).tagName),
      true,
    )
  })
  const size = dapp.viewportSize()
  if (!size) throw new Error('no viewport')
  await dapp.mouse.click(size.width / 2, size.height / 2)
  const targets = await dapp.evaluate(
    () => (window as unknown as { __targets: string[] }).__targets,
  )
  expect(targets).toHaveLength(1)
  expect(['DIALOG', 'IFRAME']).not.toContain(targets[0])
  expect(await state(dapp)).toMatchObject({ open: false })
  // Tab walks the page's controls only; focus never enters the closed frame.
  for (let i = 0; i < 15; i++) {
    await dapp.keyboard.press('Tab')
    expect(await dapp.evaluate(() => document.activeElement?.tagName)).not.toBe('IFRAME')
  }
  expect(await modalFrame(dapp).evaluate(() => document.hasFocus())).toBe(false)
  // Nor does it hide the page's own controls from IntersectionObserver v2 (what the page's own
  // anti-clickjacking checks use).
  // (The Tab walk may have scrolled the page: the control is brought back on screen first.)
  const seen = await dapp.evaluate(
    () =>
      new Promise<boolean | undefined>((resolve) => {
        document.getElementById('connect')?.scrollIntoView({ block: 'center' })
        const options = { trackVisibility: true, delay: 100 } as IntersectionObserverInit
        new IntersectionObserver((entries) => {
          resolve((entries[0] as IntersectionObserverEntry & { isVisible?: boolean }).isVisible)
        }, options).observe(document.getElementById('connect') as Element)
      }),
  )
  expect(seen).toBe(true)
})
