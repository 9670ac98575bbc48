/**
 * Issue 13, "Receive" and "Configuration and remote features", in Chromium against the local
 * stack: Receive shows a QR code that decodes to the address; `features.email: false` hides the
 * e-mail field; `legalCheckbox` blocks connecting until ticked; a remote feature turned off with
 * the admin CLI disappears from the modal without a change on the host page.
 */
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import type { Page } from '@playwright/test'
import {
  connectThroughModal,
  devWalletScript,
  expect,
  modal,
  state,
  test,
  URLS,
  WALLET_ADDRESS,
  waitForPorthole,
} from '../support/fixtures.js'
import { startHostPage } from '../support/hostPage.js'
import { readQrCode } from '../support/qr.js'

type W = Window & {
  porthole: {
    open(options?: { view?: string }): Promise<void>
    connect(): Promise<{ address: string }>
    switchNetwork(id: string): Promise<void>
  }
}
const ROOT = resolve(import.meta.dirname, '../..')

function admin(...args: string[]) {
  const run = spawnSync('npm', ['run', '--silent', 'admin', '--', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: process.env,
  })
  if (run.status !== 0) throw new Error(`admin ${args.join(' ')} failed: ${run.stderr}`)
  return run.stdout
}

/** A host page with the one script tag and these extra `data-*` attributes. */
function hostHtml(projectId: string, attributes = '') {
  return `<!doctype html><html><head><title>Config host</title>
<script src="${URLS.modal}/sdk.js" data-project-id="${projectId}" data-networks="eip155:31337" ${attributes}></script></head>
<body><h1>Config host</h1></body></html>`
}

const openModal = (page: Page) => page.evaluate(() => (window as unknown as W).porthole.open())
const emailField = (page: Page) => modal(page).getByRole('textbox', { name: 'Email' })
const devWalletButton = (page: Page) =>
  modal(page).getByRole('button', { name: 'Porthole Dev Wallet' })

test('Receive shows the address as a QR code that decodes to it, and where it can receive', async ({
  dapp,
}) => {
  expect(await connectThroughModal(dapp)).toMatchObject({ address: WALLET_ADDRESS })
  await openModal(dapp)
  const frame = modal(dapp)
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
  await frame.getByRole('button', { name: 'Receive' }).click()
  await expect(frame.getByRole('dialog', { name: 'Receive' })).toBeVisible()
  await expect(frame.getByTestId('receive-address')).toHaveText(WALLET_ADDRESS)
  const qr = frame.getByTestId('receive-qr').getByRole('img')
  await expect(qr).toBeVisible()
  // Read from a screenshot of what the user sees, by a decoder of our own (e2e/support/qr.ts).
  expect(await readQrCode(qr)).toBe(WALLET_ADDRESS)
  // The demo's EVM networks (its Solana network is another namespace).
  await expect(frame.getByTestId('receive-networks').getByRole('listitem')).toHaveText([
    'Porthole Devnet',
    'Porthole Devnet B',
    'Ethereum',
  ])
  // Back returns to Account.
  await frame.getByRole('button', { name: 'Back' }).click()
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
})

test("a switch to a network the dapp did not configure shows 'Network Not Found'", async ({
  dapp,
}) => {
  const error = await dapp.evaluate(() =>
    (window as unknown as W).porthole.switchNetwork('eip155:8453').then(
      () => null,
      (e: { message: string }) => e.message,
    ),
  )
  expect(error).toBe('Network not found')
  await openModal(dapp)
  await expect(modal(dapp).getByTestId('alert')).toHaveText('Network Not Found')
  await modal(dapp).getByRole('button', { name: 'Dismiss' }).click()
  await expect(modal(dapp).getByTestId('alert')).toHaveCount(0)
})

