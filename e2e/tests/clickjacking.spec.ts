/**
 * Issue 25, finding 3: a hostile host page crops or shrinks the approval card so that the user
 * sees only the Approve button (or a card too small to read) among its bait, and clicks. Two
 * rules stand between that click and a signature:
 * - on a site Porthole has not vetted (`project trust`), every approval completes in a popup
 *   window on the wallet origin: the click on the frame's Approve opens it (tests (2), (2b), (6),
 *   (10));
 * - on a vetted site, the card must have been visible whole, at a readable size, for the arming
 *   delay, or the click opens the same popup (tests (1), (3)–(5), (6b), (8); controls (7), (9)).
 * Nothing is signed in the frame either way. Real Chromium, real wallet frame (host page → modal
 * frame → wallet frame), real devnet. The demo's origins are vetted (the local stack trusts them).
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
  /** Draw the host's bait around Approve (default: yes). */
  bait?: boolean
  /**
   * What the frame's card offers before the click: Approve in the page (a vetted site, where
   * the visibility checks must catch the crop) or Approve in the wallet window (any other site).
   */
  mode: 'page' | 'window'
}

/** What the user waited for after the click, in ms. */
type Timing = { popupCard: number; popupArmed: number }

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
  { crop, moved = (box) => box, approach: moves = false, host = dapp, bait = true, mode }: Attack,
): Promise<Timing> {
  const address = await emailLogin(dapp)
  await fund(address)
  const nonce = await devnet.getTransactionCount({ address })
  const sending = sendRequest(dapp, address)
  const box = moved(await approveBox(dapp))
  if (bait) await host.evaluate(BAIT(box))
  await host.evaluate(crop(box))
  // Long past the 500 ms arming delay: only what the user could see counts.
  await page.waitForTimeout(1200)
  const target = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
  const popupOpened = page.context().waitForEvent('page', { timeout: 5000 })
  if (moves) await approach(page, target)
  const clicked = Date.now()
  await page.mouse.click(target.x, target.y)
  const first = await Promise.race([
    popupOpened.then(() => 'the popup opened' as const),
    sending.then(() => 'the frame answered' as const),
  ])
  expect(first, 'one click on the cropped card must not approve it').toBe('the popup opened')
  const popup = await popupOpened
  const shown = popup.getByRole('dialog', { name: 'Send transaction' })
  const popupApprove = shown.getByRole('button', { name: 'Approve', exact: true })
  // What the user waits for: the card drawn in the window, then its Approve taking input.
  await popup.waitForFunction(() => document.querySelector('.pw-card') !== null, null, {
    polling: 'raf',
  })
  const popupCard = Date.now() - clicked
  await popup.waitForFunction(
    () =>
      document
        .querySelector('.pw-card .pw-actions button:last-child')
        ?.getAttribute('aria-disabled') === 'false',
    null,
    { polling: 'raf' },
  )
  const popupArmed = Date.now() - clicked
  // The frame's card said which way it would go.
  await expect(
    walletOf(dapp).getByRole('button', {
      name: mode === 'page' ? 'Approve' : 'Approve in wallet window',
      exact: true,
    }),
  ).toBeVisible()
  await page.waitForTimeout(500)
  expect(await devnet.getTransactionCount({ address })).toBe(nonce)
  expect(new URL(popup.url()).origin).toBe(URLS.wallet)
  await expect(shown).toContainText('0.1 ETH')
  await expect(popupApprove).toHaveAttribute('aria-disabled', 'false')
  // Approving closes the popup, sometimes before Playwright's click has returned.
  await shown
    .getByRole('button', { name: 'Approve' })
    .click()
    .catch((error: unknown) => {
      if (!popup.isClosed()) throw error
    })
  const hash = (await sending).value as Hex
  expect((await devnet.waitForTransactionReceipt({ hash })).status).toBe('success')
  return { popupCard, popupArmed }
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
    mode: 'page',
  })
})

