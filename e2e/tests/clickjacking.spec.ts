/**
 * Issue 25, finding 3: a hostile host page crops or shrinks the approval card so that the user
 * sees only the Approve button (or a card too small to read) among its bait, and clicks. The
 * card must have been visible whole, at a readable size, for the arming delay; otherwise the
 * click opens the same card in a popup window on the wallet origin and nothing is signed in the
 * frame. Real Chromium, real wallet frame (host page → modal frame → wallet frame), real devnet.
 */
import { type Browser, chromium, type Frame, type FrameLocator, type Page } from '@playwright/test'
import { chromiumLaunchOptions } from '@porthole/local-stack/chromium'
import type { Hex } from 'viem'
import { admin, freshEmail, fund, waitForCode } from '../support/embedded.js'
import {
  DEMO_URL,
  devnet,
  expect,
  OTHER_ADDRESS,
  test,
  URLS,
  waitForPorthole,
} from '../support/fixtures.js'
import { startHostPage } from '../support/hostPage.js'

type Outcome = { value?: unknown; error?: { code: number; message: string } }

/** The document that runs the dapp: the page itself, or the dapp frame inside an outer page. */
type Dapp = Page | Frame

const modalOf = (dapp: Dapp) => dapp.frameLocator('iframe[title="Connect a wallet"]')
const walletOf = (dapp: Dapp): FrameLocator =>
  modalOf(dapp).frameLocator('iframe[title="Porthole embedded wallet"]')

/** An e-mail login through the modal UI of `dapp`; the wallet's address. */
async function emailLogin(dapp: Dapp): Promise<Hex> {
  const email = freshEmail('crop')
  const connecting = dapp.evaluate(() =>
    (window as unknown as { porthole: { connect(): Promise<{ address: string }> } }).porthole
      .connect()
      .then((value) => value.address),
  )
  const field = modalOf(dapp).getByRole('textbox', { name: 'Email' })
  await field.fill(email)
  await field.press('Enter')
  await modalOf(dapp)
    .getByRole('textbox', { name: 'Verification code' })
    .fill(await waitForCode(email))
  return (await connecting) as Hex
}

function sendRequest(dapp: Dapp, from: Hex): Promise<Outcome> {
  const request = {
    method: 'eth_sendTransaction',
    params: [{ from, to: OTHER_ADDRESS, value: '0x16345785d8a0000' }],
  }
  return dapp.evaluate(
    (body) =>
      (
        window as unknown as {
          porthole: { getProvider(ns: string): { request(body: unknown): Promise<unknown> } }
        }
      ).porthole
        .getProvider('eip155')
        .request(body)
        .then(
          (value) => ({ value }),
          (error: { code: number; message: string }) => ({
            error: { code: error.code, message: error.message },
          }),
        ),
    request,
  ) as Promise<Outcome>
}

type Box = { x: number; y: number; width: number; height: number }

/** Where Approve is on the screen (page coordinates), once the card shows it. */
async function approveBox(dapp: Dapp): Promise<Box> {
  const approve = walletOf(dapp).getByRole('button', { name: 'Approve' })
  await expect(approve).toBeVisible()
  const box = await approve.boundingBox()
  if (!box) throw new Error('No Approve button on screen')
  return box
}

/**
 * The host's bait, drawn in its own document around the spot where Approve shows through: a prize panel
 * with a "Claim" frame around the button. Runs in the page (as a string, so it can be passed
 * to any frame).
 */
const BAIT = (box: Box) => `(() => {
  const panel = document.createElement('div')
  panel.style.cssText = 'position:fixed;inset:0;background:#ffd54a;font:700 40px sans-serif;padding:40px'
  panel.textContent = 'You won 1,000 USDC! Press CLAIM below.'
  const ring = document.createElement('div')
  ring.style.cssText = 'position:fixed;left:${box.x - 12}px;top:${box.y - 12}px;width:${box.width + 24}px;height:${box.height + 24}px;border:12px solid #e53935;box-sizing:border-box;border-radius:16px'
  // Under the frame: first in the document, so the frame (or the top-layer dialog) is above it.
  document.body.prepend(panel, ring)
})()`

/** CSS `inset()` that keeps only `box` of a full-viewport element. */
const insetAround = (box: Box) =>
  `inset(${box.y}px calc(100% - ${box.x + box.width}px) calc(100% - ${box.y + box.height}px) ${box.x}px)`

/** Playwright's default viewport, the one every page here has. */
const VIEWPORT = { width: 1280, height: 720 }

/**
 * Where `box` of the full-viewport modal frame lands once the host zooms the frame by `factor`:
 * the frame keeps its size (percentages are not zoomed) and lays its content out at 1/factor,
 * so the centred card shrinks about the viewport's centre.
 */
const zoomed =
  (factor: number) =>
  (box: Box): Box => ({
    x: VIEWPORT.width / 2 + (box.x - VIEWPORT.width / 2) * factor,
    y: VIEWPORT.height / 2 + (box.y - VIEWPORT.height / 2) * factor,
    width: box.width * factor,
    height: box.height * factor,
  })

