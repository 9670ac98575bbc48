import { createConnection } from 'node:net'
import { devices, type Page } from '@playwright/test'
import { createPublicClient, type Hex, http, parseEther, recoverMessageAddress } from 'viem'
import { providerRequest } from '../support/embedded.js'
import {
  DEMO_URL,
  DEVNET_B_RPC,
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
import { startPairing } from '../support/pairing.js'
import { startTestWallet, type TestWallet } from '../support/testWallet.js'

/** anvil accounts 2 and 3. */
const KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a'
const ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const OTHER_KEY = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6'
const OTHER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'

let wallet: TestWallet
test.beforeEach(async () => {
  wallet = await startTestWallet({ privateKey: KEY })
})
test.afterEach(async () => {
  await wallet.close()
})

async function connectWallet(page: Page): Promise<void> {
  await wallet.pair(await startPairing(page))
  const outcome = (await page.evaluate('window.__connect')) as { value?: { address: string } }
  expect(outcome.value?.address).toBe(ADDRESS)
}

test('a wallet pairs with the QR code URI; personal_sign and a devnet transaction round-trip through the relay', async ({
  page,
}) => {
  await connectWallet(page)
  expect(await state(page)).toMatchObject({
    status: 'connected',
    address: ADDRESS,
    caipNetworkId: 'eip155:31337',
    connector: { type: 'WALLET_CONNECT', name: 'Porthole Test Wallet' },
  })
  await expect(page.locator('#address')).toHaveText(ADDRESS)

  const signed = await providerRequest(page, 'personal_sign', ['0x6869', ADDRESS])
  expect(await recoverMessageAddress({ message: 'hi', signature: signed.value as Hex })).toBe(
    ADDRESS,
  )

  const before = await devnet.getBalance({ address: OTHER_ADDRESS })
  const sent = await providerRequest(page, 'eth_sendTransaction', [
    { from: ADDRESS, to: OTHER_ADDRESS, value: '0x2386f26fc10000' },
  ])
  const receipt = await devnet.waitForTransactionReceipt({ hash: sent.value as Hex })
  expect(receipt.status).toBe('success')
  expect(await devnet.getBalance({ address: OTHER_ADDRESS })).toBe(before + parseEther('0.01'))

  // The wallet's refusal keeps its code.
  wallet.setMode('reject')
  expect((await providerRequest(page, 'personal_sign', ['0x6e6f', ADDRESS])).error).toMatchObject({
    code: 4001,
  })
  // Besides the dapp's calls, the wallet saw only the read the closed modal makes to prepare the
  // Account view's tokens: whether it reports its own assets (wallet_getCapabilities).
  expect(
    wallet.requests.map((r) => r.method).filter((m) => m !== 'wallet_getCapabilities'),
  ).toEqual(['personal_sign', 'eth_sendTransaction', 'personal_sign'])
  expect(
    wallet.requests.filter((r) => r.method === 'wallet_getCapabilities').length,
  ).toBeLessThanOrEqual(1)
})

test('a machine that reports itself offline (loopback only) still pairs with the local relay', async ({
  page,
}) => {
  // Chromium says navigator.onLine === false when no interface but loopback is up.
  await page.addInitScript(() =>
    Object.defineProperty(Navigator.prototype, 'onLine', { get: () => false }),
  )
  await connectWallet(page)
  const signed = await providerRequest(page, 'personal_sign', ['0x6869', ADDRESS])
  expect(signed.value).toMatch(/^0x[0-9a-f]{130}$/)
})

test('chain and account changes in the wallet reach the modal and the dapp', async ({ page }) => {
  await connectWallet(page)
  await wallet.switchChain(31338)
  await expect.poll(async () => (await state(page)).caipNetworkId).toBe('eip155:31338')
  await wallet.switchAccount(OTHER_KEY)
  await expect.poll(async () => (await state(page)).address).toBe(OTHER)
  const events = (await page.evaluate('window.__events')) as [string, unknown][]
  expect(events).toContainEqual(['chainChanged', '0x7a6a'])
  expect(events).toContainEqual(['accountsChanged', [OTHER]])
})

test('a reload restores the session; disconnect from the dapp ends it in the wallet too', async ({
  page,
}) => {
  await connectWallet(page)
  await page.reload()
  await waitForPorthole(page)
  await expect.poll(async () => (await state(page)).status, { timeout: 20_000 }).toBe('connected')
  expect((await state(page)).address).toBe(ADDRESS)
  const signed = await providerRequest(page, 'personal_sign', ['0x6869', ADDRESS])
  expect(signed.value).toMatch(/^0x[0-9a-f]{130}$/)

  await page.evaluate('porthole.disconnect()')
  expect(await state(page)).toMatchObject({ status: 'disconnected' })
  await expect.poll(() => wallet.session()).toBeUndefined()
})

test('disconnect from the wallet ends the session in the dapp', async ({ page }) => {
  await connectWallet(page)
  await wallet.disconnect()
  await expect.poll(async () => (await state(page)).status).toBe('disconnected')
  const events = (await page.evaluate('window.__events')) as [string, unknown][]
  expect(events.map(([name]) => name)).toContain('disconnect')
})

test('a wallet that rejects the session leaves the modal with Connection rejected and a retry', async ({
  page,
}) => {
  wallet.setMode('reject')
  await wallet.pair(await startPairing(page))
  await expect(modal(page).getByText('Connection rejected')).toBeVisible()
  wallet.setMode('approve')
  await modal(page).getByRole('button', { name: 'Try again' }).click()
  await expect(modal(page).getByTestId('walletconnect-qr')).toBeVisible()
  const uri = await modal(page).getByTestId('walletconnect-qr').getAttribute('data-uri')
  await wallet.pair(uri as string)
  const outcome = (await page.evaluate('window.__connect')) as { value?: { address: string } }
  expect(outcome.value?.address).toBe(ADDRESS)
})

test('the dapp switches network over the session; requests then run on the new chain', async ({
  page,
}) => {
  await connectWallet(page)
  await page.evaluate(`porthole.switchNetwork('eip155:31338')`)
  expect((await state(page)).caipNetworkId).toBe('eip155:31338')
  expect(await providerRequest(page, 'eth_chainId', [])).toEqual({ value: '0x7a6a' })
  const devnetB = createPublicClient({ transport: http(DEVNET_B_RPC) })
  const sent = await providerRequest(page, 'eth_sendTransaction', [
    { from: ADDRESS, to: OTHER_ADDRESS, value: '0x1' },
  ])
  expect((await devnetB.waitForTransactionReceipt({ hash: sent.value as Hex })).status).toBe(
    'success',
  )
  expect(wallet.requests.at(-1)).toMatchObject({
    method: 'eth_sendTransaction',
    chainId: 'eip155:31338',
  })
  const events = (await page.evaluate('window.__events')) as [string, unknown][]
  expect(events).toContainEqual(['chainChanged', '0x7a6a'])
})

test('an expiring pairing URI is replaced without user action (4 min life, renewed with 10 s left)', async ({
  page,
}) => {
  await page.clock.install()
  const first = await startPairing(page)
  // At 3 min 45 s the URI still has 15 s to live: it stays.
  await page.clock.fastForward('03:45')
  await page.waitForTimeout(300)
  expect(await page.evaluate('window.__uris')).toEqual([first])
  // At 3 min 51 s it has 9 s left, which counts as expired: a new one replaces it.
  await page.clock.fastForward('00:06')
  await expect.poll(() => page.evaluate('window.__uris.length')).toBe(2)
  const second = ((await page.evaluate('window.__uris')) as string[])[1] as string
  expect(second).toMatch(/^wc:[0-9a-f]{64}@2\?/)
  expect(second).not.toBe(first)
  await expect(modal(page).getByTestId('walletconnect-qr')).toHaveAttribute('data-uri', second)
  await wallet.pair(second)
  const outcome = (await page.evaluate('window.__connect')) as { value?: { address: string } }
  expect(outcome.value?.address).toBe(ADDRESS)
})

/** Resolves when something does (or no longer does) listen on the relay's port. */
async function relayListening(listening: boolean): Promise<void> {
  const probe = () =>
    new Promise<boolean>((done) => {
      const relay = new URL(URLS.relay)
      const socket = createConnection({ port: Number(relay.port), host: relay.hostname })
      socket.once('connect', () => {
        socket.destroy()
        done(true)
      })
      socket.once('error', () => done(false))
    })
  await expect.poll(probe, { timeout: 10_000, intervals: [50] }).toBe(listening)
}

/** Stops the stack's relay for a restart (SIGUSR2 to the stack process): it is back in ~1 s. */
async function relayRestarting(): Promise<void> {
  const pid = Number(process.env.PORTHOLE_E2E_STACK_PID)
  if (!pid)
    throw new Error(
      'PORTHOLE_E2E_STACK_PID is not set: with PORTHOLE_E2E_REUSE_STACK=1 set it to the stack process id',
    )
  process.kill(pid, 'SIGUSR2')
  await relayListening(false)
}

test('the relay restarting mid-session loses neither the session nor a request sent while it was down', async ({
  page,
}) => {
  await connectWallet(page)
  await relayRestarting()
  // Sent while the relay is down: it must arrive once both sides are back.
  const pending = providerRequest(page, 'personal_sign', ['0x646f776e', ADDRESS])
  await relayListening(true)
  const signed = await pending
  expect(await recoverMessageAddress({ message: 'down', signature: signed.value as Hex })).toBe(
    ADDRESS,
  )
  expect((await state(page)).status).toBe('connected')

  // A second restart, then requests in both directions still work.
  await relayRestarting()
  await relayListening(true)
  const again = await providerRequest(page, 'personal_sign', ['0x6869', ADDRESS])
  expect(await recoverMessageAddress({ message: 'hi', signature: again.value as Hex })).toBe(
    ADDRESS,
  )
  await wallet.switchChain(31338)
  await expect.poll(async () => (await state(page)).caipNetworkId).toBe('eip155:31338')
})

/** Opens the demo and starts `connect()`; the URI the SDK emits lands in `window.__uri`. */
async function startPhoneConnect(page: Page): Promise<void> {
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  await page.evaluate(`window.__uri = new Promise((done) => porthole.on('display_uri', done));
    window.__connect = porthole.connect().then(
      (value) => ({ value }), (error) => ({ error: { code: error.code, message: error.message } }));
    undefined`)
}

test.describe('on an iPhone', () => {
  const { defaultBrowserType: _webkit, ...iPhone } = devices['iPhone 13']
  test.use(iPhone)

  test("choosing a wallet opens its link with the pairing URI from the host's top window; the wallet pairs from it", async ({
    page,
    context,
  }) => {
    // MetaMask's universal link, answered locally: this stands in for the wallet app.
    await context.route('https://metamask.app.link/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>wallet</title>' }),
    )
    await startPhoneConnect(page)
    const opened = context.waitForEvent('page')
    await modal(page)
      .getByRole('button', { name: /^MetaMask/ })
      .first()
      .click()
    const app = await opened
    const link = new URL(app.url())
    expect(link.origin + link.pathname).toBe('https://metamask.app.link/wc')
    const uri = link.searchParams.get('uri') as string
    expect(uri).toBe(await page.evaluate('window.__uri'))
    await closePage(app)

    // 'Open in app' opens it again (the first attempt may not have reached the app).
    const reopened = context.waitForEvent('page')
    await modal(page).getByRole('button', { name: 'Open in app' }).click()
    expect(new URL((await reopened).url()).searchParams.get('uri')).toBe(uri)

    await wallet.pair(uri)
    const outcome = (await page.evaluate('window.__connect')) as { value?: { address: string } }
    expect(outcome.value?.address).toBe(ADDRESS)
  })
})

