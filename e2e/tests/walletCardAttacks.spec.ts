/**
 * Issue 25 audit, the wallet frame's cards and sign-out, attacked in Chromium against the real
 * stack (modal, wallet frame, API, devnet):
 * - a dapp asks for an EIP-2612 permit of max uint for a stranger: the card must say so plainly;
 * - a host page names a font whose glyphs are not letters (and colours that hide the Approve
 *   label) for the card: the card must keep the wallet's own type and colours;
 * - the API is unreachable when the user signs out: the user must be told, and can try again.
 */
import type { Page } from '@playwright/test'
import { DEVNET_TOKENS } from '@porthole/shared/devnet'
import { type Hex, maxUint256, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { emailLogin, freshEmail, providerRequest, walletFrame } from '../support/embedded.js'
import { DEMO_URL, expect, modal, state, test, waitForPorthole } from '../support/fixtures.js'

const PUSD = DEVNET_TOKENS[0].address
/** An address as the permit sentences cut it (first 4 and last 6 characters). */
const short = (address: string) => `${address.slice(0, 4)}…${address.slice(-6)}`

async function openDemo(page: Page): Promise<void> {
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
}

test('a Permit of max uint for a stranger on pUSD: the card names the spender, "unlimited" and the token, with a warning', async ({
  page,
}) => {
  await openDemo(page)
  const address = (await emailLogin(page, freshEmail('permit'))) as Hex
  const stranger = privateKeyToAccount(generatePrivateKey()).address
  const typed = {
    domain: { name: 'Porthole USD', version: '1', chainId: 31337, verifyingContract: PUSD },
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit',
    message: {
      owner: address,
      spender: stranger,
      value: maxUint256.toString(),
      nonce: 0,
      deadline: '1796126400',
    },
  }
  const signing = providerRequest(page, 'eth_signTypedData_v4', [address, JSON.stringify(typed)])
  const card = walletFrame(page).getByRole('dialog')
  await expect(card).toBeVisible()
  console.log(`permit card: ${(await card.innerText()).replace(/\s+/g, ' ').slice(0, 400)}`)
  await expect(card).toHaveAccessibleName('Token permit')
  await expect(card).toContainText(new RegExp(`Spender\\s*${stranger}`))
  const allows = `Lets ${short(stranger)} spend an unlimited amount of your pUSD until you revoke it`
  await expect(card).toContainText(allows)
  await expect(card).toContainText(/Token\s*pUSD \(Porthole USD\)/)
  const warnings = card.locator('.pw-warning')
  await expect(warnings.first()).toContainText('This signature is a token permit')
  await expect(warnings.nth(1)).toContainText(
    `Unlimited: ${short(stranger)} could take all your pUSD`,
  )
  // The warning style: the wallet's warning colour, not the card's text colour.
  const [warningColour, textColour] = await Promise.all([
    warnings.first().evaluate((node) => getComputedStyle(node).color),
    card.locator('.pw-title').evaluate((node) => getComputedStyle(node).color),
  ])
  expect(warningColour).not.toBe(textColour)
  await card.getByRole('button', { name: 'Reject' }).click()
  expect((await signing).error).toMatchObject({ code: 4001 })
})

test("a host page's symbol font and hiding colours do not reach the approval card: it keeps the wallet's type and colours", async ({
  page,
}) => {
  await openDemo(page)
  // The host page has a font of its own whose glyphs are no letters, and names it (and the
  // symbol fonts a user may have installed) for the card; its accent is the button text's white.
  await page.evaluate(`(() => {
    const style = document.createElement('style')
    style.textContent = "@font-face { font-family: 'PortholeBlank'; src: url(data:font/woff2;base64,d09GMgABAAAAAA) format('woff2'); }"
    document.head.append(style)
    window.porthole.destroy()
    window.porthole = Porthole.createPorthole({
      projectId: 'porthole-demo',
      themeVariables: {
        '--ph-font-family': "'PortholeBlank', Wingdings, Webdings, 'Symbol'",
        '--ph-accent': '#ffffff',
      },
    })
  })()`)
  await waitForPorthole(page)
  // The new modal frame has rendered its own Connect (a code typed into the skeleton is lost).
  await expect(modal(page).locator('#ph-skeleton')).toHaveCount(0)
  const address = await emailLogin(page, freshEmail('font'))
  const signing = providerRequest(page, 'personal_sign', [toHex('Read me'), address])
  const card = walletFrame(page).getByRole('dialog', { name: 'Sign message' })
  await expect(card).toBeVisible()
  const styles = await card.evaluate((node) => {
    const approve = [...node.querySelectorAll('button')].find((b) => b.textContent === 'Approve')
    return {
      card: getComputedStyle(node).fontFamily,
      title: getComputedStyle(node.querySelector('.pw-title') as Element).fontFamily,
      approve: getComputedStyle(approve as Element).fontFamily,
      approveBackground: getComputedStyle(approve as Element).backgroundColor,
      approveText: getComputedStyle(approve as Element).color,
    }
  })
  console.log(`card styles under the host's theme: ${JSON.stringify(styles)}`)
  for (const family of [styles.card, styles.title, styles.approve]) {
    expect(family).not.toMatch(/PortholeBlank|Wingdings|Webdings|Symbol/)
    expect(family).toMatch(/^ui-sans-serif, system-ui/)
  }
  // The Approve label stays readable: the wallet's own blue under white text.
  expect(styles.approveBackground).toBe('rgb(37, 99, 235)')
  expect(styles.approveText).toBe('rgb(255, 255, 255)')
  await card.getByRole('button', { name: 'Reject' }).click()
  expect((await signing).error).toMatchObject({ code: 4001 })
})

test('a sign-out the API never hears: the user is told it did not reach the server, the key is gone, and Try again ends the session', async ({
  page,
}) => {
  await openDemo(page)
  await emailLogin(page, freshEmail('signout'))
  // The API cannot be reached for the logout (the rest of the page works).
  let attempts = 0
  await page.route('**/auth/v1/logout?**', (route) => {
    attempts++
    return route.abort('connectionrefused')
  })
  await page.evaluate('window.porthole.open()')
  await modal(page).getByRole('button', { name: 'Disconnect' }).click()
  const alert = modal(page).getByTestId('alert')
  await expect(alert).toContainText(
    'Signed out on this device, but the sign-out did not reach the server',
  )
  console.log(`logout attempts the wallet made: ${attempts}`)
  expect(attempts).toBe(3)
  // The modal stays open on Connect with the alert (it used to close as if all went well).
  await expect(modal(page).getByRole('heading', { name: 'Connect Wallet' })).toBeVisible()
  // Signed out here: the dapp sees no account, the wallet frame holds no key.
  expect(await state(page)).toMatchObject({ status: 'disconnected' })
  // The API answers again: Try again reaches it, the alert goes.
  await page.unroute('**/auth/v1/logout?**')
  const logout = page.waitForResponse((response) => response.url().includes('/auth/v1/logout'))
  await alert.getByRole('button', { name: 'Try again' }).click()
  expect((await logout).status()).toBe(204)
  await expect(alert).toHaveCount(0)
})

test('a page that floods the wallet with requests gets at most 99 waiting for approval; the rest are refused at once', async ({
  page,
}) => {
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  const address = await emailLogin(page, freshEmail('flood'))
  // 120 signatures asked at once, as a hostile page would; each answer is noted as it comes.
  await page.evaluate(`(() => {
    const provider = window.porthole.getProvider('eip155')
    window.__settled = []
    for (let i = 0; i < 120; i++)
      provider.request({ method: 'personal_sign', params: ['0x${Buffer.from('flood').toString('hex')}', '${address}'] })
        .then(() => 'signed', (e) => e.code + ' ' + e.message)
        .then((outcome) => window.__settled.push(outcome))
  })()`)
  const settled = () => page.evaluate('window.__settled') as Promise<string[]>
  // The 21 beyond the limit are refused without the user seeing them; the 99 wait.
  await expect.poll(async () => (await settled()).length, { timeout: 30_000 }).toBe(21)
  const card = walletFrame(page).getByRole('dialog', { name: 'Sign message' })
  await expect(card).toContainText('98 more requests waiting')
  expect(await settled()).toEqual(
    Array(21).fill('-32005 Too many requests wait for approval (at most 99)'),
  )
  // Rejecting the first lets the next one up.
  await card.getByRole('button', { name: 'Reject' }).click()
  await expect(card).toContainText('97 more requests waiting')
  expect((await settled()).slice(21)).toEqual(['4001 User rejected the request.'])
})