test('(3) an overflow: hidden box shows only the Approve button: same', async ({ page }) => {
  await attack(page, await onDemo(page), {
    crop: (box) => `(() => {
      const dialog = ${DIALOG}
      dialog.style.cssText = 'all:unset;display:block;position:fixed;overflow:hidden;left:${box.x}px;top:${box.y}px;width:${box.width}px;height:${box.height}px'
      ${FRAME}.style.cssText = 'display:block;position:absolute;border:0;left:${-box.x}px;top:${-box.y}px;width:100vw;height:100vh'
    })()`,
    mode: 'page',
  })
})

test('(4) CSS zoom 0.3 shrinks the card: the click on the shrunk Approve opens the popup', async ({
  page,
}) => {
  await attack(page, await onDemo(page), {
    crop: () => `${FRAME}.style.zoom = '0.3'`,
    moved: zoomed(0.3),
    mode: 'page',
  })
})

test('(5) CSS zoom 0.5: same', async ({ page }) => {
  await attack(page, await onDemo(page), {
    crop: () => `${FRAME}.style.zoom = '0.5'`,
    moved: zoomed(0.5),
    mode: 'page',
  })
})

/** The demo inside a page on another site, which the project allows (and vets, with `trusted`). */
async function nestedAttack(page: Page, port: number, trusted: boolean) {
  const outer = await startHostPage(
    port,
    null,
    'outer.localhost',
    `<!doctype html><title>Prize</title><style>body{margin:0}</style>
<iframe id="dapp" src="${DEMO_URL}/" style="position:fixed;inset:0;width:100%;height:100%;border:0"></iframe>`,
  )
  admin('project', 'allow', 'porthole-demo', outer.url)
  if (trusted) admin('project', 'trust', 'porthole-demo', outer.url)
  try {
    await page.goto(outer.url)
    const dapp = await (await page.locator('#dapp').elementHandle())?.contentFrame()
    if (!dapp) throw new Error('No dapp frame')
    await dapp.waitForFunction(() => 'porthole' in window)
    await attack(page, dapp, {
      crop: (box) => `document.getElementById('dapp').style.clipPath = '${insetAround(box)}'`,
      host: page,
      // The demo is vetted, the page around it only when `trusted`: every site above the
      // wallet frame must be.
      mode: trusted ? 'page' : 'window',
    })
  } finally {
    // Denying the origin also ends its trust.
    admin('project', 'deny', 'porthole-demo', outer.url)
    await outer.close()
  }
}

test('(6) nested frames: a cross-site page embeds the vetted dapp and clip-paths its frame to the Approve button: the outer page is not vetted, so the card offers the wallet window and the click opens it', async ({
  page,
}) => {
  await nestedAttack(page, Number(new URL(DEMO_URL).port) + 21, false)
})

