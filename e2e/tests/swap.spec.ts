/**
 * Issue 14, swap: a browser wallet swaps ETH → pUSD (no approval) and pUSD → PRT (approve, then
 * swap) on the devnet's Uniswap V2 pools, and the balances the modal shows are the chain's; a
 * network outside the swap list shows the spec's error; a trade that moves the price past the
 * 1 % slippage between the quote and the wallet's confirmation is refused with a clear message,
 * and nothing leaves the account.
 */
import type { Page } from '@playwright/test'
import { DEVNET_AMM, DEVNET_TOKENS, formatAmount } from '@porthole/shared'
import {
  type Address,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseAbi,
  parseEther,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { API_URL, emailLogin, freshEmail, walletFrame } from '../support/embedded.js'
import {
  connectThroughModal,
  DEMO_URL,
  DEVNET_RPC,
  devnet,
  devWalletScript,
  expect,
  modal,
  state,
  test,
  waitForPorthole,
} from '../support/fixtures.js'

const [PUSD, PRT] = DEVNET_TOKENS

type W = { porthole: { open(o?: unknown): void; switchNetwork(id: string): Promise<void> } }

/** A fresh account with `eth` ETH on the devnet (and nothing else). */
async function fundedKey(eth: string): Promise<{ key: Hex; address: Address }> {
  const key = generatePrivateKey()
  const { address } = privateKeyToAccount(key)
  await devnet.request({
    method: 'anvil_setBalance' as never,
    params: [address, toHex(parseEther(eth))] as never,
  })
  return { key, address }
}

const tokenBalance = (token: Address, owner: Address) =>
  devnet.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

/** The demo with the dev wallet holding `key`, connected through the modal. */
async function connectedDapp(page: Page, key: Hex, mode = 'approve', query = ''): Promise<void> {
  await page.addInitScript(devWalletScript({ mode, privateKey: key }))
  await page.goto(`${DEMO_URL}/${query}`)
  await waitForPorthole(page)
  await connectThroughModal(page)
  await expect.poll(() => state(page)).toMatchObject({ status: 'connected' })
}

/** Opens Account and its Swap view. */
async function openSwap(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as W).porthole.open())
  await modal(page).getByRole('button', { name: 'Swap', exact: true }).click()
  await expect(modal(page).getByRole('dialog', { name: 'Swap' })).toBeVisible()
}

/** Chooses a side's token from the token list by its name. */
async function chooseToken(page: Page, side: 'from' | 'to', name: string): Promise<void> {
  const frame = modal(page)
  await frame.getByTestId(`swap-${side}-token`).click()
  await frame
    .getByTestId('swap-token-list')
    .getByRole('button', { name: new RegExp(name) })
    .click()
  await expect(frame.getByTestId(`swap-${side}-token`)).not.toContainText('Select token')
}

/** Types the amount, waits for the quote and opens the preview. */
async function review(page: Page, amount: string): Promise<void> {
  const frame = modal(page)
  await frame.getByLabel('You pay').fill(amount)
  await expect(frame.getByTestId('swap-rate')).toBeVisible()
  await frame.getByRole('button', { name: 'Review swap' }).click()
  await expect(frame.getByTestId('swap-preview')).toBeVisible()
}

