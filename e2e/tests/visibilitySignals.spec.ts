/**
 * What a wallet frame nested like ours (host page → a frame on a second site → a frame on a third)
 * can read when the host crops, shrinks or masks the middle frame, in this Chromium: the facts
 * `apps/embedded-wallet/src/visibility.ts` relies on and the README's "Threats" table states. A
 * failure here means the browser changed, and the table (and perhaps the rule) with it.
 */
import type { Frame, Page } from '@playwright/test'
import { DEMO_URL, expect, test } from '../support/fixtures.js'
import { startHostPage } from '../support/hostPage.js'

const base = Number(new URL(DEMO_URL).port) + 31
const ORIGINS = {
  host: `http://localhost:${base}`,
  middle: `http://127.0.0.1:${base + 1}`,
  wallet: `http://wallet.localhost:${base + 2}`,
}

/** A 360 × 400 card centred in a full-viewport frame, observed as the wallet frame observes its card. */
const WALLET = `<!doctype html><style>html,body{margin:0}
.o{position:fixed;inset:0;display:flex;align-items:center;justify-content:center}
#card{width:360px;height:400px;background:#333}</style>
<div class="o"><div id="card"></div></div>
<script>
  window.last = null
  new IntersectionObserver((entries) => {
    const e = entries.at(-1)
    window.last = { isVisible: e.isVisible, ratio: e.intersectionRatio }
  }, { threshold: [0, 0.99, 1], trackVisibility: true, delay: 100 }).observe(document.getElementById('card'))
</script>`
const MIDDLE = `<!doctype html><style>html,body{margin:0}iframe{position:fixed;inset:0;width:100%;height:100%;border:0}</style><iframe src="${ORIGINS.wallet}/"></iframe>`
const HOST = `<!doctype html><style>body{margin:0}#box{position:fixed;inset:0}#frame{display:block;width:100%;height:100%;border:0}</style>
<div id="box"><iframe id="frame" src="${ORIGINS.middle}/"></iframe></div>`

type Reading = {
  isVisible: boolean
  ratio: number
  devicePixelRatio: number
  innerWidth: number
  outerWidth: number
  visualViewportScale: number
}

let servers: { close(): Promise<void> }[] = []
test.beforeAll(async () => {
  servers = await Promise.all([
    startHostPage(base, null, 'localhost', HOST),
    startHostPage(base + 1, null, 'localhost', MIDDLE),
    startHostPage(base + 2, null, 'localhost', WALLET),
  ])
})
test.afterAll(() => Promise.all(servers.map((s) => s.close())))

/** What the wallet frame reads once the host has run `style` on `frame` (the middle frame) or its `box`. */
async function read(page: Page, style: string): Promise<Reading> {
  await page.goto(`${ORIGINS.host}/`)
  const wallet = () => page.frames().find((f) => f.url().startsWith(ORIGINS.wallet)) as Frame
  await expect
    .poll(() => wallet()?.evaluate(() => (window as { last?: unknown }).last))
    .toBeTruthy()
  await page.evaluate(
    `(() => { const frame = document.getElementById('frame'); const box = document.getElementById('box'); ${style} })()`,
  )
  // Two observer periods and a frame for the zoom to reach the nested frame.
  await page.waitForTimeout(600)
  return wallet().evaluate(() => ({
    ...(window as unknown as { last: { isVisible: boolean; ratio: number } }).last,
    devicePixelRatio,
    innerWidth,
    outerWidth,
    visualViewportScale: visualViewport?.scale ?? 1,
  }))
}

const untouched = {
  isVisible: true,
  ratio: 1,
  devicePixelRatio: 1,
  innerWidth: 1280,
  outerWidth: 1280,
  visualViewportScale: 1,
}

test('untouched: visible, whole, at scale 1', async ({ page }) => {
  expect(await read(page, '')).toEqual(untouched)
})

test('opacity and transforms: isVisible turns false', async ({ page }) => {
  expect((await read(page, `frame.style.opacity = '0.99'`)).isVisible).toBe(false)
  expect((await read(page, `frame.style.transform = 'scale(0.3)'`)).isVisible).toBe(false)
})

test('a clip-path or an overflow box around a 180 × 40 spot: still visible, the ratio falls to 0.025', async ({
  page,
}) => {
  const clipped = await read(page, `frame.style.clipPath = 'inset(540px 460px 140px 640px)'`)
  expect(clipped).toEqual({ ...untouched, ratio: expect.closeTo(0.025, 5) })
  const boxed = await read(
    page,
    `box.style.cssText = 'position:fixed;left:640px;top:540px;width:180px;height:40px;overflow:hidden'
    frame.style.cssText = 'position:absolute;left:-640px;top:-540px;width:1280px;height:720px;border:0'`,
  )
  expect(boxed.ratio).toBeCloseTo(0.025)
})

test('CSS zoom: the nested frame gets the zoom as its devicePixelRatio and a wider viewport, nothing else changes', async ({
  page,
}) => {
  expect(await read(page, `frame.style.zoom = '0.3'`)).toEqual({
    ...untouched,
    devicePixelRatio: expect.closeTo(0.3, 5),
    innerWidth: 4266,
  })
  expect(await read(page, `document.documentElement.style.zoom = '0.5'`)).toEqual({
    ...untouched,
    devicePixelRatio: 0.5,
    innerWidth: 2560,
  })
})

test('the gaps: a mask, or a clip-path shape whose bounding box holds the card, changes nothing the frame reads', async ({
  page,
}) => {
  expect(
    await read(
      page,
      `Object.assign(frame.style, { maskImage: 'linear-gradient(#000, #000)', maskSize: '180px 40px', maskPosition: '640px 540px', maskRepeat: 'no-repeat' })`,
    ),
  ).toEqual(untouched)
  expect(
    await read(
      page,
      `frame.style.clipPath = 'polygon(0 0, 1px 0, 640px 540px, 820px 540px, 820px 580px, 100% calc(100% - 1px), 100% 100%, calc(100% - 1px) 100%, 640px 580px, 640px 540px, 0 1px)'`,
    ),
  ).toEqual(untouched)
})
