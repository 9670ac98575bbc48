/**
 * Issue 5 in Chromium on the seeded devnets: the Account view's tokens, NFTs and activity for a
 * seeded account, sends that move real funds, the send errors, the data service failing and
 * recovering, and the network-switch views.
 */
import type { Page } from '@playwright/test'
import { formatAmount } from '@porthole/shared'
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  parseEther,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { emailLogin, freshEmail } from '../support/embedded.js'
import {
  connectThroughModal,
  DEMO_URL,
  DEVNET_B_RPC,
  DEVNET_RPC,
  devnet,
  devWalletScript,
  expect,
  modal,
  state,
  test,
  URLS,
  waitForPorthole,
} from '../support/fixtures.js'

/** anvil accounts 5 (the visitor) and 6 (a friend); seeded history covers both. */
const KEY = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba'
const ADDRESS = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc'
const FRIEND_KEY = '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e'
const FRIEND = '0x976EA74026E726554dB657fA54763abd0C3a0aa9'
const PUSD = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const PRT = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const PALS = '0x4ed7c70F96B99c776995fB64377f0d4aB3B0e1C1'
const API = URLS.api

const erc721 = [
  {
    type: 'function',
    name: 'ownerOf',
    stateMutability: 'view',
    inputs: [{ name: 'id', type: 'uint256' }],
    outputs: [{ type: 'address' }],
  },
] as const

/** The names of the analytics events the page posts to the API, as they are sent. */
function analyticsEvents(page: Page): string[] {
  const events: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().startsWith(`${API}/e?`))
      events.push(JSON.parse(request.postData() ?? '{}').props?.event)
  })
  return events
}

/** Opens the demo with the dev wallet holding account 5, connects, and opens Account. */
async function openAccount(page: Page): Promise<void> {
  await page.addInitScript(devWalletScript({ mode: 'approve', privateKey: KEY }))
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  await connectThroughModal(page)
  await page.evaluate('porthole.open()')
  await expect(modal(page).getByTestId('account-address')).toBeVisible()
}

const tokenBalance = (token: `0x${string}`, owner: `0x${string}`) =>
  devnet.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

test('Tokens shows the account’s balances as on chain (3 decimals) and a total; NFTs shows its collection, spam hidden', async ({
  page,
}) => {
  await openAccount(page)
  const frame = modal(page)
  const [eth, pusd, prt] = await Promise.all([
    devnet.getBalance({ address: ADDRESS }),
    tokenBalance(PUSD, ADDRESS),
    tokenBalance(PRT, ADDRESS),
  ])
  const tokens = frame.getByTestId('tokens')
  await expect(tokens).toContainText(`${formatAmount(eth, 18, 3)} ETH`)
  await expect(tokens).toContainText(`${formatAmount(pusd, 6, 3)} pUSD`)
  await expect(tokens).toContainText(`${formatAmount(prt, 18, 3)} PRT`)
  // The seeded prices: ETH 3000, pUSD 1, PRT 0.25 USD.
  const total = (Number(eth) / 1e18) * 3000 + Number(pusd) / 1e6 + (Number(prt) / 1e18) * 0.25
  const shown = Number(
    ((await frame.getByTestId('tokens-total').locator('strong').textContent()) ?? '').replace(
      /[$,]/g,
      '',
    ),
  )
  expect(Math.abs(shown - total)).toBeLessThan(0.02)

  await frame.getByRole('tab', { name: 'NFTs' }).click()
  // What the chain says account 5 holds of the seeded collection (tokens 1–30).
  const owned: number[] = []
  for (let id = 1; id <= 30; id++) {
    const owner = await devnet
      .readContract({ address: PALS, abi: erc721, functionName: 'ownerOf', args: [BigInt(id)] })
      .catch(() => null)
    if (owner?.toLowerCase() === ADDRESS.toLowerCase()) owned.push(id)
  }
  expect(owned.length).toBeGreaterThan(0)
  const nfts = frame.getByTestId('nfts')
  for (const id of owned) await expect(nfts).toContainText(`Porthole Pal #${id}`)
  await expect(nfts.getByText('Porthole Pals').first()).toBeVisible()
  await expect(nfts).not.toContainText('Reward voucher')
  // The images are served by the API and really load.
  const image = nfts.locator('img').first()
  await expect
    .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0)
})