test("ETH → pUSD without approval, then pUSD → PRT with one; the balances are the chain's", async ({
  page,
}) => {
  const { key, address } = await fundedKey('10')
  await connectedDapp(page, key)
  const frame = modal(page)

  // ETH → pUSD: the native token needs no approval.
  await openSwap(page)
  await expect(frame.getByTestId('swap-from-token')).toContainText('ETH')
  await chooseToken(page, 'to', 'Porthole USD')
  await review(page, '0.5')
  const minimum = await frame.getByTestId('swap-minimum').innerText()
  await expect(frame.getByTestId('swap-approve')).toHaveCount(0)
  await frame.getByTestId('swap-confirm').click()
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
  await expect(frame.getByRole('status').getByText(/^Swapped 0\.5 ETH for /)).toBeVisible()
  const pusd = await tokenBalance(PUSD.address, address)
  expect(pusd).toBeGreaterThanOrEqual(BigInt(Math.floor(Number(minimum.split(' ')[0]) * 1e6)))
  // About 0.5 × 3000 less the pool fee and price impact.
  expect(Number(pusd) / 1e6).toBeGreaterThan(1400)
  expect(Number(pusd) / 1e6).toBeLessThan(1500)
  expect(await devnet.getBalance({ address })).toBeLessThan(parseEther('9.5'))
  await expect(frame.getByTestId('tokens')).toContainText(formatAmount(pusd, 6, 3))

  // pUSD → PRT: approve exactly the amount first, then swap.
  await frame.getByRole('button', { name: 'Swap', exact: true }).click()
  await chooseToken(page, 'from', 'Porthole USD')
  await chooseToken(page, 'to', 'Porthole Token')
  await review(page, '100')
  await expect(frame.getByTestId('swap-confirm')).toHaveCount(0)
  await frame.getByTestId('swap-approve').click()
  await expect(frame.getByTestId('swap-confirm')).toBeVisible({ timeout: 20_000 })
  const router = DEVNET_AMM.router as Address
  expect(
    await devnet.readContract({
      address: PUSD.address,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [address, router],
    }),
  ).toBe(100_000_000n)
  await frame.getByTestId('swap-confirm').click()
  await expect(frame.getByRole('status').getByText(/^Swapped 100 pUSD for /)).toBeVisible()
  expect(await tokenBalance(PUSD.address, address)).toBe(pusd - 100_000_000n)
  const prt = await tokenBalance(PRT.address, address)
  // 100 pUSD at 0.25 USD per PRT: about 400 PRT.
  expect(Number(prt) / 1e18).toBeGreaterThan(390)
  expect(Number(prt) / 1e18).toBeLessThan(400)
  await expect(frame.getByTestId('tokens')).toContainText(formatAmount(prt, 18, 3))
  await expect(frame.getByTestId('tokens')).toContainText(formatAmount(pusd - 100_000_000n, 6, 3))
})

test("a network outside the swap list shows 'Network not supported for Swaps'", async ({
  page,
}) => {
  const { key } = await fundedKey('1')
  await connectedDapp(page, key, 'approve', '?networks=eip155:31337,eip155:11155111')
  await page.evaluate(() => (window as unknown as W).porthole.switchNetwork('eip155:11155111'))
  await expect.poll(() => state(page)).toMatchObject({ caipNetworkId: 'eip155:11155111' })
  await openSwap(page)
  await expect(modal(page).getByTestId('swap-error')).toHaveText('Network not supported for Swaps')
})

// FIXME (issue 14, open): passes alone and passed in clean-clone runs 2–4, but in runs 5 and 6 of
// the full suite the user's swap was sent after the whale's front-run had landed (no refusal
// shown). Kept, marked, until the cause is found: see the session 6 note.
test('a front-run past the 1 % slippage is refused before anything is sent', async ({ page }) => {
  const { key, address } = await fundedKey('5')
  const whale = await fundedKey('1000')
  const whaleWallet = createWalletClient({
    account: privateKeyToAccount(whale.key),
    transport: http(DEVNET_RPC),
  })
  // The dev wallet asks through window.confirm: the swap's prompt is where the test front-runs.
  let frontRun = false
  let frontRunFailed: unknown
  page.on('dialog', async (dialog) => {
    if (
      dialog.message().toLowerCase().includes(`to ${DEVNET_AMM.router.toLowerCase()}`) &&
      !frontRun
    ) {
      frontRun = true
      // The chain's clock, not this machine's, sets the deadline.
      const { timestamp } = await devnet.getBlock()
      const hash = await whaleWallet.writeContract({
        chain: null,
        address: DEVNET_AMM.router as Address,
        abi: parseAbi([
          'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[])',
        ]),
        functionName: 'swapExactETHForTokens',
        args: [0n, [DEVNET_AMM.weth as Address, PUSD.address], whale.address, timestamp + 600n],
        value: parseEther('200'),
      })
      const receipt = await devnet.waitForTransactionReceipt({ hash })
      if (receipt.status !== 'success') frontRunFailed = new Error('The front-run reverted')
    }
    await dialog.accept()
  })
  await connectedDapp(page, key, 'prompt')
  await openSwap(page)
  await chooseToken(page, 'to', 'Porthole USD')
  await review(page, '1')
  await modal(page).getByTestId('swap-confirm').click()
  await expect.poll(() => frontRun, { timeout: 20_000 }).toBe(true)
  expect(frontRunFailed).toBeUndefined()
  await expect(modal(page).getByTestId('swap-error')).toHaveText(
    'The price moved more than the 1% slippage tolerance, so nothing was swapped. Get a new quote and try again.',
    { timeout: 20_000 },
  )
  // Nothing left the account: no transaction, the ETH untouched, no pUSD.
  expect(await devnet.getTransactionCount({ address })).toBe(0)
  expect(await devnet.getBalance({ address })).toBe(parseEther('5'))
  expect(await tokenBalance(PUSD.address, address)).toBe(0n)
  // The amounts stay for another try.
  await expect(modal(page).getByTestId('swap-preview')).toBeVisible()
})