test('features.email false hides the e-mail field; features.receive false hides Receive', async ({
  page,
}) => {
  const host = await startHostPage(
    4061,
    null,
    'localhost',
    hostHtml('porthole-demo', `data-features='{"email":false,"receive":false}'`),
  )
  admin('project', 'allow', 'porthole-demo', 'http://localhost:4061')
  try {
    await page.addInitScript(devWalletScript())
    await page.goto(host.url)
    await waitForPorthole(page)
    await openModal(page)
    await expect(devWalletButton(page)).toBeVisible()
    await expect(emailField(page)).toHaveCount(0)
    expect(await connectThroughModal(page)).toMatchObject({ address: WALLET_ADDRESS })
    await openModal(page)
    await expect(modal(page).getByRole('dialog', { name: 'Account' })).toBeVisible()
    await expect(modal(page).getByTestId('account-address')).toBeVisible()
    await expect(modal(page).getByRole('button', { name: 'Send' })).toBeVisible()
    await expect(modal(page).getByRole('button', { name: 'Receive' })).toHaveCount(0)
  } finally {
    admin('project', 'deny', 'porthole-demo', 'http://localhost:4061')
    await host.close()
  }
})

test('legalCheckbox blocks every way to connect until the terms are accepted', async ({ page }) => {
  const host = await startHostPage(
    4062,
    null,
    'localhost',
    hostHtml(
      'porthole-demo',
      `data-features='{"legalCheckbox":true}' data-terms-conditions-url="https://example.com/terms" data-privacy-policy-url="https://example.com/privacy"`,
    ),
  )
  admin('project', 'allow', 'porthole-demo', 'http://localhost:4062')
  try {
    await page.addInitScript(devWalletScript())
    await page.goto(host.url)
    await waitForPorthole(page)
    const result = page.evaluate(() =>
      (window as unknown as W).porthole.connect().then(
        (r) => r.address,
        (e: Error) => `rejected: ${e.message}`,
      ),
    )
    const frame = modal(page)
    const checkbox = frame.getByRole('checkbox', { name: /I agree to the Terms of Service/ })
    await expect(checkbox).not.toBeChecked()
    await expect(frame.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      'https://example.com/terms',
    )
    await expect(frame.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      'https://example.com/privacy',
    )
    await expect(devWalletButton(page)).toBeDisabled()
    await expect(frame.getByRole('button', { name: 'WalletConnect' })).toBeDisabled()
    await expect(emailField(page)).toBeDisabled()
    // A click on the disabled wallet does nothing.
    await devWalletButton(page).click({ force: true })
    await page.waitForTimeout(500)
    expect(await state(page)).toMatchObject({ status: 'disconnected' })

    await checkbox.check()
    await expect(devWalletButton(page)).toBeEnabled()
    await devWalletButton(page).click()
    expect(await result).toBe(WALLET_ADDRESS)
  } finally {
    admin('project', 'deny', 'porthole-demo', 'http://localhost:4062')
    await host.close()
  }
})

test('a remote feature turned off with the admin CLI disappears without a host change', async ({
  page,
}) => {
  const created = admin(
    'project',
    'create',
    '--origin',
    'http://localhost:4063',
    '--name',
    'e2e features',
  )
  const projectId = created.trim().split('\n').at(-1) as string
  const host = await startHostPage(4063, null, 'localhost', hostHtml(projectId))
  try {
    await page.goto(host.url)
    await waitForPorthole(page)
    await openModal(page)
    const frame = modal(page)
    await expect(frame.getByRole('button', { name: 'WalletConnect' })).toBeVisible()
    await expect(emailField(page)).toBeVisible()
    await expect(frame.getByRole('button', { name: 'Continue with Google' })).toBeVisible()

    admin('project', 'feature', projectId, 'email', 'off')
    admin('project', 'feature', projectId, 'socials', 'github')
    // The same page, reloaded (the API's project cache lives at most a second).
    await expect(async () => {
      await page.reload()
      await waitForPorthole(page)
      await openModal(page)
      await expect(frame.getByRole('button', { name: 'WalletConnect' })).toBeVisible()
      await expect(emailField(page)).toHaveCount(0, { timeout: 1000 })
    }).toPass({ timeout: 15_000 })
    await expect(frame.getByRole('button', { name: 'Continue with GitHub' })).toBeVisible()
    await expect(frame.getByRole('button', { name: 'Continue with Google' })).toHaveCount(0)

    // Back on: it returns the same way.
    admin('project', 'feature', projectId, 'email', 'default')
    await expect(async () => {
      await page.reload()
      await waitForPorthole(page)
      await openModal(page)
      await expect(emailField(page)).toBeVisible({ timeout: 2000 })
    }).toPass({ timeout: 15_000 })
  } finally {
    await host.close()
  }
})
