/**
 * Issue 14, on-ramp: while the provider is down the modal offers the spec's fallback limits; a
 * new embedded wallet buys 50 USD of pUSD through the local provider's checkout, in a popup
 * opened by the click, and sees the tokens arrive (the chain holds exactly what the quote said);
 * from a restricted time zone buying is not offered.
 */
import type { Browser, Page } from '@playwright/test'
import { DEVNET_TOKENS, ONRAMP_LOCAL_KEYS } from '@porthole/shared'
import { type Address, erc20Abi, parseUnits } from 'viem'
import { API_URL, emailLogin, freshEmail } from '../support/embedded.js'
import {
  DEMO_URL,
  devnet,
  expect,
  modal,
  test,
  URLS,
  waitForPorthole,
} from '../support/fixtures.js'
import { closePage } from '../support/pages.js'

const ONRAMP_URL = URLS.onramp
const [PUSD] = DEVNET_TOKENS
const PROJECT_QUERY = 'projectId=porthole-demo&st=e2e&sv=e2e'

/** Turns the local provider's simulated outage on or off. */
async function providerOutage(down: boolean): Promise<void> {
  const response = await fetch(`${ONRAMP_URL}/api/test/outage`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${ONRAMP_LOCAL_KEYS.apiKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ down }),
  })
  expect(response.status).toBe(200)
}

/** A new visitor (a fresh context, optionally in another time zone) logged in by e-mail. */
async function embeddedUser(
  browser: Browser,
  options: { timezoneId?: string } = {},
): Promise<{ page: Page; address: Address }> {
  const context = await browser.newContext(options)
  const page = await context.newPage()
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  const address = (await emailLogin(page, freshEmail('buy'))) as Address
  return { page, address }
}

/** Opens Account and its Buy view. */
async function openBuy(page: Page): Promise<void> {
  await page.evaluate('window.porthole.open()')
  await modal(page).getByRole('button', { name: 'Buy', exact: true }).click()
  await expect(modal(page).getByRole('dialog', { name: 'Buy' })).toBeVisible()
}

// The API keeps the provider's options for a minute: the outage test goes first.
test('with the provider down, the limits come from the fallback table', async ({ browser }) => {
  await providerOutage(true)
  try {
    const { page } = await embeddedUser(browser)
    await openBuy(page)
    const frame = modal(page)
    await expect(frame.getByTestId('onramp-fallback')).toBeVisible()
    await expect(frame.getByTestId('onramp-limits')).toHaveText('Between 10.00 and 7500.00 USD')
    await frame.getByRole('radio', { name: 'Bank transfer' }).check()
    await expect(frame.getByTestId('onramp-limits')).toHaveText('Between 10.00 and 25000.00 USD')
    await frame.getByLabel('You pay').fill('30000')
    await expect(frame.getByTestId('onramp-amount-error')).toHaveText(
      'Enter an amount between 10.00 and 25000.00 USD',
    )
    await frame.getByRole('combobox', { name: 'Currency' }).selectOption('EUR')
    await expect(frame.getByTestId('onramp-amount-error')).toHaveText(
      'Enter an amount between 10.00 and 25000.00 EUR',
    )
    await page.context().close()
  } finally {
    await providerOutage(false)
  }
})

test('a new embedded wallet buys 50 USD of pUSD through the checkout popup', async ({
  browser,
}) => {
  const { page, address } = await embeddedUser(browser)
  expect(
    await devnet.readContract({
      address: PUSD.address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address],
    }),
  ).toBe(0n)
  // The API asks a provider that failed again after 5 s: wait until it answers for itself.
  await expect
    .poll(async () => {
      const response = await fetch(`${API_URL}/v1/onramp/options?${PROJECT_QUERY}`)
      return ((await response.json()) as { fallback?: boolean }).fallback
    })
    .toBe(false)
  await openBuy(page)
  const frame = modal(page)
  await expect(frame.getByTestId('onramp-fallback')).toHaveCount(0)
  // The provider's own limits (not the fallback table's).
  await expect(frame.getByTestId('onramp-limits')).toHaveText('Between 5.00 and 5000.00 USD')
  await frame.getByLabel('You pay').fill('50')
  const bought = frame.getByTestId('onramp-purchase-amount')
  await expect(bought).toHaveText(/^\d+(\.\d+)? \w+$/)
  const [amount] = (await bought.innerText()).split(' ')
  const popupOpened = page.waitForEvent('popup')
  await frame.getByTestId('onramp-continue').click()
  const popup = await popupOpened
  await expect(frame.getByTestId('onramp-status')).toBeVisible()
  // The provider's page gets no handle on the modal (or the dapp) through window.opener.
  await expect(popup.getByLabel('Card number')).toBeVisible()
  expect(await popup.evaluate(() => window.opener === null)).toBe(true)
  await popup.getByLabel('Card number').fill('4242 4242 4242 4242')
  await popup.getByRole('button', { name: 'Pay' }).click()
  await expect(popup.getByText('Payment complete — you can close this window')).toBeVisible({
    timeout: 30_000,
  })
  await closePage(popup)
  // The modal followed the order: Account on Tokens, with the pUSD there.
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible({ timeout: 15_000 })
  await expect(frame.getByRole('status').getByText(/arrived in your wallet$/)).toBeVisible()
  const held = await devnet.readContract({
    address: PUSD.address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  })
  expect(held).toBe(parseUnits(amount as string, PUSD.decimals))
  await expect(frame.getByTestId('tokens')).toContainText('pUSD')
  await expect(frame.getByTestId('tokens')).toContainText(Number(amount).toFixed(3))
  await page.context().close()
})

test('from a restricted time zone buying is not offered', async ({ browser }) => {
  const { page } = await embeddedUser(browser, { timezoneId: 'Asia/Shanghai' })
  await page.evaluate('window.porthole.open()')
  const frame = modal(page)
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
  await expect(frame.getByRole('button', { name: 'Send', exact: true })).toBeVisible()
  await expect(frame.getByRole('button', { name: 'Buy', exact: true })).toHaveCount(0)
  await page.context().close()
})
