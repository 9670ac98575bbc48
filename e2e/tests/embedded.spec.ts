import type { Page } from '@playwright/test'
import { ENTRY_POINT_07 } from '@porthole/shared'
import { type Hex, parseEther } from 'viem'
import {
  API_URL,
  connectOutcome,
  emailLogin,
  enterCode,
  freshEmail,
  fund,
  providerRequest,
  signsFor,
  startEmailConnect,
  waitForCode,
  walletFrame,
} from '../support/embedded.js'
import {
  DEMO_URL,
  devnet,
  expect,
  modal,
  OTHER_ADDRESS,
  state,
  test,
  URLS,
  waitForPorthole,
} from '../support/fixtures.js'
import { closePage } from '../support/pages.js'

/** The demo page without any injected wallet. */
async function openDemo(page: Page): Promise<void> {
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
}

test('e-mail login: the code from the mail catcher connects a new wallet; signing is approved in the wallet frame', async ({
  page,
}) => {
  await openDemo(page)
  const email = freshEmail('login')
  const address = await emailLogin(page, email)
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  expect(await state(page)).toMatchObject({
    status: 'connected',
    address,
    connector: { type: 'AUTH' },
  })
  expect(await providerRequest(page, 'eth_accounts')).toEqual({ value: [address] })
  expect(await providerRequest(page, 'eth_chainId')).toEqual({ value: '0x7a69' })

  // wallet_switchEthereumChain: the wallet frame follows, the dapp sees the new chain.
  expect(
    await providerRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0x7a6a' }]),
  ).toEqual({ value: null })
  expect(await providerRequest(page, 'eth_chainId')).toEqual({ value: '0x7a6a' })
  expect(await state(page)).toMatchObject({ caipNetworkId: 'eip155:31338' })
  expect(
    (await providerRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0x999999' }])).error,
  ).toMatchObject({ code: 4902 })
  await providerRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0x7a69' }])
  expect(await providerRequest(page, 'eth_chainId')).toEqual({ value: '0x7a69' })

  // personal_sign: the wallet frame itself shows the message; Approve signs it.
  const message = 'Sign in to the Porthole e2e'
  const signing = providerRequest(page, 'personal_sign', [
    `0x${Buffer.from(message).toString('hex')}`,
    address,
  ])
  const card = walletFrame(page).getByRole('dialog', { name: 'Sign message' })
  await expect(card).toContainText(message)
  await expect(card).toContainText(URLS.demo)
  await card.getByRole('button', { name: 'Approve' }).click()
  const signed = await signing
  expect(await signsFor(address, message, signed.value as Hex)).toBe(true)

  // eth_signTypedData_v4, decoded on the card.
  const typed = {
    domain: { name: 'Porthole', version: '1', chainId: 31337 },
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
      ],
      Mail: [{ name: 'contents', type: 'string' }],
    },
    primaryType: 'Mail',
    message: { contents: 'typed hello' },
  }
  const typedSigning = providerRequest(page, 'eth_signTypedData_v4', [
    address,
    JSON.stringify(typed),
  ])
  const typedCard = walletFrame(page).getByRole('dialog', { name: 'Sign typed data' })
  await expect(typedCard).toContainText('typed hello')
  await typedCard.getByRole('button', { name: 'Approve' }).click()
  expect(
    await devnet.verifyTypedData({
      address: address as Hex,
      domain: typed.domain,
      types: { Mail: typed.types.Mail },
      primaryType: 'Mail',
      message: typed.message,
      signature: (await typedSigning).value as Hex,
    }),
  ).toBe(true)

  // A devnet transaction, approved, mined.
  await fund(address)
  const before = await devnet.getBalance({ address: OTHER_ADDRESS })
  const sending = providerRequest(page, 'eth_sendTransaction', [
    { from: address, to: OTHER_ADDRESS, value: '0x2386f26fc10000' },
  ])
  const txCard = walletFrame(page).getByRole('dialog', { name: 'Send transaction' })
  await expect(txCard).toContainText('0.01 ETH')
  await txCard.getByRole('button', { name: 'Approve' }).click()
  const hash = (await sending).value as Hex
  const receipt = await devnet.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  // The smart account's user operation, in a bundle the bundler sent to the EntryPoint.
  expect(receipt.to?.toLowerCase()).toBe(ENTRY_POINT_07.toLowerCase())
  expect(await devnet.getBalance({ address: OTHER_ADDRESS })).toBe(before + parseEther('0.01'))

  // Rejected in the frame: 4001 reaches the dapp, and no transaction is sent.
  const nonce = await devnet.getTransactionCount({ address: address as Hex })
  const rejected = providerRequest(page, 'eth_sendTransaction', [
    { from: address, to: OTHER_ADDRESS, value: '0x1' },
  ])
  await walletFrame(page).getByRole('button', { name: 'Reject' }).click()
  expect((await rejected).error).toMatchObject({ code: 4001 })
  expect(await devnet.getTransactionCount({ address: address as Hex })).toBe(nonce)

  // Closing the modal while a not-safe request waits aborts it.
  const abandoned = providerRequest(page, 'personal_sign', ['0x6279', address])
  await expect(walletFrame(page).getByRole('dialog', { name: 'Sign message' })).toBeVisible()
  await page.evaluate('window.porthole.close()')
  expect((await abandoned).error).toMatchObject({ code: 4001, message: 'Request was aborted' })

  // A method outside both lists: refused, and the modal (open) says 'Action not allowed'.
  await page.evaluate('window.porthole.open()')
  expect((await providerRequest(page, 'eth_sign', [address, '0x00'])).error).toMatchObject({
    message: 'Requested RPC call is not allowed',
  })
  await expect(modal(page).getByText('Action not allowed')).toBeVisible()
  // A message that is not text cannot be signed: the dapp and the modal both say so.
  expect((await providerRequest(page, 'personal_sign', [42, address])).error).toMatchObject({
    message: 'Error signing message',
  })
  await expect(modal(page).getByText('Error signing message')).toBeVisible()
  await page.evaluate('window.porthole.close()')

  // Reload: the session survives (same address, no code asked).
  await page.reload()
  await waitForPorthole(page)
  await expect.poll(async () => (await state(page)).status, { timeout: 20_000 }).toBe('connected')
  expect((await state(page)).address).toBe(address)
  const again = providerRequest(page, 'personal_sign', ['0x6869', address])
  await walletFrame(page).getByRole('button', { name: 'Approve' }).click()
  expect(await signsFor(address, 'hi', (await again).value as Hex)).toBe(true)

  // Disconnect signs out; connecting again asks for the e-mail.
  await page.evaluate('window.porthole.disconnect()')
  expect(await state(page)).toMatchObject({ status: 'disconnected' })
  await page.reload()
  await waitForPorthole(page)
  expect(await state(page)).toMatchObject({ status: 'disconnected' })
})