test("an e-mail wallet swaps ETH → pUSD, approved in the wallet frame; the quote carries the network's gas price and the preview prices its fee with it", async ({
  page,
}) => {
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  const address = (await emailLogin(page, freshEmail('swap'))) as Address
  await devnet.request({
    method: 'anvil_setBalance' as never,
    params: [address, toHex(parseEther('2'))] as never,
  })
  // The balance read at login is cached, in the modal for 30 s (spec §9: a reload drops it) and
  // in the API for 5 s: wait until the API answers the new one, then reload.
  const query = 'projectId=porthole-demo&st=porthole&sv=0.1.0'
  await expect
    .poll(
      async () => {
        const answer = (await (
          await fetch(
            `${API_URL}/v1/account/${address}/balance?currency=usd&chainId=eip155:31337&${query}`,
          )
        ).json()) as { balances?: { symbol: string; quantity: { numeric: string } }[] }
        return Number(answer.balances?.find((b) => b.symbol === 'ETH')?.quantity.numeric)
      },
      { timeout: 15_000 },
    )
    .toBe(2)
  await page.reload()
  await waitForPorthole(page)
  await expect.poll(() => state(page)).toMatchObject({ status: 'connected', address })
  const frame = modal(page)

  // What the API says the network's gas costs (spec §7's endpoint).
  const gas = (await (
    await fetch(`${API_URL}/v1/convert/gas-price?chainId=eip155:31337&${query}`)
  ).json()) as { standard: string }
  const quotes: URL[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname === '/v1/convert/quotes') quotes.push(url)
  })

  await openSwap(page)
  await expect(frame.getByTestId('swap-from-token')).toContainText('ETH')
  await chooseToken(page, 'to', 'Porthole USD')
  await review(page, '0.5')
  expect(quotes.length).toBeGreaterThan(0)
  for (const url of quotes) expect(url.searchParams.get('gasPrice')).toBe(gas.standard)
  await expect(frame.getByTestId('swap-network-fee')).toHaveText(/^\$\d/)
  const minimum = Number((await frame.getByTestId('swap-minimum').innerText()).split(' ')[0])

  await frame.getByTestId('swap-confirm').click()
  const card = walletFrame(page).getByRole('dialog', { name: 'Send transaction' })
  await expect(card).toContainText('0.5 ETH')
  await card.getByRole('button', { name: 'Approve' }).click()
  await expect(frame.getByRole('status').getByText(/^Swapped 0\.5 ETH for /)).toBeVisible({
    timeout: 30_000,
  })
  // At least the minimum the preview promised, in the smart account (the pool's price depends on
  // the trades of the tests before).
  const pusd = Number(await tokenBalance(PUSD.address, address)) / 1e6
  expect(minimum).toBeGreaterThan(0)
  expect(pusd).toBeGreaterThanOrEqual(minimum)
  expect(await devnet.getBalance({ address })).toBe(parseEther('1.5'))
})
