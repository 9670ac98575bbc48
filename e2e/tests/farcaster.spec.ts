/**
 * Issue 13, Farcaster login: the modal's ConnectingFarcaster view shows the auth relay channel
 * as a QR code and a link; the test client (`@porthole/farcaster`, what `npm run test-farcaster`
 * runs) answers it as the user's Farcaster app, with a custody key whose fid it registers in the
 * devnet's IdRegistry; the API checks the message, the signature and the custody on chain, and
 * the wallet connects. The same fid on another site (a new storage partition: a new device for
 * the wallet) is the same user, so the same address — recovered by the recovery service from
 * the Farcaster message itself.
 */
import type { Page } from '@playwright/test'
import { approveChannel } from '@porthole/farcaster'
import { createCustodyReader, parseFarcasterConnectUrl } from '@porthole/shared'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import {
  admin,
  connectOutcome,
  providerRequest,
  signsFor,
  walletFrame,
} from '../support/embedded.js'
import {
  DEMO_URL,
  DEVNET_RPC,
  expect,
  modal,
  state,
  test,
  waitForPorthole,
} from '../support/fixtures.js'
import { startHostPage } from '../support/hostPage.js'

/** A second host site of the demo project: another site than localhost, a new partition. */
const SITE_2_PORT = 4018
const SITE_2 = `http://fcsite.localhost:${SITE_2_PORT}`

/**
 * Starts `porthole.connect()`, picks Farcaster in the modal, reads the channel link from the
 * view and answers it with `privateKey`; resolves with connect()'s address and the fid.
 */
async function farcasterConnect(page: Page, privateKey: Hex) {
  await page.evaluate(`window.__connect = window.porthole.connect().then(
    (value) => ({ value }), (error) => ({ error: { code: error.code, message: error.message } })); undefined`)
  await modal(page).getByRole('button', { name: 'Continue with Farcaster' }).click()
  await expect(modal(page).getByRole('heading', { name: 'Farcaster', exact: true })).toBeVisible()
  const qr = modal(page).getByTestId('farcaster-qr')
  await expect(qr).toBeVisible({ timeout: 20_000 })
  await expect(qr.getByRole('img', { name: 'QR code to sign in with Farcaster' })).toBeVisible()
  const url = (await qr.getAttribute('data-uri')) as string
  // The link is the same channel, and the channel names who asks: the site the user is on (its
  // domain and URI) and the project.
  await expect(modal(page).getByRole('link', { name: 'Open in Farcaster' })).toHaveAttribute(
    'href',
    url,
  )
  const site = new URL(page.url()).origin
  expect(parseFarcasterConnectUrl(url)).toMatchObject({
    domain: new URL(site).host,
    siweUri: `${site}/`,
    nonce: expect.stringMatching(/^[0-9a-f]{64}$/),
    requestId: 'porthole:porthole-demo:Porthole%20demo',
  })
  const sent = await approveChannel({
    channel: url,
    privateKey,
    username: 'fc-e2e',
    expectSite: site,
  })
  const outcome = await connectOutcome(page)
  expect(outcome.error).toBeUndefined()
  return { address: outcome.value?.address as string, fid: sent.fid }
}

test('Farcaster login through the local relay and test client connects an embedded wallet; the same fid on another site gets the same address', async ({
  page,
}) => {
  admin('project', 'allow', 'porthole-demo', SITE_2)
  // Vetted, so the recovered key's signature is approved in the page (elsewhere: the wallet window).
  admin('project', 'trust', 'porthole-demo', SITE_2)
  const host = await startHostPage(SITE_2_PORT, 'porthole-demo', 'fcsite.localhost')
  const custodyKey = generatePrivateKey()
  try {
    await page.goto(DEMO_URL)
    await waitForPorthole(page)
    const first = await farcasterConnect(page, custodyKey)
    expect(first.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    // An embedded wallet of its own: not the custody key's address.
    expect(first.address.toLowerCase()).not.toBe(privateKeyToAddress(custodyKey).toLowerCase())
    expect(await state(page)).toMatchObject({
      status: 'connected',
      address: first.address,
      connector: { type: 'AUTH', name: 'Farcaster' },
    })
    // The fid really is the key's in the devnet's IdRegistry.
    expect(await createCustodyReader({ rpcUrl: DEVNET_RPC })(BigInt(first.fid))).toBe(
      privateKeyToAddress(custodyKey),
    )

    // Another site: a new storage partition, so the wallet frame has no device share there.
    await page.goto(SITE_2)
    await waitForPorthole(page)
    const second = await farcasterConnect(page, custodyKey)
    expect(second.fid).toBe(first.fid)
    expect(second.address).toBe(first.address)

    // The recovered key signs there.
    const signing = providerRequest(page, 'personal_sign', ['0x6f6b', second.address])
    await walletFrame(page).getByRole('button', { name: 'Approve' }).click()
    const signature = (await signing).value as Hex
    expect(await signsFor(second.address, 'ok', signature)).toBe(true)
  } finally {
    await host.close()
  }
})

test('another Farcaster account (another fid) gets another wallet', async ({ page }) => {
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  const first = await farcasterConnect(page, generatePrivateKey())
  await page.evaluate('window.porthole.disconnect()')
  await expect.poll(async () => (await state(page)).status).toBe('disconnected')
  const second = await farcasterConnect(page, generatePrivateKey())
  expect(second.fid).not.toBe(first.fid)
  expect(second.address).not.toBe(first.address)
})
