import type { Page } from '@playwright/test'
import { type Hex, parseEther, recoverMessageAddress } from 'viem'
import { providerRequest } from '../support/embedded.js'
import {
  DEMO_URL,
  devnet,
  expect,
  modal,
  OTHER_ADDRESS,
  state,
  test,
  waitForPorthole,
} from '../support/fixtures.js'
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

/** Opens the demo, starts connect(), picks WalletConnect; resolves with the URI the SDK emitted. */
async function startPairing(page: Page): Promise<string> {
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  await page.evaluate(`window.__uri = new Promise((done) => porthole.on('display_uri', done));
    window.__events = [];
    for (const name of ['accountsChanged', 'chainChanged', 'disconnect'])
      porthole.getProvider('eip155').on(name, (data) => window.__events.push([name, data]));
    window.__connect = porthole.connect().then(
      (value) => ({ value }), (error) => ({ error: { code: error.code, message: error.message } }));
    undefined`)
  await modal(page)
    .getByRole('button', { name: /WalletConnect/ })
    .click()
  const uri = (await page.evaluate('window.__uri')) as string
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
  // The QR code on screen encodes the same URI.
  await expect(modal(page).getByTestId('walletconnect-qr')).toHaveAttribute('data-uri', uri)
  return uri
}

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
  expect(wallet.requests.map((r) => r.method)).toEqual([
    'personal_sign',
    'eth_sendTransaction',
    'personal_sign',
  ])
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