test('Activity groups by month (the year added for last year), hides spam and shows a transfer made now after a refresh, on its chain only', async ({
  page,
}) => {
  await openAccount(page)
  const frame = modal(page)
  await frame.getByRole('tab', { name: 'Activity' }).click()
  const activity = frame.getByTestId('activity')
  await expect(activity).toBeVisible()
  const titles = await activity.locator('h3').allTextContents()
  const now = new Date()
  const month = now.toLocaleString('en', { month: 'long' })
  expect(titles[0]).toBe(month)
  const lastYear = titles.filter((title) => / \d{4}$/.test(title))
  expect(lastYear.length).toBeGreaterThan(0)
  for (const title of lastYear) expect(title).not.toContain(String(now.getFullYear()))
  // The seed airdropped a spam voucher to every account: it is not listed.
  await expect(activity).not.toContainText('Reward voucher')
  const before = await activity.getByTestId('transaction').count()

  // A friend sends 0.0123 ETH now; the indexer follows the devnet.
  const friend = createWalletClient({
    account: privateKeyToAccount(FRIEND_KEY),
    transport: http(DEVNET_RPC),
  })
  const hash = await friend.sendTransaction({
    chain: null,
    to: ADDRESS,
    value: parseEther('0.0123'),
  })
  await devnet.waitForTransactionReceipt({ hash })
  await expect
    .poll(
      async () => {
        await frame.getByRole('tab', { name: 'Tokens' }).click()
        await frame.getByRole('tab', { name: 'Activity' }).click()
        return activity.getByTestId('transaction').first().textContent({ timeout: 2_000 })
      },
      { timeout: 20_000 },
    )
    .toMatch(/Received.*\+0\.012 ETH.*(sec|just now)/)
  expect(await activity.getByTestId('transaction').count()).toBe(before + 1)

  // On Devnet B the list is Devnet B's: the transfer made on 31337 is not there.
  await page.evaluate(`porthole.switchNetwork('eip155:31338')`)
  await page.evaluate('porthole.open()')
  await frame.getByRole('tab', { name: 'Activity' }).click()
  await expect(activity.getByTestId('transaction').first()).toBeVisible()
  await expect(activity).not.toContainText('+0.012 ETH')
})

/** Fills the Send view: token (by symbol), amount, receiver; then asks for the preview. */
async function fillSend(page: Page, parts: { token?: string; amount?: string; to?: string }) {
  const frame = modal(page)
  if (parts.token) {
    await frame.getByTestId('send-token').click()
    await frame
      .getByRole('button', { name: new RegExp(`\\b${parts.token}\\b`) })
      .first()
      .click()
  }
  if (parts.amount !== undefined)
    await frame.getByRole('textbox', { name: 'Amount' }).fill(parts.amount)
  if (parts.to !== undefined)
    await frame.getByRole('textbox', { name: 'Receiver address' }).fill(parts.to)
  await frame.getByRole('button', { name: 'Preview send' }).click()
}

