/**
 * Issue 13, names: an embedded user registers a name in the modal (signed on the wallet frame's
 * card), the Account view shows it after a reload, a browser wallet sends to that name through
 * the Send view and the ETH lands at the embedded address on the devnet; invalid and taken names
 * give their errors, in the modal and from the API; a key that is no embedded account of the
 * project registers nothing (issue 25 audit).
 */
import type { Browser, Page } from '@playwright/test'
import { evmCoinType, nameMessage } from '@porthole/shared'
import { parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { API_URL, emailLogin, freshEmail, walletFrame } from '../support/embedded.js'
import {
  connectThroughModal,
  DEMO_URL,
  devnet,
  devWalletScript,
  expect,
  modal,
  state,
  test,
  URLS,
  waitForPorthole,
} from '../support/fixtures.js'

/** anvil account 4: the browser wallet that sends to the name. */
const SENDER_KEY = '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a'
const COIN_TYPE = evmCoinType(31337)
const SUFFIX = '.porthole.id'
const PROJECT_QUERY = 'projectId=porthole-demo&st=e2e&sv=e2e'

/** A label no run has used: letters, digits and hyphens. */
function freshLabel(tag: string): string {
  return `${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
}

/** A new browser context (a new visitor) on the demo page, without a browser wallet. */
async function visitor(browser: Browser): Promise<Page> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  return page
}

/** Opens the modal on Account and goes to RegisterAccountName from its row. */
async function openRegisterName(page: Page): Promise<void> {
  await page.evaluate('window.porthole.open()')
  const frame = modal(page)
  await frame.getByRole('button', { name: 'Choose a name' }).click()
  await expect(frame.getByRole('heading', { name: 'Choose a name' })).toBeVisible()
}

/** The API's answer for a name (resolve, apiVersion 2). */
async function resolveName(name: string) {
  const response = await fetch(
    `${API_URL}/v1/profile/account/${encodeURIComponent(name)}?apiVersion=2&${PROJECT_QUERY}`,
  )
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** POSTs a registration signed with a throwaway key (as anyone may call the API: a stranger). */
async function registerThroughApi(name: string) {
  const account = privateKeyToAccount(generatePrivateKey())
  const message = nameMessage({ name, timestamp: Math.floor(Date.now() / 1000) })
  const response = await fetch(`${API_URL}/v1/profile/account?${PROJECT_QUERY}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: URLS.modal },
    body: JSON.stringify({
      coin_type: COIN_TYPE,
      address: account.address,
      message,
      signature: await account.signMessage({ message }),
    }),
  })
  const body = (await response.json()) as { reasons?: { description: string }[] }
  return { status: response.status, reason: body.reasons?.[0]?.description }
}

test('an embedded user registers a name, sees it after a reload, and a browser wallet sends ETH to it', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  // The embedded user.
  const owner = await visitor(browser)
  const address = await emailLogin(owner, freshEmail('names'))
  const label = freshLabel('ph')
  const name = `${label}${SUFFIX}`
  await openRegisterName(owner)
  const frame = modal(owner)
  await frame.getByRole('textbox', { name: 'Name' }).fill(label)
  // The registry answers as the user types: the full name, free.
  await expect(frame.getByTestId('name-full')).toHaveText(name)
  await expect(frame.getByTestId('register-name')).toContainText('Available')
  await frame.getByRole('button', { name: 'Register name' }).click()
  // The wallet frame's own card shows the exact message; Approve signs it.
  const card = walletFrame(owner).getByRole('dialog', { name: 'Sign message' })
  await expect(card).toContainText(`"name":"${name}"`)
  await expect(card).toContainText('"attributes":{}')
  await card.getByRole('button', { name: 'Approve' }).click()
  await expect(frame.getByTestId('register-name-success')).toContainText(name)
  await frame.getByRole('button', { name: 'Back to account' }).click()
  await expect(frame.getByTestId('account-name')).toHaveText(name)
  // The registry has it: resolve gives the embedded address for the devnet's coin type.
  const resolved = await resolveName(name)
  expect(resolved.status).toBe(200)
  expect(resolved.body.addresses).toMatchObject({ [String(COIN_TYPE)]: { address } })

  // After a reload the Account view shows it again (from /v1/identity, not the modal's memory).
  await owner.reload()
  await waitForPorthole(owner)
  await expect.poll(async () => (await state(owner)).status, { timeout: 20_000 }).toBe('connected')
  await owner.evaluate('window.porthole.open()')
  await expect(modal(owner).getByTestId('account-name')).toHaveText(name)
  await expect(modal(owner).getByRole('button', { name: 'Choose a name' })).toHaveCount(0)

  // A second account — the dev wallet in another visitor's browser — sends 0.01 ETH to the name.
  const sender = privateKeyToAccount(SENDER_KEY)
  await page.addInitScript(devWalletScript({ mode: 'approve', privateKey: SENDER_KEY }))
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  const connected = (await connectThroughModal(page)) as { address: string }
  expect(connected.address).toBe(sender.address)
  await page.evaluate('window.porthole.open()')
  const send = modal(page)
  await send.getByRole('button', { name: 'Send' }).click()
  await send.getByTestId('send-token').click()
  await send
    .getByRole('button', { name: /\bETH\b/ })
    .first()
    .click()
  await send.getByRole('textbox', { name: 'Amount' }).fill('0.01')
  await send.getByRole('textbox', { name: 'Receiver address' }).fill(name)
  await send.getByRole('button', { name: 'Preview send' }).click()
  // The preview shows the name, the address it resolved to, and an avatar.
  const receiver = send.getByTestId('send-receiver')
  await expect(receiver.getByTestId('send-receiver-name')).toHaveText(name)
  await expect(receiver).toHaveAttribute('title', address)
  await expect(receiver).toContainText(`${address.slice(0, 4)}…${address.slice(-6)}`)
  await expect(receiver.locator('.ph-avatar, img')).toHaveCount(1)
  const before = await devnet.getBalance({ address: address as `0x${string}` })
  await send.getByRole('button', { name: 'Send', exact: true }).click()
  await expect
    .poll(() => devnet.getBalance({ address: address as `0x${string}` }), { timeout: 20_000 })
    .toBe(before + parseEther('0.01'))
  await owner.context().close()
})

