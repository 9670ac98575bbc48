/**
 * Issue 27 items 2 and 5, in Chromium against the local stack: the project's `multiWallet`
 * switch (spec §9, default off) decides whether a second wallet may join a namespace; Connected
 * wallets keeps a disconnected connection and reopens its login flow (spec §4 "Switching
 * connections"); `enableReconnect: false` starts every page load disconnected (spec §4
 * "Connection status").
 *
 * The second EVM wallet is a minimal EIP-6963 wallet of its own (below), so each test can count
 * what it was asked: a refused connection must not reach it, and a page load with reconnect off
 * must not ask it for its accounts.
 */
import type { Page } from '@playwright/test'
import { SOLANA_LOCALNET_CAIP, SOLANA_TEST_ACCOUNTS } from '@porthole/shared'
import { expectAccessible } from '../support/axe.js'
import { admin, emailLogin, freshEmail, waitForCode } from '../support/embedded.js'
import {
  connectThroughModal,
  DEMO_URL,
  devWalletScript,
  expect,
  modal,
  OTHER_ADDRESS,
  solanaDevWalletScript,
  state,
  test,
  URLS,
  WALLET_ADDRESS,
  waitForPorthole,
} from '../support/fixtures.js'
import { startHostPage } from '../support/hostPage.js'

const NOT_ENABLED = /^Multi-wallet support is not enabled/
const SECOND = 'Second Test Wallet'
/** Host pages on this stack's own ports (the demo's port plus a few), so stacks side by side do not collide. */
const port = (n: number) => Number(new URL(DEMO_URL).port) + 170 + n

type Porthole = {
  connect(o?: { namespace?: string; wallet?: string }): Promise<{ address: string }>
  open(o?: { view?: string }): Promise<void>
  wallets(): Promise<{ id: string; name: string }[]>
  subscribe(listener: (s: { status: string }) => void): () => void
}
type W = Window & {
  porthole: Porthole
  secondWallet: { requests: string[] }
  statuses: string[]
}

/**
 * A second EVM browser wallet (EIP-6963, anvil account 1): it grants its account to
 * `eth_requestAccounts`, remembers that for the tab (as extensions do), and records every method
 * it is asked.
 */
const SECOND_WALLET = `if (window.top === window) {
  const address = '${OTHER_ADDRESS}'
  const wallet = (window.secondWallet = { requests: [] })
  let permitted = sessionStorage.getItem('second-wallet') === '1'
  const provider = {
    async request({ method }) {
      wallet.requests.push(method)
      if (method === 'eth_requestAccounts') {
        permitted = true
        sessionStorage.setItem('second-wallet', '1')
        return [address]
      }
      if (method === 'eth_accounts') return permitted ? [address] : []
      if (method === 'eth_chainId') return '0x7a69'
      if (method === 'wallet_revokePermissions') {
        permitted = false
        sessionStorage.removeItem('second-wallet')
        return null
      }
      throw Object.assign(new Error('Unsupported method'), { code: 4200 })
    },
    on() { return provider },
    removeListener() { return provider },
  }
  const info = Object.freeze({
    uuid: crypto.randomUUID(),
    name: '${SECOND}',
    icon: "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 8 8'><rect width='8' height='8' fill='teal'/></svg>",
    rdns: 'dev.porthole.second',
  })
  const announce = () =>
    dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }))
  addEventListener('eip6963:requestProvider', announce)
  announce()
}`

/** Records every status the page's `porthole` reports, from its first state on. */
const RECORD_STATUSES = `addEventListener('DOMContentLoaded', () => {
  if (!window.porthole) return
  window.statuses = [window.porthole.getState().status]
  window.porthole.subscribe((s) => window.statuses.push(s.status))
})`

function hostHtml(projectId: string, attributes = '') {
  return `<!doctype html><html><head><title>Multi-wallet host</title>
<script src="${URLS.modal}/sdk.js" data-project-id="${projectId}" data-networks="eip155:31337,${SOLANA_LOCALNET_CAIP}" ${attributes}></script></head>
<body><h1>Multi-wallet host</h1></body></html>`
}

async function load(page: Page, url: string) {
  await page.addInitScript(devWalletScript())
  await page.addInitScript(SECOND_WALLET)
  await page.addInitScript(solanaDevWalletScript())
  await page.addInitScript(RECORD_STATUSES)
  await page.goto(url)
  await waitForPorthole(page)
}

const secondAsked = (page: Page) =>
  page.evaluate(() => (window as unknown as W).secondWallet.requests)
const connections = async (page: Page) =>
  ((await state(page)).connections as { connectorId: string; namespace: string; address: string }[])
    .map((c) => `${c.namespace}:${c.address}`)
    .sort()