test('a wrong code is refused with attempts left, and a second code within 30 s is refused by the server', async ({
  page,
}) => {
  await openDemo(page)
  const email = freshEmail('wrong')
  await startEmailConnect(page, email)
  const code = await waitForCode(email)
  const wrong = code === '000000' ? '111111' : '000000'
  await enterCode(page, wrong)
  await expect(modal(page).getByRole('alert')).toContainText(/code/i)
  // The server enforces the cooldown too, not only the modal.
  const response = await fetch(
    `${API_URL}/auth/v1/email/start?projectId=porthole-demo&st=e2e&sv=e2e`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: URLS.wallet },
      body: JSON.stringify({ email, deviceId: 'e2e-device-0000000000', site: DEMO_URL }),
    },
  )
  expect(response.status).toBe(429)
  // Back to the e-mail form and again: the modal shows the wait.
  await modal(page).getByRole('button', { name: 'Back' }).click()
  const field = modal(page).getByRole('textbox', { name: 'Email' })
  await field.fill(email)
  await field.press('Enter')
  await expect(modal(page).getByText(/Please try again after \d+ seconds/)).toBeVisible()
  // The right code still works after the wrong one.
  expect((await inboxCount(email)) >= 1).toBe(true)
})

async function inboxCount(email: string): Promise<number> {
  const response = await fetch(`${URLS.mail}/messages?to=${encodeURIComponent(email)}`)
  return ((await response.json()) as unknown[]).length
}

test('update e-mail: primary then secondary code, and the Account view shows the new address', async ({
  page,
}) => {
  await openDemo(page)
  const email = freshEmail('old')
  const newEmail = freshEmail('new')
  await emailLogin(page, email)
  await page.evaluate('window.porthole.open()')
  const frame = modal(page)
  await expect(frame.getByText(email)).toBeVisible()
  await frame.getByRole('button', { name: 'Update e-mail' }).click()
  await frame.getByRole('textbox', { name: 'New e-mail' }).fill(newEmail)
  await frame.getByRole('button', { name: 'Continue' }).click()
  await enterCode(page, await waitForCode(email, 2))
  await enterCode(page, await waitForCode(newEmail, 1))
  await expect(frame.getByText(newEmail)).toBeVisible({ timeout: 15_000 })
})