test('invalid and taken names: the modal says why as they are typed, the API refuses them with reasons, a refused signature returns to the form', async ({
  browser,
}) => {
  test.setTimeout(150_000)
  // A name someone already has: another embedded user registered it in the modal.
  const takenLabel = freshLabel('taken')
  const taken = `${takenLabel}${SUFFIX}`
  const first = await visitor(browser)
  await emailLogin(first, freshEmail('first'))
  await openRegisterName(first)
  await modal(first).getByRole('textbox', { name: 'Name' }).fill(takenLabel)
  await expect(modal(first).getByTestId('name-full')).toHaveText(taken)
  await modal(first).getByRole('button', { name: 'Register name' }).click()
  await walletFrame(first).getByRole('button', { name: 'Approve' }).click()
  await expect(modal(first).getByTestId('register-name-success')).toContainText(taken)
  await first.context().close()
  // The API: a key that is no account of the project's embedded wallet registers nothing (issue
  // 25 audit: a fresh key registered any free name), and names breaking the rule.
  expect(await registerThroughApi(`${freshLabel('squat')}${SUFFIX}`)).toEqual({
    status: 403,
    reason: "Only an account of this app's embedded wallet can register a name",
  })
  expect(await registerThroughApi(`abc${SUFFIX}`)).toEqual({
    status: 400,
    reason: 'Name must be at least 4 characters long',
  })
  expect(await registerThroughApi(`bad_name${SUFFIX}`)).toEqual({
    status: 400,
    reason: 'Name can only contain letters, digits and hyphens',
  })
  expect(await registerThroughApi(`${takenLabel}.example.eth`)).toEqual({
    status: 400,
    reason: `Name must end with ${SUFFIX}`,
  })

  // The modal: an embedded user without a name.
  const page = await visitor(browser)
  await emailLogin(page, freshEmail('badname'))
  await openRegisterName(page)
  const frame = modal(page)
  const field = frame.getByRole('textbox', { name: 'Name' })
  const error = frame.getByTestId('name-error')
  const register = frame.getByRole('button', { name: 'Register name' })
  await field.fill('abc')
  await expect(error).toHaveText('Name must be at least 4 characters long')
  await expect(register).toBeDisabled()
  await field.fill('bad_name')
  await expect(error).toHaveText('Name can only contain letters, digits and hyphens')
  await expect(register).toBeDisabled()
  await field.fill(takenLabel)
  await expect(error).toHaveText('Name is already taken')
  await expect(frame.getByTestId('register-name')).toContainText('Registered')
  await expect(register).toBeDisabled()
  // Free alternatives are offered.
  await expect(
    frame.getByRole('button', { name: new RegExp(`^${takenLabel}1\\.porthole\\.id`) }),
  ).toBeVisible()

  // A free name, but the signature is refused on the wallet's card: back on the form, with the
  // spec's message, and nothing registered.
  const label = freshLabel('refused')
  const name = `${label}${SUFFIX}`
  await field.fill(label)
  await expect(frame.getByTestId('name-full')).toHaveText(name)
  await register.click()
  await walletFrame(page).getByRole('button', { name: 'Reject' }).click()
  await expect(frame.getByRole('heading', { name: 'Choose a name' })).toBeVisible()
  await expect(frame.getByTestId('name-error')).toHaveText(`Error registering name ${name}`)
  await expect(frame.getByRole('textbox', { name: 'Name' })).toHaveValue(label)
  expect((await resolveName(name)).status).toBe(404)
  await page.context().close()
})
