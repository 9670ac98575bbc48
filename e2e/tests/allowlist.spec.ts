import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import {
  devWalletScript,
  expect,
  modal,
  state,
  test,
  WALLET_ADDRESS,
  waitForPorthole,
} from '../support/fixtures.js'
import { startHostPage } from '../support/hostPage.js'

type W = Window & { porthole: { connect(): Promise<unknown> } }
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

const failure = (page: import('@playwright/test').Page) =>
  page.evaluate(() =>
    (window as unknown as W).porthole.connect().then(
      () => 'resolved',
      (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
    ),
  )

test('a host origin not on the allowlist cannot show the modal, and connect() says why quickly', async ({
  page,
}) => {
  const host = await startHostPage(4010, 'porthole-demo')
  try {
    await page.goto(host.url)
    await waitForPorthole(page)
    const started = Date.now()
    expect(await failure(page)).toEqual({ code: 4100, message: 'Origin Not Allowed' })
    expect(Date.now() - started).toBeLessThan(8000)
    // The browser refused the frame: no Porthole UI was ever rendered in it.
    await expect(modal(page).getByRole('dialog')).toHaveCount(0)
    expect(await state(page)).toMatchObject({ error: { message: 'Origin Not Allowed' } })
  } finally {
    await host.close()
  }
})

test('allowing the origin with the admin CLI takes effect without a restart', async ({ page }) => {
  const host = await startHostPage(4011, 'porthole-demo')
  try {
    admin('project', 'allow', 'porthole-demo', 'http://localhost:4011')
    await page.addInitScript(devWalletScript())
    await page.goto(host.url)
    await waitForPorthole(page)
    const result = page.evaluate(() => (window as unknown as W).porthole.connect())
    await modal(page).getByRole('button', { name: 'Porthole Dev Wallet' }).click()
    expect(await result).toMatchObject({ address: WALLET_ADDRESS })
    admin('project', 'deny', 'porthole-demo', 'http://localhost:4011')
  } finally {
    await host.close()
  }
})

test('a new project from the admin CLI works on its own origin', async ({ page }) => {
  const host = await startHostPage(4012, null)
  await host.close()
  const output = admin('project', 'create', '--origin', 'http://localhost:4012', '--name', 'e2e')
  const projectId = output.trim().split('\n').at(-1) as string
  expect(projectId).toMatch(/^[0-9a-f]{32}$/)
  const page2 = await startHostPage(4012, projectId)
  try {
    await page.goto(page2.url)
    await waitForPorthole(page)
    await page.evaluate(() =>
      (window as unknown as { porthole: { open(): Promise<void> } }).porthole.open(),
    )
    await expect(modal(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  } finally {
    await page2.close()
  }
})

test("without a project id the modal shows 'Project ID Not Configured' and calls reject", async ({
  page,
}) => {
  const host = await startHostPage(4013, null)
  try {
    await page.goto(host.url)
    await waitForPorthole(page)
    expect(await failure(page)).toEqual({ code: 4100, message: 'Project ID Not Configured' })
    await expect(modal(page).getByRole('alert')).toHaveText('Project ID Not Configured')
  } finally {
    await host.close()
  }
})

test("an unknown project id is refused with 'Invalid Project ID'", async ({ page }) => {
  const host = await startHostPage(4014, 'no-such-project')
  try {
    await page.goto(host.url)
    await waitForPorthole(page)
    expect(await failure(page)).toEqual({ code: 4100, message: 'Invalid Project ID' })
  } finally {
    await host.close()
  }
})