test('sending ETH and then pUSD moves them on chain; the modal returns to Account and SEND_* reach analytics', async ({
  page,
}) => {
  const events = analyticsEvents(page)
  await openAccount(page)
  const frame = modal(page)

  const ethBefore = await devnet.getBalance({ address: FRIEND })
  await frame.getByRole('button', { name: 'Send' }).click()
  await fillSend(page, { token: 'ETH', amount: '0.25', to: FRIEND })
  await expect(frame.getByTestId('send-preview')).toContainText('0.250 ETH')
  await expect(frame.getByTestId('send-preview')).toContainText('0x97…3a0aa9')
  await frame.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(frame.getByTestId('account-address')).toBeVisible()
  await expect
    .poll(() => devnet.getBalance({ address: FRIEND }))
    .toBe(ethBefore + parseEther('0.25'))

  const pusdBefore = await tokenBalance(PUSD, FRIEND)
  await frame.getByRole('button', { name: 'Send' }).click()
  // The send state was reset: no token chosen any more.
  await expect(frame.getByTestId('send-token')).toContainText('Select token')
  await fillSend(page, { token: 'pUSD', amount: '12.5', to: FRIEND.toLowerCase() })
  await frame.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(frame.getByTestId('account-address')).toBeVisible()
  await expect.poll(() => tokenBalance(PUSD, FRIEND)).toBe(pusdBefore + parseUnits('12.5', 6))

  await expect.poll(() => events.filter((e) => e === 'SEND_SUCCESS').length).toBe(2)
  expect(events.filter((e) => e === 'SEND_INITIATED')).toHaveLength(2)
})

test('the send errors: amount and receiver required, token required, too much, a bad address, a refusal', async ({
  page,
}) => {
  await openAccount(page)
  const frame = modal(page)
  await frame.getByRole('button', { name: 'Send' }).click()
  const error = frame.getByTestId('send-error')
  await fillSend(page, {})
  await expect(error).toHaveText('An amount and receiver address are required')
  await fillSend(page, { amount: '1', to: FRIEND })
  await expect(error).toHaveText('A token is required')
  await fillSend(page, { token: 'pUSD', amount: '99999999' })
  await expect(error).toHaveText('Insufficient pUSD balance')
  await fillSend(page, { amount: '1.1234567' })
  await expect(error).toHaveText('pUSD has at most 6 decimal places')
  await fillSend(page, { amount: '1', to: '0x1234' })
  await expect(error).toHaveText('Enter a valid address or name')

  // The wallet refuses: the error shows and nothing moves.
  const before = await tokenBalance(PUSD, FRIEND)
  await fillSend(page, { to: FRIEND })
  await page.evaluate(() =>
    (
      window as unknown as { portholeDevWallet: { setMode(m: string): void } }
    ).portholeDevWallet.setMode('reject'),
  )
  await frame.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(frame.getByTestId('send-error')).toBeVisible()
  expect(await tokenBalance(PUSD, FRIEND)).toBe(before)
})

test("the data service down shows 'Token Balance Unavailable' (the native balance still comes from the devnet's RPC); balances come back 30 s later, not before", async ({
  page,
}) => {
  // The installed clock runs on in real time until it is paused, so the time the test itself
  // takes (slow on a loaded machine) would count toward the 30 s. Pause it at a time set from
  // the moment the balance request failed instead of fast-forwarding from "now".
  await page.clock.install()
  let asked = 0
  let failedAt = 0
  await page.route(`${API}/v1/account/*/balance**`, (route) => {
    asked++
    failedAt = Date.now()
    return route.abort('connectionrefused')
  })
  // The API's RPC proxy is down too: the native balance comes from the devnet's own RPC, the
  // next transport of the network's ranked fallback.
  await page.route(`${API}/v1?**`, (route) => route.abort('connectionrefused'))
  await openAccount(page)
  const frame = modal(page)
  await expect(frame.getByText('Token Balance Unavailable').first()).toBeVisible()
  expect(asked).toBe(1)
  const eth = await devnet.getBalance({ address: ADDRESS })
  await expect(frame.getByTestId('account-balance')).toHaveText(`${formatAmount(eth, 18, 3)} ETH`)
  await page.unroute(`${API}/v1?**`)
  await page.unroute(`${API}/v1/account/*/balance**`)
  const answered: number[] = []
  page.on('response', (response) => {
    if (/\/v1\/account\/[^/]+\/balance/.test(response.url())) answered.push(response.status())
  })
  // The modal stamps the failure after the request failed (so at failedAt or later): paused at
  // failedAt + 29 s, less than 30 s have passed for it, however long the steps above took.
  await page.clock.pauseAt(failedAt + 29_000)
  await frame.getByRole('tab', { name: 'NFTs' }).click()
  await frame.getByRole('tab', { name: 'Tokens' }).click()
  await page.waitForTimeout(300)
  expect(answered).toEqual([]) // within 30 s of the failure nothing is asked
  await page.clock.fastForward('00:02')
  await expect(frame.getByTestId('tokens')).toContainText('ETH')
  expect(answered).toEqual([200])
})