type Attack = {
  /** Script run in `host` that crops or shrinks the frame, given where Approve shows then. */
  crop: (box: Box) => string
  /** Where the untouched Approve button's box lands after the crop (default: where it was). */
  moved?: (box: Box) => Box
  /** The user moves the mouse to the bait in small steps first (default: one jump, as Playwright clicks). */
  approach?: boolean
  /** The document the attacker controls (default: the dapp's). */
  host?: Dapp
}

/** The mouse comes from the window's top-left corner to `target` in 40 steps. */
async function approach(page: Page, target: { x: number; y: number }) {
  await page.mouse.move(20, 20)
  await page.mouse.move(target.x, target.y, { steps: 40 })
}

/**
 * The attack: a funded wallet on `dapp`, a 0.1 ETH transfer on the card, the host's bait and
 * crop applied, then one click on Approve's centre. The click must open the popup on the wallet
 * origin and sign nothing in the frame; the approval then completes in the popup.
 */
async function attack(
  page: Page,
  dapp: Dapp,
  { crop, moved = (box) => box, approach: moves = false, host = dapp }: Attack,
) {
  const address = await emailLogin(dapp)
  await fund(address)
  const nonce = await devnet.getTransactionCount({ address })
  const sending = sendRequest(dapp, address)
  const box = moved(await approveBox(dapp))
  await host.evaluate(BAIT(box))
  await host.evaluate(crop(box))
  // Long past the 500 ms arming delay: only what the user could see counts.
  await page.waitForTimeout(1200)
  const target = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
  const popupOpened = page.context().waitForEvent('page', { timeout: 5000 })
  if (moves) await approach(page, target)
  await page.mouse.click(target.x, target.y)
  const first = await Promise.race([
    popupOpened.then(() => 'the popup opened' as const),
    sending.then(() => 'the frame answered' as const),
  ])
  expect(first, 'one click on the cropped card must not approve it').toBe('the popup opened')
  const popup = await popupOpened
  await page.waitForTimeout(500)
  expect(await devnet.getTransactionCount({ address })).toBe(nonce)
  expect(new URL(popup.url()).origin).toBe(URLS.wallet)
  const shown = popup.getByRole('dialog', { name: 'Send transaction' })
  await expect(shown).toContainText('0.1 ETH')
  // Approving closes the popup, sometimes before Playwright's click has returned.
  await shown
    .getByRole('button', { name: 'Approve' })
    .click()
    .catch((error: unknown) => {
      if (!popup.isClosed()) throw error
    })
  const hash = (await sending).value as Hex
  expect((await devnet.waitForTransactionReceipt({ hash })).status).toBe('success')
}

async function onDemo(page: Page): Promise<Page> {
  await page.goto(`${DEMO_URL}/`)
  await waitForPorthole(page)
  return page
}

/** The SDK's `<dialog>` holding the modal frame, in the dapp's document. */
const DIALOG = `document.querySelector('iframe[title="Connect a wallet"]').parentElement`
const FRAME = `document.querySelector('iframe[title="Connect a wallet"]')`

test('(1) clip-path crops the modal frame to the Approve button: the click opens the popup, nothing is signed in the frame', async ({
  page,
}) => {
  await attack(page, await onDemo(page), {
    crop: (box) => `${FRAME}.style.clipPath = '${insetAround(box)}'`,
  })
})

/**
 * Known gap (README "Threats"): Chromium 156 reports a masked frame as visible and whole
 * (IntersectionObserver v2 ignores masks, hit testing too), and nothing else the frame can read
 * changes, so this attack still signs in the frame. Marked as failing: the day it passes (a
 * browser that reports masks, or approvals moved to the popup), the mark must go.
 */
test('(2) mask-image shows only the Approve button: same', async ({ page }) => {
  test.fail(true, 'no browser signal tells a masked frame from an untouched one (README "Threats")')
  await attack(page, await onDemo(page), {
    crop: (box) => `Object.assign(${DIALOG}.style, {
      maskImage: 'linear-gradient(#000, #000)',
      maskSize: '${box.width}px ${box.height}px',
      maskPosition: '${box.x}px ${box.y}px',
      maskRepeat: 'no-repeat',
    })`,
  })
})

/**
 * Known gap, as (2): a clip-path shape whose bounding box still holds the whole card (spikes to
 * the frame's corners) shows only Approve, and Chromium reports the card whole (it clips the
 * intersection by the shape's bounding box).
 */
test('(2b) a clip-path polygon around Approve with spikes to the corners: same', async ({
  page,
}) => {
  test.fail(true, 'Chromium measures a clip-path by its bounding box (README "Threats")')
  await attack(page, await onDemo(page), {
    crop: (box) => {
      const [left, top, right, bottom] = [box.x, box.y, box.x + box.width, box.y + box.height]
      return `${FRAME}.style.clipPath = 'polygon(0 0, 1px 0, ${left}px ${top}px, ${right}px ${top}px, ${right}px ${bottom}px, 100% calc(100% - 1px), 100% 100%, calc(100% - 1px) 100%, ${left}px ${bottom}px, ${left}px ${top}px, 0 1px)'`
    },
  })
})