/** Connect (through the modal, as a visitor already connected reaches it), then the second wallet. */
async function chooseSecondWallet(page: Page) {
  await page.evaluate(() => (window as unknown as W).porthole.open({ view: 'Connect' }))
  await modal(page).getByRole('button', { name: SECOND }).click()
}

test('multi-wallet off (a new project): a second EVM wallet is refused before it is asked; a Solana wallet still joins; on, it connects', async ({
  page,
}) => {
  const origin = `http://localhost:${port(1)}`
  const created = admin('project', 'create', '--origin', origin, '--name', 'e2e multi-wallet')
  const projectId = created.trim().split('\n').at(-1) as string
  const host = await startHostPage(port(1), null, 'localhost', hostHtml(projectId))
  try {
    await load(page, host.url)
    expect(await connectThroughModal(page)).toMatchObject({ address: WALLET_ADDRESS })

    // Headless: connect({ wallet }) rejects with the spec's error.
    const id = await page.evaluate(
      async (name) =>
        (await (window as unknown as W).porthole.wallets()).find((w) => w.name === name)?.id,
      SECOND,
    )
    expect(id).toBeTruthy()
    const refused = await page.evaluate(
      (wallet) =>
        (window as unknown as W).porthole.connect({ wallet }).then(
          () => null,
          (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
        ),
      id as string,
    )
    expect(refused).toMatchObject({ code: 4200, message: expect.stringMatching(NOT_ENABLED) })

    // In the modal: the same error where the wallet would have asked.
    await chooseSecondWallet(page)
    await expect(modal(page).getByText(NOT_ENABLED)).toBeVisible()
    // The wallet was never asked, and the first connection is untouched.
    expect(await secondAsked(page)).not.toContain('eth_requestAccounts')
    expect(await connections(page)).toEqual([`eip155:${WALLET_ADDRESS}`])
    expect(await state(page)).toMatchObject({ status: 'connected', address: WALLET_ADDRESS })

    // Another namespace is not a second wallet of the same one: Solana joins (multichain).
    const solana = page.evaluate(() =>
      (window as unknown as W).porthole.connect({ namespace: 'solana' }),
    )
    await modal(page).getByRole('button', { name: 'Porthole Solana Dev Wallet' }).click()
    await solana
    expect(await connections(page)).toEqual(
      [`eip155:${WALLET_ADDRESS}`, `solana:${SOLANA_TEST_ACCOUNTS[0].address}`].sort(),
    )

    // The operator turns multi-wallet on: the next page load lets the second wallet join.
    admin('project', 'feature', projectId, 'multiWallet', 'on')
    await expect(async () => {
      await page.reload()
      await waitForPorthole(page)
      await expect.poll(() => connections(page), { timeout: 3000 }).toHaveLength(2)
      await chooseSecondWallet(page)
      await expect
        .poll(() => connections(page), { timeout: 3000 })
        .toContain(`eip155:${OTHER_ADDRESS}`)
    }).toPass({ timeout: 30_000 })
    expect(await state(page)).toMatchObject({ status: 'connected', address: OTHER_ADDRESS })
    expect(await connections(page)).toHaveLength(3)
  } finally {
    await host.close()
  }
})

test('multi-wallet on (the demo project): a second EVM wallet connects beside the first and becomes active', async ({
  page,
}) => {
  await load(page, DEMO_URL)
  await connectThroughModal(page)
  await chooseSecondWallet(page)
  await expect.poll(async () => (await state(page)).address).toBe(OTHER_ADDRESS)
  expect(await connections(page)).toEqual(
    [`eip155:${WALLET_ADDRESS}`, `eip155:${OTHER_ADDRESS}`].sort(),
  )
})

test('Connected wallets keeps a disconnected wallet; choosing it reopens its login and comes back', async ({
  page,
}) => {
  await load(page, DEMO_URL)
  await connectThroughModal(page)
  await chooseSecondWallet(page)
  await expect.poll(() => connections(page)).toHaveLength(2)

  await page.evaluate(() => (window as unknown as W).porthole.open())
  const frame = modal(page)
  await frame.getByTestId('open-profile-wallets').click()
  await frame.getByRole('button', { name: `Disconnect ${SECOND} (EVM)` }).click()
  await expect.poll(() => connections(page)).toEqual([`eip155:${WALLET_ADDRESS}`])
  const disconnected = frame.getByTestId('disconnected-wallets')
  await expect(
    disconnected.getByRole('button', { name: `Reconnect ${SECOND} (EVM)` }),
  ).toBeVisible()

  await expectAccessible(page, 'ProfileWallets with a disconnected wallet')

  const asked = (await secondAsked(page)).filter((m) => m === 'eth_requestAccounts').length
  await disconnected.getByRole('button', { name: `Reconnect ${SECOND} (EVM)` }).click()
  // The wallet asks again (its login flow), then the modal is back on Connected wallets.
  await expect(frame.getByTestId('profile-wallets')).toBeVisible()
  await expect(frame.getByTestId('disconnected-wallets')).toHaveCount(0)
  await expect(
    frame.getByTestId('profile-wallets').getByRole('button', { name: /^Use / }),
  ).toHaveCount(2)
  expect((await secondAsked(page)).filter((m) => m === 'eth_requestAccounts')).toHaveLength(
    asked + 1,
  )
  expect(await state(page)).toMatchObject({ status: 'connected', address: OTHER_ADDRESS })
})

test('an e-mail sign-in disconnected in Connected wallets reopens the e-mail login and comes back there', async ({
  page,
}) => {
  await load(page, DEMO_URL)
  const email = freshEmail('reopen')
  const address = await emailLogin(page, email)
  const firstCodeAt = Date.now()
  // A browser wallet beside it (the demo project has multi-wallet on).
  await page.evaluate(() => (window as unknown as W).porthole.open({ view: 'Connect' }))
  await modal(page).getByRole('button', { name: 'Porthole Dev Wallet' }).click()
  await expect.poll(async () => (await state(page)).address).toBe(WALLET_ADDRESS)

  await page.evaluate(() => (window as unknown as W).porthole.open())
  const frame = modal(page)
  await frame.getByTestId('open-profile-wallets').click()
  await frame.getByRole('button', { name: 'Disconnect Email (EVM)' }).click()
  const reopen = frame
    .getByTestId('disconnected-wallets')
    .getByRole('button', { name: 'Reconnect Email (EVM)' })
  await expect(reopen).toBeVisible()
  expect(await connections(page)).toEqual([`eip155:${WALLET_ADDRESS}`])

  // The e-mail login again: the spec's 30 s between two codes for one address first.
  await page.waitForTimeout(Math.max(0, firstCodeAt + 31_000 - Date.now()))
  await reopen.click()
  const field = frame.getByRole('textbox', { name: 'Email' })
  await field.fill(email)
  await field.press('Enter')
  await frame.getByRole('textbox', { name: 'Verification code' }).fill(await waitForCode(email, 2))
  await expect(frame.getByTestId('profile-wallets')).toBeVisible()
  await expect(
    frame.getByTestId('profile-wallets').getByRole('button', { name: /^Use Email/ }),
  ).not.toHaveCount(0)
  await expect.poll(() => connections(page)).toContain(`eip155:${address}`)
  expect(await state(page)).toMatchObject({ status: 'connected', address })
})

test('enableReconnect false: a reload starts disconnected and asks no wallet; the connection is listed as disconnected and reopens', async ({
  page,
}) => {
  const origin = `http://localhost:${port(2)}`
  admin('project', 'allow', 'porthole-demo', origin)
  const host = await startHostPage(
    port(2),
    null,
    'localhost',
    hostHtml('porthole-demo', 'data-enable-reconnect="false"'),
  )
  try {
    await load(page, host.url)
    await chooseSecondWallet(page)
    await expect.poll(async () => (await state(page)).address).toBe(OTHER_ADDRESS)

    await page.reload()
    await waitForPorthole(page)
    // The modal's handshake is done (it answers wallets()), and nothing comes back: an injected
    // restore would have asked the wallet within 2 s (it waits that long for its announcement).
    await page.evaluate(() => (window as unknown as W).porthole.wallets())
    await page.waitForTimeout(2500)
    expect(await page.evaluate(() => (window as unknown as W).statuses)).not.toContain('connecting')
    expect(await state(page)).toMatchObject({ status: 'disconnected' })
    expect(await secondAsked(page)).toEqual([])

    // Connected again with another wallet: the old connection is listed, disconnected, and reopens.
    await connectThroughModal(page)
    await page.evaluate(() => (window as unknown as W).porthole.open())
    const frame = modal(page)
    await frame.getByTestId('open-profile-wallets').click()
    await frame
      .getByTestId('disconnected-wallets')
      .getByRole('button', { name: `Reconnect ${SECOND} (EVM)` })
      .click()
    await expect(
      frame.getByTestId('profile-wallets').getByRole('button', { name: /^Use / }),
    ).toHaveCount(2)
    expect(await connections(page)).toEqual(
      [`eip155:${WALLET_ADDRESS}`, `eip155:${OTHER_ADDRESS}`].sort(),
    )
  } finally {
    admin('project', 'deny', 'porthole-demo', origin)
    await host.close()
  }
})