test('social login through the local OpenID provider, for Google and for GitHub', async ({
  page,
}) => {
  for (const [provider, name] of [
    ['google', 'Google'],
    ['github', 'GitHub'],
  ] as const) {
    await openDemo(page)
    await page.evaluate(`window.__connect = window.porthole.connect().then(
      (value) => ({ value }), (error) => ({ error: { code: error.code, message: error.message } })); undefined`)
    const popupOpened = page.waitForEvent('popup')
    await modal(page)
      .getByRole('button', { name: `Continue with ${name}` })
      .click()
    const popup = await popupOpened
    expect(popup.viewportSize()).toMatchObject({ width: 600 })
    const login = `${provider}-${Date.now().toString(36)}@porthole.test`
    await popup.getByLabel('E-mail').fill(login)
    await popup.getByLabel('Username').fill(`${provider}-fan`)
    await popup.getByRole('button', { name: 'Continue' }).click()
    const outcome = await connectOutcome(page)
    expect(outcome.error).toBeUndefined()
    expect(outcome.value?.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(await state(page)).toMatchObject({ status: 'connected', connector: { type: 'AUTH' } })
    await page.evaluate('window.porthole.open()')
    // The Account view names the social account.
    await expect(modal(page).getByText(`${provider}-fan`)).toBeVisible()
    await page.evaluate('window.porthole.disconnect()')
  }
})

test("closing the social popup shows 'Popup closed'", async ({ page }) => {
  await openDemo(page)
  await page.evaluate('window.porthole.open()')
  const popupOpened = page.waitForEvent('popup')
  await modal(page).getByRole('button', { name: 'Continue with GitHub' }).click()
  const popup = await popupOpened
  await closePage(popup)
  await expect(modal(page).getByText('Popup closed')).toBeVisible({ timeout: 5000 })
})

test("the wallet frame not loading gives 'Network Error - Could not load embedded wallet'", async ({
  page,
}) => {
  // The wallet server is unreachable for this page (its requests fail at the network).
  await page.route(`${URLS.wallet}/**`, (route) => route.abort('connectionrefused'))
  await openDemo(page)
  await startEmailConnect(page, freshEmail('down'))
  await expect(modal(page).getByTestId('alert')).toHaveText(
    'Network Error - Could not load embedded wallet',
    { timeout: 30_000 },
  )
  // The e-mail form says so too, and connect() is still waiting for another choice.
  await expect(modal(page).locator('#ph-email-error')).toHaveText(
    'Network Error - Could not load embedded wallet',
  )
})

test('the host page cannot talk to the wallet frame: its hello gets no answer', async ({
  page,
}) => {
  await openDemo(page)
  const email = freshEmail('forge')
  const address = await emailLogin(page, email)
  const answered = await page.evaluate(`new Promise((done) => {
    const wallet = window.frames[0].frames[0]
    const { port1, port2 } = new MessageChannel()
    port1.onmessage = (event) => done(String(event.data))
    const hello = { ns: 'porthole', v: 1, kind: 'hello', nonce: 'forged-nonce-0123456789',
      versions: [1], projectId: 'porthole-demo', metadata: { name: 'evil' } }
    wallet.postMessage(JSON.stringify(hello), '*', [port2])
    setTimeout(() => done(null), 1500)
  })`)
  expect(answered).toBeNull()
  // And the real channel still works.
  const signing = providerRequest(page, 'personal_sign', ['0x6f6b', address])
  await walletFrame(page).getByRole('button', { name: 'Approve' }).click()
  expect(await signsFor(address, 'ok', (await signing).value as Hex)).toBe(true)
})

test('a returning visitor whose session the API ended meanwhile is never shown as connected: the wallet frame names the user only once the API confirms the session', async ({
  page,
}) => {
  // Every state the page sees, from the start of each load.
  await page.addInitScript(() => {
    const seen: string[] = []
    Object.assign(window, { __seen: seen })
    const watch = setInterval(() => {
      const porthole = (window as unknown as { porthole?: PortholeLike }).porthole
      if (!porthole) return
      clearInterval(watch)
      porthole.subscribe((s) => seen.push(s.status))
      seen.push(porthole.getState().status)
    }, 0)
    type PortholeLike = {
      subscribe(listener: (s: { status: string }) => void): void
      getState(): { status: string }
    }
  })
  await openDemo(page)
  const address = await emailLogin(page, freshEmail('ended'))
  // The same reload restores it while the API knows the session.
  await page.reload()
  await waitForPorthole(page)
  await expect.poll(async () => (await state(page)).status, { timeout: 20_000 }).toBe('connected')
  expect((await state(page)).address).toBe(address)
  // The API ends the session (a sign-out from elsewhere), behind the wallet frame's back.
  const wallet = page.frames().find((f) => f.url().startsWith(`${URLS.wallet}/`))
  if (!wallet) throw new Error('The wallet frame is not loaded')
  const status = await wallet.evaluate(
    async (api) =>
      (
        await fetch(`${api}/auth/v1/logout?projectId=porthole-demo&st=porthole-wallet&sv=0.1.0`, {
          method: 'POST',
          credentials: 'include',
        })
      ).status,
    API_URL,
  )
  expect(status).toBe(204)
  await page.reload()
  await waitForPorthole(page)
  await expect
    .poll(async () => (await state(page)).status, { timeout: 20_000 })
    .toBe('disconnected')
  // Settled: no account on the provider, and the page never saw the old connection.
  await page.waitForTimeout(1500)
  expect(await state(page)).toMatchObject({ status: 'disconnected' })
  expect(await providerRequest(page, 'eth_accounts')).toEqual({ value: [] })
  const seen = (await page.evaluate('window.__seen')) as string[]
  console.log(`states after the session ended: ${seen.join(' → ')}`)
  expect(seen).not.toContain('connected')
})