test('network switching: same network does nothing; no account in the namespace → SwitchActiveChain; a switch updates tokens and SWITCH_NETWORK is tracked', async ({
  page,
}) => {
  const events = analyticsEvents(page)
  await page.addInitScript(devWalletScript({ mode: 'approve', privateKey: KEY }))
  // The demo page also configuring Solana, where the visitor has no account.
  await page.goto(
    `${DEMO_URL}/?networks=eip155:31337,eip155:31338,solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`,
  )
  await waitForPorthole(page)
  await connectThroughModal(page)

  // The active network again: nothing opens, nothing changes.
  await page.evaluate(`porthole.switchNetwork('eip155:31337')`)
  expect(await state(page)).toMatchObject({ open: false, caipNetworkId: 'eip155:31337' })

  await page.evaluate(`porthole.open({ view: 'Networks' })`)
  const frame = modal(page)
  await frame.getByRole('button', { name: 'Solana' }).click()
  await expect(frame.getByRole('button', { name: 'Continue' })).toBeVisible()
  await expect(frame.getByRole('heading', { level: 3 })).toContainText('solana')
  expect((await state(page)).caipNetworkId).toBe('eip155:31337')

  await page.evaluate(`porthole.open({ view: 'Networks' })`)
  await frame.getByRole('button', { name: 'Porthole Devnet B' }).click()
  await expect.poll(async () => (await state(page)).caipNetworkId).toBe('eip155:31338')
  await page.evaluate('porthole.open()')
  const eth = await createPublicClient({ transport: http(DEVNET_B_RPC) }).getBalance({
    address: ADDRESS,
  })
  await expect(frame.getByTestId('tokens')).toContainText(`${formatAmount(eth, 18, 3)} ETH`)
  await expect.poll(() => events).toContain('SWITCH_NETWORK')
})

test('with the embedded wallet, a switch chosen in the modal asks for confirmation first', async ({
  page,
}) => {
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  await emailLogin(page, freshEmail('switch'))
  await page.evaluate(`porthole.open({ view: 'Networks' })`)
  const frame = modal(page)
  await frame.getByRole('button', { name: 'Porthole Devnet B' }).click()
  await expect(frame.getByRole('heading', { name: 'Switch to Porthole Devnet B?' })).toBeVisible()
  expect((await state(page)).caipNetworkId).toBe('eip155:31337')
  await frame.getByRole('button', { name: 'Switch', exact: true }).click()
  await expect.poll(async () => (await state(page)).caipNetworkId).toBe('eip155:31338')
  await expect(frame.getByTestId('account-address')).toBeVisible()
})

test("analytics answering 403 shows 'Invalid App Configuration' once, and no event is sent after it", async ({
  page,
}) => {
  let asked = 0
  await page.route(`${API}/getAnalyticsConfig**`, (route) => {
    asked++
    return route.fulfill({
      status: 403,
      contentType: 'application/json',
      body: JSON.stringify({ code: 'INVALID_PROJECT_ID', message: 'Invalid Project ID' }),
    })
  })
  const events = analyticsEvents(page)
  await openAccount(page)
  const frame = modal(page)
  const toast = frame.getByText('Invalid App Configuration')
  await page.evaluate(`porthole.switchNetwork('eip155:31338')`)
  await expect(toast).toBeVisible()
  await expect(toast).toBeHidden({ timeout: 5_000 })
  await page.evaluate(`porthole.switchNetwork('eip155:31337')`)
  await page.waitForTimeout(1_000)
  await expect(toast).toBeHidden()
  expect(asked).toBe(1)
  expect(events).toEqual([])
})
