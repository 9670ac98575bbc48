/**
 * Issue 25, finding 3: a hostile host page crops or shrinks the approval card so that the user
 * sees only the Approve button (or a card too small to read) among its bait, and clicks. The
 * card must have been visible whole, at a readable size, for the arming delay; otherwise the
 * click opens the same card in a popup window on the wallet origin and nothing is signed in the
 * frame. Real Chromium, real wallet frame (host page → modal frame → wallet frame), real devnet.
 */
import type { Frame, FrameLocator, Page } from '@playwright/test'
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

/**
 * Where `box` of the full-viewport modal frame lands once the host zooms the frame by `factor`:
 * the frame keeps its size (percentages are not zoomed) and lays its content out at 1/factor,
 * so the centred card shrinks about the viewport's centre.
 */
function zoomed(box: Box, factor: number, viewport: { width: number; height: number }): Box {
  const [cx, cy] = [viewport.width / 2, viewport.height / 2]
  return {
    x: cx + (box.x - cx) * factor,
    y: cy + (box.y - cy) * factor,
    width: box.width * factor,
    height: box.height * factor,
  }
}

type Attack = {
  /** Script run in `host` that crops or shrinks the frame, given where Approve shows. */
  crop: (box: Box) => string
  /** The host's zoom of the modal frame (1: none). */
  zoom?: number
  /** The document the attacker controls (default: the dapp's). */
  host?: Dapp
}

/**
 * The attack: a funded wallet on `dapp`, a 0.1 ETH transfer on the card, the host's bait and
 * crop applied, then one click on Approve's centre. The click must open the popup on the wallet
 * origin and sign nothing in the frame; the approval then completes in the popup.
 */
async function attack(page: Page, dapp: Dapp, { crop, zoom = 1, host = dapp }: Attack) {
  const address = await emailLogin(dapp)
  await fund(address)
  const nonce = await devnet.getTransactionCount({ address })
  const sending = sendRequest(dapp, address)
  const box = zoomed(await approveBox(dapp), zoom, page.viewportSize() ?? { width: 0, height: 0 })
  await host.evaluate(BAIT(box))
  await host.evaluate(crop(box))
  // Long past the 500 ms arming delay: only what the user could see counts.
  await page.waitForTimeout(1200)
  const target = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
  const popupOpened = page.context().waitForEvent('page', { timeout: 5000 })
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

test('(2) mask-image shows only the Approve button: same', async ({ page }) => {
  await attack(page, await onDemo(page), {
    crop: (box) => `Object.assign(${DIALOG}.style, {
      maskImage: 'linear-gradient(#000, #000)',
      maskSize: '${box.width}px ${box.height}px',
      maskPosition: '${box.x}px ${box.y}px',
      maskRepeat: 'no-repeat',
    })`,
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
  await attack(page, await onDemo(page), { crop: () => `${FRAME}.style.zoom = '0.3'`, zoom: 0.3 })
})

test('(5) CSS zoom 0.5: same', async ({ page }) => {
  await attack(page, await onDemo(page), { crop: () => `${FRAME}.style.zoom = '0.5'`, zoom: 0.5 })
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
