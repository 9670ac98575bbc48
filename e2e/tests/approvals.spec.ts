/**
 * Issue 10, approvals: a hostile host page attacks the embedded wallet's approval card. It hides
 * the modal frame or draws over it and has the user click where Approve is, switches the chain
 * under an open card, claims another site in its metadata, and floods requests. Real Chromium,
 * real wallet frame, real devnets.
 */
import type { Page } from '@playwright/test'
import { createPublicClient, type Hex, http } from 'viem'
import {
  admin,
  emailLogin,
  freshEmail,
  fund,
  providerRequest,
  signsFor,
  walletFrame,
} from '../support/embedded.js'
import {
  DEMO_URL,
  DEVNET_B_RPC,
  devnet,
  expect,
  modal,
  OTHER_ADDRESS,
  test,
  URLS,
  waitForPorthole,
} from '../support/fixtures.js'
import { startHostPage } from '../support/hostPage.js'

const devnetB = createPublicClient({ transport: http(DEVNET_B_RPC) })

/** The demo page with a new embedded wallet (funded unless told otherwise). */
async function walletOnDemo(page: Page, funded = true, query = ''): Promise<Hex> {
  await page.goto(`${DEMO_URL}/${query}`)
  await waitForPorthole(page)
  const address = (await emailLogin(page, freshEmail('approve'))) as Hex
  if (funded) await fund(address)
  return address
}

const card = (page: Page, name: string) => walletFrame(page).getByRole('dialog', { name })
const approveButton = (page: Page) => walletFrame(page).getByRole('button', { name: 'Approve' })