test('(3) an overflow: hidden box shows only the Approve button: same', async ({ page }) => {
  await attack(page, await onDemo(page), {
    crop: (box) => `(() => {
      const dialog = ${DIALOG}
      dialog.style.cssText = 'all:unset;display:block;position:fixed;overflow:hidden;left:${box.x}px;top:${box.y}px;width:${box.width}px;height:${box.height}px'
      ${FRAME}.style.cssText = 'display:block;position:absolute;border:0;left:${-box.x}px;top:${-box.y}px;width:100vw;height:100vh'
    })()`,
  })
})

test('(4) CSS zoom 0.3 shrinks the card: the click on the shrunk Approve opens the popup', async ({
  page,
}) => {
  await attack(page, await onDemo(page), {
    crop: () => `${FRAME}.style.zoom = '0.3'`,
    moved: zoomed(0.3),
  })
})

test('(5) CSS zoom 0.5: same', async ({ page }) => {
  await attack(page, await onDemo(page), {
    crop: () => `${FRAME}.style.zoom = '0.5'`,
    moved: zoomed(0.5),
  })
})

test('(6) nested frames: a cross-site page embeds the dapp and clip-paths its frame to the Approve button: same', async ({
  page,
}) => {
  const port = Number(new URL(DEMO_URL).port) + 21
  const outer = await startHostPage(
    port,
    null,
    'outer.localhost',
    `<!doctype html><title>Prize</title><style>body{margin:0}</style>
<iframe id="dapp" src="${DEMO_URL}/" style="position:fixed;inset:0;width:100%;height:100%;border:0"></iframe>`,
  )
  admin('project', 'allow', 'porthole-demo', outer.url)
  try {
    await page.goto(outer.url)
    const dapp = await (await page.locator('#dapp').elementHandle())?.contentFrame()
    if (!dapp) throw new Error('No dapp frame')
    await dapp.waitForFunction(() => 'porthole' in window)
    await attack(page, dapp, {
      crop: (box) => `document.getElementById('dapp').style.clipPath = '${insetAround(box)}'`,
      host: page,
    })
  } finally {
    admin('project', 'deny', 'porthole-demo', outer.url)
    await outer.close()
  }
})

test('(7) control: nothing done to the page, the same click signs in the frame (no popup)', async ({
  page,
}) => {
  const dapp = await onDemo(page)
  const address = await emailLogin(dapp)
  await fund(address)
  const sending = sendRequest(dapp, address)
  const box = await approveBox(dapp)
  await page.waitForTimeout(1200)
  let popups = 0
  page.context().on('page', () => popups++)
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
  const hash = (await sending).value as Hex
  expect((await devnet.waitForTransactionReceipt({ hash })).status).toBe('success')
  expect(popups).toBe(0)
})

test.describe('on a screen of density 2', () => {
  let browser: Browser
  test.beforeAll(async () => {
    browser = await chromium.launch({
      ...chromiumLaunchOptions,
      args: [...chromiumLaunchOptions.args, '--force-device-scale-factor=2'],
    })
  })
  test.afterAll(() => browser.close())
  const densePage = async () =>
    (await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 2 })).newPage()

  test("(8) zoom 0.5 on a frame narrowed to half the window (to the frame: devicePixelRatio 1 and the window's width, as untouched on a density-1 screen): the mouse's way to the bait shows the shrink, the click opens the popup", async () => {
    const page = await densePage()
    await attack(page, await onDemo(page), {
      crop: () => `(() => {
        ${DIALOG}.style.cssText = 'all:unset;display:block;position:fixed;left:25vw;top:25vh;width:50vw;height:50vh'
        ${FRAME}.style.zoom = '0.5'
      })()`,
      moved: (box) => ({
        x: VIEWPORT.width / 4 + box.x / 2,
        y: VIEWPORT.height / 4 + box.y / 2,
        width: box.width / 2,
        height: box.height / 2,
      }),
      approach: true,
    })
  })

  test("(9) control on that screen: the mouse's way to Approve shows no shrink, the click signs in the frame", async () => {
    const page = await densePage()
    const dapp = await onDemo(page)
    const address = await emailLogin(dapp)
    await fund(address)
    const sending = sendRequest(dapp, address)
    const box = await approveBox(dapp)
    await page.waitForTimeout(1200)
    let popups = 0
    page.context().on('page', () => popups++)
    const target = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
    await approach(page, target)
    await page.mouse.click(target.x, target.y)
    const hash = (await sending).value as Hex
    expect((await devnet.waitForTransactionReceipt({ hash })).status).toBe('success')
    expect(popups).toBe(0)
  })
})
