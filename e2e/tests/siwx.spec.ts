/**
 * Sign in with the wallet (issue 13, SIWX): the sign view after connecting, the session the host
 * page gets and its server can verify (viem, and the API's own check), cancel rules, the modal
 * refusing to close while sign-in is required, reload, and a new signature per network.
 */
import type { Page } from '@playwright/test'
import { createPublicClient, http } from 'viem'
import { verifySiweMessage } from 'viem/siwe'
import {
  DEMO_URL,
  devWalletScript,
  expect,
  modal,
  state,
  test,
  URLS,
  WALLET_ADDRESS,
  waitForPorthole,
} from '../support/fixtures.js'

const API = URLS.api
type Session = { address: string; caipNetworkId: string; message: string; signature: string }
type W = Window & {
  porthole: {
    connect(): Promise<Record<string, unknown>>
    getSession(): Session | null
    on(e: string, l: (x: unknown) => void): () => void
    switchNetwork(id: string): Promise<void>
    close(): Promise<void>
  }
  __connect: Promise<{ value?: unknown; error?: { code: number; message: string } }>
  __sessions: unknown[]
}

/** The demo with sign-in on, the dev wallet approving; `connect()` started, the wallet chosen. */
async function connectWithSignIn(page: Page, siwx: 'required' | 'optional') {
  await page.addInitScript(devWalletScript())
  await page.goto(`${DEMO_URL}/?siwx=${siwx}`)
  await waitForPorthole(page)
  await page.evaluate(() => {
    const w = window as unknown as W
    w.__sessions = []
    w.porthole.on('session', (s) => w.__sessions.push(s))
    w.__connect = w.porthole.connect().then(
      (value) => ({ value }),
      (error: { code: number; message: string }) => ({
        error: { code: error.code, message: error.message },
      }),
    )
  })
  await modal(page).getByRole('button', { name: 'Porthole Dev Wallet' }).click()
  await expect(modal(page).getByRole('heading', { name: /Sign in to/ })).toBeVisible()
}

const session = (page: Page) => page.evaluate(() => (window as unknown as W).porthole.getSession())

/** Verifies a session as a host's server would: viem's SIWE check, then the API's. */
async function verifyAsTheHostServer(s: Session) {
  const client = createPublicClient({ transport: http(URLS.devnet) })
  expect(
    await verifySiweMessage(client, {
      message: s.message,
      signature: s.signature as `0x${string}`,
      domain: new URL(URLS.demo).host,
      address: s.address as `0x${string}`,
    }),
  ).toBe(true)
  const answer = await fetch(`${API}/auth/v1/siwx/verify?projectId=porthole-demo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: s.message, signature: s.signature }),
  })
  return (await answer.json()) as { valid: boolean }
}

test('SIWX required: the sign view holds connect(), refuses to close, and signing gives a session the host verifies; reload keeps it; a new network asks again', async ({
  page,
}) => {
  await connectWithSignIn(page, 'required')
  // connect() waits for the signature; the modal cannot be closed meanwhile.
  const pending = await Promise.race([
    page.evaluate(() => (window as unknown as W).__connect.then(() => 'settled')),
    new Promise((done) => setTimeout(() => done('pending'), 500)),
  ])
  expect(pending).toBe('pending')
  await modal(page).getByRole('button', { name: 'Close' }).click()
  await page.keyboard.press('Escape')
  await page.evaluate(() => (window as unknown as W).porthole.close())
  await expect(modal(page).getByRole('heading', { name: /Sign in to/ })).toBeVisible()
  await expect.poll(async () => (await state(page)).open).toBe(true)
  expect(await session(page)).toBeNull()

  await modal(page).getByRole('button', { name: 'Sign in', exact: true }).click()
  const outcome = await page.evaluate(() => (window as unknown as W).__connect)
  expect(outcome.value).toMatchObject({ address: WALLET_ADDRESS })
  const signed = (await session(page)) as Session
  expect(signed).toMatchObject({ address: WALLET_ADDRESS, caipNetworkId: 'eip155:31337' })
  expect(signed.message).toContain(
    `${new URL(URLS.demo).host} wants you to sign in with your Ethereum account:`,
  )
  expect(signed.message).toContain('Chain ID: 31337')
  expect(await verifyAsTheHostServer(signed)).toMatchObject({ valid: true })
  expect(await page.evaluate(() => (window as unknown as W).__sessions)).toEqual([signed])
  expect(await state(page)).toMatchObject({ open: false, status: 'connected' })

  // A reload restores the connection and the same session, without asking again.
  await page.reload()
  await waitForPorthole(page)
  await expect.poll(() => session(page)).toEqual(signed)
  expect(await state(page)).toMatchObject({ open: false })

  // Another network has no session: the sign view opens again.
  const switching = page.evaluate(() =>
    (window as unknown as W).porthole.switchNetwork('eip155:31338'),
  )
  await expect(modal(page).getByRole('heading', { name: /Sign in to/ })).toBeVisible()
  await switching
  await modal(page).getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect.poll(async () => (await session(page))?.caipNetworkId).toBe('eip155:31338')
})

test('SIWX required: declining disconnects, and the session is revoked on disconnect', async ({
  page,
}) => {
  await connectWithSignIn(page, 'required')
  await modal(page).getByRole('button', { name: 'Disconnect' }).click()
  await expect.poll(async () => (await state(page)).status).toBe('disconnected')
  expect((await page.evaluate(() => (window as unknown as W).__connect)).error).toMatchObject({
    code: 4001,
  })

  // Signed in, then disconnected from the dapp: the API no longer vouches for the session.
  await page.evaluate(() => {
    const w = window as unknown as W
    w.__connect = w.porthole.connect().then((value) => ({ value }))
  })
  await modal(page).getByRole('button', { name: 'Porthole Dev Wallet' }).click()
  await modal(page).getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.evaluate(() => (window as unknown as W).__connect)
  const signed = (await session(page)) as Session
  expect(await verifyAsTheHostServer(signed)).toMatchObject({ valid: true })
  await page.evaluate('porthole.disconnect()')
  await expect.poll(async () => (await verifyAsTheHostServer(signed)).valid).toBe(false)
  expect(await session(page)).toBeNull()
})

test('SIWX optional: connect() resolves at once, and cancelling the sign view just closes it', async ({
  page,
}) => {
  await connectWithSignIn(page, 'optional')
  expect((await page.evaluate(() => (window as unknown as W).__connect)).value).toMatchObject({
    address: WALLET_ADDRESS,
  })
  await modal(page).getByRole('button', { name: 'Cancel' }).click()
  await expect.poll(async () => (await state(page)).open).toBe(false)
  expect(await state(page)).toMatchObject({ status: 'connected', address: WALLET_ADDRESS })
  expect(await session(page)).toBeNull()
  // A reload restores the connection without asking again (optional: asked once per connect).
  await page.reload()
  await waitForPorthole(page)
  await expect.poll(async () => (await state(page)).status).toBe('connected')
  await page.waitForTimeout(1000)
  expect(await state(page)).toMatchObject({ open: false })
})