test('(6b) the same with the outer page vetted too: the card is in the page, and the crop is caught by the visibility check (the click opens the popup)', async ({
  page,
}) => {
  await nestedAttack(page, Number(new URL(DEMO_URL).port) + 23, true)
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

test.describe('on a site the project allows but Porthole has not vetted (no `project trust`)', () => {
  let host: Awaited<ReturnType<typeof startHostPage>>
  test.beforeAll(async () => {
    host = await startHostPage(
      Number(new URL(DEMO_URL).port) + 22,
      'porthole-demo',
      'shop.localhost',
    )
    admin('project', 'allow', 'porthole-demo', host.url)
  })
  test.afterAll(async () => {
    admin('project', 'deny', 'porthole-demo', host.url)
    await host.close()
  })
  const onHost = async (page: Page) => {
    await page.goto(host.url)
    await waitForPorthole(page)
    return page
  }

  /**
   * No browser tells a frame that a frame above it is masked (README "Threats"): a mask is
   * stopped by the trust rule, not seen. This host is not vetted, so the card offers only the
   * wallet window.
   */
  test('(2) mask-image shows only the Approve button: the click opens the popup, nothing is signed in the frame', async ({
    page,
  }) => {
    await attack(page, await onHost(page), {
      crop: (box) => `Object.assign(${DIALOG}.style, {
        maskImage: 'linear-gradient(#000, #000)',
        maskSize: '${box.width}px ${box.height}px',
        maskPosition: '${box.x}px ${box.y}px',
        maskRepeat: 'no-repeat',
      })`,
      mode: 'window',
    })
  })

  /**
   * Chromium clips the intersection by a clip-path's bounding box: a polygon around Approve with
   * hairline spikes to the frame's corners reads as the whole card. Stopped by the trust rule too.
   */
  test('(2b) a clip-path polygon around Approve with spikes to the corners: same', async ({
    page,
  }) => {
    await attack(page, await onHost(page), {
      crop: (box) => {
        const [left, top, right, bottom] = [box.x, box.y, box.x + box.width, box.y + box.height]
        return `${FRAME}.style.clipPath = 'polygon(0 0, 1px 0, ${left}px ${top}px, ${right}px ${top}px, ${right}px ${bottom}px, 100% calc(100% - 1px), 100% 100%, calc(100% - 1px) 100%, ${left}px ${bottom}px, ${left}px ${top}px, 0 1px)'`
      },
      mode: 'window',
    })
  })

  /**
   * Double-clickjacking by keyboard: the bait says "hold Enter". The click that opens the window
   * is the user's; then a held key (repeated keydowns) or a press begun before the window's card
   * was armed must not approve once the 500 ms delay ends. Only a press that starts after the card
   * is armed counts, and the window does not put focus on Approve.
   */
  test('(11) a key held from before the window opened does not approve there after its delay', async ({
    page,
  }) => {
    const dapp = await onHost(page)
    const address = await emailLogin(dapp)
    await fund(address)
    const nonce = await devnet.getTransactionCount({ address })
    const sending = sendRequest(dapp, address)
    const box = await approveBox(dapp)
    const popupOpened = page.context().waitForEvent('page', { timeout: 5000 })
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
    const popup = await popupOpened
    const shown = popup.getByRole('dialog', { name: 'Send transaction' })
    await expect(shown).toBeVisible()
    // Enter goes down at once and is held: the browser repeats it every ~35 ms.
    await popup.keyboard.down('Enter')
    for (let i = 0; i < 40 && !popup.isClosed(); i++) {
      await popup.waitForTimeout(35).catch(() => undefined)
      if (!popup.isClosed()) await popup.keyboard.down('Enter').catch(() => undefined)
    }
    expect(popup.isClosed(), 'the held key approved in the window').toBe(false)
    await popup.keyboard.up('Enter')
    expect(await devnet.getTransactionCount({ address })).toBe(nonce)
    // A deliberate press after the delay, on Approve, approves.
    await shown.getByRole('button', { name: 'Approve' }).focus()
    await popup.keyboard.press('Enter').catch((error: unknown) => {
      if (!popup.isClosed()) throw error
    })
    const hash = (await sending).value as Hex
    expect((await devnet.waitForTransactionReceipt({ hash })).status).toBe('success')
  })

  test('(10) control: nothing done to the page, the card says it approves in the wallet window, one click opens it and the approval completes there', async ({
    page,
  }) => {
    const timing = await attack(page, await onHost(page), {
      crop: () => 'undefined',
      bait: false,
      mode: 'window',
    })
    // What an unvetted site costs the user: from the click to the window's card, and to its
    // Approve taking input (the popup's own 500 ms delay).
    test.info().annotations.push({ type: 'timing', description: JSON.stringify(timing) })
    console.log(
      `click → popup card ${timing.popupCard} ms, → popup Approve armed ${timing.popupArmed} ms`,
    )
  })
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
      mode: 'page',
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