/** Where Approve is on the screen (page coordinates), once the card shows it. */
async function approveSpot(page: Page) {
  await expect(approveButton(page)).toBeVisible()
  const box = await approveButton(page).boundingBox()
  if (!box) throw new Error('No Approve button on screen')
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

/** The host page's decoy under the modal: a "Claim reward" button the user means to press. */
const DECOY = `(() => {
  const decoy = document.createElement('button')
  decoy.textContent = 'Claim reward'
  decoy.style.cssText = 'position:fixed;inset:0;font-size:40px'
  document.body.append(decoy)
})()`

async function clickJacked(page: Page, hide: string) {
  const address = await walletOnDemo(page)
  const nonce = await devnet.getTransactionCount({ address })
  const sending = providerRequest(page, 'eth_sendTransaction', [
    { from: address, to: OTHER_ADDRESS, value: '0x16345785d8a0000' },
  ])
  const spot = await approveSpot(page)
  await page.evaluate(DECOY)
  await page.evaluate(hide)
  // Long past the 500 ms delay: only what the user can see counts.
  await page.waitForTimeout(1200)
  const popupOpened = page.context().waitForEvent('page')
  await page.mouse.click(spot.x, spot.y)
  const popup = await popupOpened
  await page.waitForTimeout(500)
  expect(await devnet.getTransactionCount({ address })).toBe(nonce)
  // The approval moved to a window on the wallet origin, which the host cannot style.
  expect(new URL(popup.url()).origin).toBe(URLS.wallet)
  const shown = popup.getByRole('dialog', { name: 'Send transaction' })
  await expect(shown).toContainText('0.1 ETH')
  await expect(shown).toContainText(URLS.demo)
  // Approving closes the popup, sometimes before Playwright's click has returned: that close is
  // the expected outcome, and the mined transaction below is the proof.
  await shown
    .getByRole('button', { name: 'Approve' })
    .click()
    .catch((error: unknown) => {
      if (!popup.isClosed()) throw error
    })
  const hash = (await sending).value as Hex
  expect((await devnet.waitForTransactionReceipt({ hash })).status).toBe('success')
}

test('(a) the host makes the modal transparent over a decoy: the click approves nothing; the approval completes in the popup', async ({
  page,
}) => {
  await clickJacked(
    page,
    `document.querySelector('iframe[title="Connect a wallet"]').style.opacity = '0'`,
  )
})

test('(b) the host draws over the modal (a top-layer popover the click passes through): same', async ({
  page,
}) => {
  await clickJacked(
    page,
    `(() => {
      const cover = document.createElement('div')
      cover.popover = 'manual'
      cover.textContent = 'Claim your reward!'
      cover.style.cssText = 'pointer-events:none;position:fixed;inset:0;margin:0;width:100vw;height:100vh;background:#fff;font-size:40px;border:0'
      document.body.append(cover)
      cover.showPopover()
    })()`,
  )
})

test('(c) a click before the card has been visible for 500 ms is ignored', async ({ page }) => {
  await page.clock.install()
  const address = await walletOnDemo(page, false)
  // Time stands still for the page from before the card is drawn: however slow this machine,
  // the card has been on screen for no time at all when the click comes.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000)
  const signing = providerRequest(page, 'personal_sign', ['0x6f6b', address])
  const spot = await approveSpot(page)
  await page.waitForTimeout(1000)
  await page.mouse.click(spot.x, spot.y)
  await page.keyboard.press('Enter')
  await expect(approveButton(page)).toHaveAttribute('aria-disabled', 'true')
  await expect(card(page, 'Sign message')).toBeVisible()
  await page.clock.runFor(600)
  await expect(approveButton(page)).toHaveAttribute('aria-disabled', 'false')
  await page.mouse.click(spot.x, spot.y)
  const signature = (await signing).value as Hex
  expect(await signsFor(address, 'ok', signature)).toBe(true)
})

test('(d) a second request waits behind the card on screen; both complete in order', async ({
  page,
}) => {
  const address = await walletOnDemo(page, false)
  const first = providerRequest(page, 'personal_sign', ['0x6669727374', address])
  await expect(card(page, 'Sign message')).toContainText('first')
  const second = providerRequest(page, 'personal_sign', ['0x7365636f6e64', address])
  await expect(walletFrame(page).getByText('1 more request waiting')).toBeVisible()
  await expect(card(page, 'Sign message')).toContainText('first')
  await approveButton(page).click()
  await expect(card(page, 'Sign message')).toContainText('second')
  await approveButton(page).click()
  const signatures = [(await first).value as Hex, (await second).value as Hex]
  expect(await signsFor(address, 'first', signatures[0]!)).toBe(true)
  expect(await signsFor(address, 'second', signatures[1]!)).toBe(true)
})

test('(e) the host switches the chain under an open card: the request is refused (4001), nothing reaches the other chain', async ({
  page,
}) => {
  const address = await walletOnDemo(page)
  const sending = providerRequest(page, 'eth_sendTransaction', [
    { from: address, to: OTHER_ADDRESS, value: '0x1' },
  ])
  await expect(card(page, 'Send transaction')).toContainText('chain 31337')
  expect(
    await providerRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0x7a6a' }]),
  ).toEqual({ value: null })
  expect((await sending).error).toMatchObject({ code: 4001 })
  await expect(card(page, 'Send transaction')).toHaveCount(0)
  expect(await devnetB.getTransactionCount({ address })).toBe(0)
  expect(await devnet.getTransactionCount({ address })).toBe(0)
})

test('(f) the host claims another site in its metadata: the card shows the origin the handshake verified', async ({
  page,
}) => {
  // A page on an allowed origin (a compromised partner site, say) that calls itself a bank.
  const host = await startHostPage(
    4018,
    null,
    'localhost',
    `<!doctype html><title>Trusted Bank</title>
<script src="${URLS.modal}/sdk.js" data-project-id="porthole-demo" data-networks="eip155:31337"></script>
<script>
  window.porthole.destroy()
  window.porthole = Porthole.createPorthole({
    projectId: 'porthole-demo',
    networks: ['eip155:31337'],
    metadata: { name: 'Trusted Bank', description: 'Your bank', url: 'https://trusted-bank.example', icons: [] },
  })
</script>`,
  )
  admin('project', 'allow', 'porthole-demo', host.url)
  try {
    await page.goto(host.url)
    await waitForPorthole(page)
    const address = await emailLogin(page, freshEmail('bank'))
    const signing = providerRequest(page, 'personal_sign', ['0x6869', address])
    const shown = card(page, 'Sign message')
    await expect(shown).toContainText(host.url)
    await expect(shown).not.toContainText('trusted-bank')
    await shown.getByRole('button', { name: 'Reject' }).click()
    expect((await signing).error).toMatchObject({ code: 4001 })
  } finally {
    admin('project', 'deny', 'porthole-demo', host.url)
    await host.close()
  }
})

test('(g) the card shows what is signed: deployments, hidden characters, whole calldata, effects, and a balance that does not cover it', async ({
  page,
}) => {
  // The owner account (EOA) pays its own gas: a smart account would be sponsored.
  const address = await walletOnDemo(page, false, '?accountType=eoa')
  // No ETH: the card says so before approving, and Approve stays unavailable.
  const broke = providerRequest(page, 'eth_sendTransaction', [
    { from: address, to: OTHER_ADDRESS, value: '0x2386f26fc10000' },
  ])
  await expect(card(page, 'Send transaction')).toContainText(
    /Insufficient ETH: balance 0, needs 0\.01/,
  )
  await expect(approveButton(page)).toHaveAttribute('aria-disabled', 'true')
  await walletFrame(page).getByRole('button', { name: 'Reject' }).click()
  expect((await broke).error).toMatchObject({ code: 4001 })

  await fund(address)
  // A send: its effect on the balance, from a simulation.
  const send = providerRequest(page, 'eth_sendTransaction', [
    { from: address, to: OTHER_ADDRESS, value: '0x2386f26fc10000' },
  ])
  await expect(card(page, 'Send transaction')).toContainText('−0.01 ETH')
  await expect(card(page, 'Send transaction')).toContainText(OTHER_ADDRESS)
  await walletFrame(page).getByRole('button', { name: 'Reject' }).click()
  await send

  // A deployment: no recipient, the whole bytecode.
  const bytecode = `0x${'6080604052'.repeat(40)}`
  const deploy = providerRequest(page, 'eth_sendTransaction', [{ from: address, data: bytecode }])
  await expect(card(page, 'Send transaction')).toContainText('Contract deployment')
  await expect(walletFrame(page).getByLabel('Data')).toHaveText(bytecode)
  await walletFrame(page).getByRole('button', { name: 'Reject' }).click()
  await deploy

  // A message hiding text with a right-to-left override and a zero-width space.
  const sneaky = 'Pay 1 ETH to \u202Eevil\u202C\u200B friend'
  const message = providerRequest(page, 'personal_sign', [
    `0x${Buffer.from(sneaky).toString('hex')}`,
    address,
  ])
  await expect(card(page, 'Sign message')).toContainText('⟨U+202E⟩evil⟨U+202C⟩⟨U+200B⟩')
  await expect(card(page, 'Sign message')).toContainText('invisible or direction-changing')
  await walletFrame(page).getByRole('button', { name: 'Reject' }).click()
  await message
})

test('(h) keyboard: focus is on the card when it appears, Tab stays on it, keys elsewhere do not reject', async ({
  page,
}) => {
  const address = await walletOnDemo(page, false)
  const signing = providerRequest(page, 'personal_sign', ['0x6b6579', address])
  await expect(card(page, 'Sign message')).toBeVisible()
  const focused = () =>
    walletFrame(page)
      .locator(':focus')
      .evaluate((node) =>
        node.getAttribute('role') === 'dialog' ? 'dialog' : node.textContent?.trim(),
      )
  await expect.poll(focused).toBe('dialog')
  const seen = new Set<string>()
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab')
    seen.add(String(await focused()))
  }
  expect([...seen].sort()).toEqual(['Approve', 'Reject', 'key'].sort())
  // The modal behind is inert: nothing there takes the key presses; Space on the message block
  // scrolls it, and rejects nothing.
  await expect(modal(page).locator('#root')).toHaveAttribute('inert', '')
  await page.keyboard.press('Tab')
  expect(await focused()).toBe('key')
  await page.keyboard.press('Space')
  expect(await Promise.race([signing, page.waitForTimeout(500).then(() => 'pending')])).toBe(
    'pending',
  )
  await page.waitForTimeout(600)
  await approveButton(page).focus()
  await page.keyboard.press('Enter')
  expect(await signsFor(address, 'key', (await signing).value as Hex)).toBe(true)
})