test.describe('on an Android phone', () => {
  const { defaultBrowserType: _chromium, ...pixel } = devices['Pixel 7']
  test.use(pixel)

  test('choosing a wallet opens its native scheme link with the pairing URI, and the page stays', async ({
    page,
  }) => {
    await startPhoneConnect(page)
    const opened = page.waitForRequest((request) => request.url().startsWith('metamask://'))
    await modal(page)
      .getByRole('button', { name: /^MetaMask/ })
      .first()
      .click()
    const link = (await opened).url()
    expect(link.startsWith('metamask://wc?uri=')).toBe(true)
    const uri = decodeURIComponent(link.slice('metamask://wc?uri='.length))
    expect(uri).toBe(await page.evaluate('window.__uri'))
    expect(page.url()).toBe(`${DEMO_URL}/`)
    await wallet.pair(uri)
    const outcome = (await page.evaluate('window.__connect')) as { value?: { address: string } }
    expect(outcome.value?.address).toBe(ADDRESS)
  })
})

test('a wallet that reports asset discovery lists its own assets in Tokens; an invalid answer is ignored for the API’s', async ({
  page,
}) => {
  const points = {
    address: '0x00000000000000000000000000000000000A11CE',
    balance: '0x3039', // 123.45 at 2 decimals
    type: 'ERC20',
    metadata: { name: 'Wallet Points', symbol: 'WPT', decimals: 2, price: 2, iconUrl: '' },
  }
  wallet.setAssets({ '0x7a69': [points] })
  await connectWallet(page)
  await page.evaluate('porthole.open()')
  const tokens = modal(page).getByTestId('tokens')
  // A token only the wallet knows: the list is the wallet's.
  await expect(tokens).toContainText('123.450 WPT')
  await expect(tokens).not.toContainText('pUSD')
  expect(wallet.requests.map((r) => r.method)).toEqual(
    expect.arrayContaining(['wallet_getCapabilities', 'wallet_getAssets']),
  )

  // The same wallet now answers with a price that is not a number (spec §5): ignored, and the
  // data service's balances show instead.
  wallet.setAssets({ '0x7a69': [{ ...points, metadata: { ...points.metadata, price: '2' } }] })
  await page.reload()
  await waitForPorthole(page)
  await expect.poll(async () => (await state(page)).status, { timeout: 20_000 }).toBe('connected')
  await page.evaluate('porthole.open()')
  await expect(tokens).toContainText('pUSD')
  await expect(tokens).not.toContainText('WPT')
})
