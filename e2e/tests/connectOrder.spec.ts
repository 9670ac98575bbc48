/**
 * Issue 27 item 1, in Chromium against the local stack: the Connect view lists its connector
 * types in the spec's order ("Defaults": walletConnect, recent, injected, featured, custom,
 * external, recommended), and a host's own connector (the SDK's `connectors` option, type
 * EXTERNAL: an EIP-1193 object in the page) connects and signs like a browser wallet. Attacks of
 * a hostile host page: hostile names and images, a provider that throws, one that never answers.
 */
import type { Page } from '@playwright/test'
import { recoverMessageAddress } from 'viem'
import {
  connectThroughModal,
  DEMO_URL,
  devWalletScript,
  expect,
  modal,
  state,
  test,
  WALLET_ADDRESS,
  waitForPorthole,
} from '../support/fixtures.js'

/** Rainbow's catalogue id (apps/api/src/catalogue/wallets.json). */
const RAINBOW = '1ae92b26df02f0abca6304df07debccd18262fdf5fe82daa81593582dac9a369'

/** A second EIP-6963 wallet in the page (it refuses everything): the installed section. */
const OTHER_WALLET = `if (window.top === window) {
  const provider = { request: async () => { throw { code: 4001, message: 'No' } }, on() { return provider } }
  const info = Object.freeze({ uuid: 'other-uuid', name: 'Other Wallet', icon: '', rdns: 'test.other.wallet' })
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }))
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
}`

/**
 * The demo page with its Porthole replaced by one with these options (a JS expression, so it can
 * hold provider objects); `window.__externalCalls` records what the Acme connector is asked.
 */
async function hostWith(page: Page, options: string): Promise<void> {
  await page.evaluate(`window.porthole.destroy()
    window.__externalCalls = []
    const dev = window.portholeDevWallet.provider
    // Acme: the dev wallet's provider behind the host's own object, which records each call.
    const acme = {
      request(args) { window.__externalCalls.push(args.method); return dev.request(args) },
      on(event, listener) { dev.on(event, listener); return acme },
      removeListener(event, listener) { dev.removeListener(event, listener); return acme },
    }
    window.porthole = Porthole.createPorthole(Object.assign({ projectId: 'porthole-demo', networks: ['eip155:31337'] }, ${options}))`)
  await waitForPorthole(page)
}

/** The Connect view's rows as their sections, in the order drawn (one entry per section). */
async function sections(page: Page): Promise<string[]> {
  const connect = modal(page).getByRole('dialog', { name: 'Connect Wallet' })
  await expect(connect).toBeVisible()
  const all = await connect
    .locator('[data-section]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-section') as string))
  return all.filter((section, i) => section !== all[i - 1])
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(devWalletScript())
  await page.addInitScript(OTHER_WALLET)
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
})

test('Connect lists WalletConnect, recent, installed, featured, custom, the host’s connectors, then recommended, and All Wallets last', async ({
  page,
}) => {
  // The dev wallet becomes a recent wallet.
  await connectThroughModal(page)
  await page.evaluate('porthole.disconnect()')
  await hostWith(
    page,
    `{ features: { email: false, socials: false }, featuredWalletIds: ['${RAINBOW}'],
      customWallets: [{ id: 'my-custom', name: 'Custom Wallet' }],
      connectors: [{ id: 'acme', name: 'Acme Wallet', provider: acme }] }`,
  )
  await page.evaluate('porthole.open()')
  // The catalogue's rows (featured, recommended) arrive with its first page.
  await expect
    .poll(() => sections(page))
    .toEqual([
      'walletConnect',
      'recent',
      'injected',
      'featured',
      'custom',
      'external',
      'recommended',
    ])
  const connect = modal(page).getByRole('dialog', { name: 'Connect Wallet' })
  const rows = connect.getByRole('list', { name: 'Connect Wallet' }).getByRole('button')
  await expect(rows.first()).toHaveAccessibleName(/^WalletConnect/)
  await expect(rows.last()).toHaveAccessibleName(/^All Wallets/)
  await expect(connect.locator('[data-section="recent"]')).toHaveAccessibleName(
    'Porthole Dev Wallet Recent',
  )
  await expect(connect.locator('[data-section="injected"]')).toHaveAccessibleName(
    'Other Wallet Installed',
  )
  await expect(connect.locator('[data-section="featured"]')).toHaveAccessibleName('Rainbow')
  await expect(connect.locator('[data-section="custom"]')).toHaveAccessibleName('Custom Wallet')
  await expect(connect.locator('[data-section="external"]')).toHaveAccessibleName('Acme Wallet')

  // Headless wallets() is the same list in the same order.
  const listed = (await page.evaluate('porthole.wallets()')) as { section: string }[]
  expect([...new Set(listed.map((w) => w.section))]).toEqual([
    'walletConnect',
    'recent',
    'installed',
    'featured',
    'custom',
    'external',
    'recommended',
  ])

  // connectMethodsOrder still orders e-mail and the wallet list; the list keeps its own order.
  await hostWith(
    page,
    `{ features: { connectMethodsOrder: ['wallet', 'email'], socials: false, collapseWallets: true },
      connectors: [{ id: 'acme', name: 'Acme Wallet', provider: acme }] }`,
  )
  await page.evaluate('porthole.open()')
  const card = modal(page).getByRole('dialog', { name: 'Connect Wallet' })
  // collapseWallets: the wallets wait behind one button; opened, the same order.
  await card.getByRole('button', { name: /Continue with a wallet/ }).click()
  expect((await sections(page)).slice(0, 4)).toEqual([
    'walletConnect',
    'recent',
    'injected',
    'external',
  ])
  const order = await card.evaluate((root) => {
    const email = root.querySelector('input[type="email"]')
    const list = root.querySelector('[data-section="walletConnect"]')
    return !!email && !!list && !!(list.compareDocumentPosition(email) & 4) // email follows
  })
  expect(order).toBe(true)
})

test('features.connectorTypeOrder moves the types it names first, the WalletConnect row too', async ({
  page,
}) => {
  await hostWith(
    page,
    `{ features: { email: false, socials: false, connectorTypeOrder: ['external', 'walletConnect'] },
      connectors: [{ id: 'acme', name: 'Acme Wallet', provider: acme }] }`,
  )
  await page.evaluate('porthole.open()')
  await expect
    .poll(() => sections(page))
    .toEqual(['external', 'walletConnect', 'injected', 'recommended'])
  const listed = (await page.evaluate('porthole.wallets()')) as { section: string }[]
  expect([...new Set(listed.map((w) => w.section))]).toEqual([
    'external',
    'walletConnect',
    'installed',
    'recommended',
  ])
})

test('a host connector (an EIP-1193 object in the page) connects through the modal and signs a message', async ({
  page,
}) => {
  await hostWith(
    page,
    `{ connectors: [{ id: 'acme', name: 'Acme Wallet',
        imageUrl: "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 2 2'><rect width='2' height='2' fill='%23f50'/></svg>",
        provider: acme }] }`,
  )
  const result = page.evaluate('porthole.connect()')
  const row = modal(page).getByRole('button', { name: 'Acme Wallet' })
  await expect(row.locator('img')).toHaveAttribute('src', /^data:image\/svg\+xml/)
  await row.click()
  expect(await result).toMatchObject({ address: WALLET_ADDRESS, chainId: 31337 })
  expect(await state(page)).toMatchObject({
    status: 'connected',
    connector: { id: 'acme', type: 'EXTERNAL', name: 'Acme Wallet' },
  })
  const message = 'Signed through the host’s own connector'
  const signature = (await page.evaluate(
    ([m, a]) =>
      (
        window as unknown as {
          porthole: { getProvider(n: string): { request(x: unknown): Promise<unknown> } }
        }
      ).porthole
        .getProvider('eip155')
        .request({ method: 'personal_sign', params: [m, a] }),
    [`0x${Buffer.from(message).toString('hex')}`, WALLET_ADDRESS],
  )) as `0x${string}`
  expect(await recoverMessageAddress({ message, signature })).toBe(WALLET_ADDRESS)
  // Every call went through the host's object: the modal's and the dapp's.
  const calls = (await page.evaluate('window.__externalCalls')) as string[]
  expect(calls).toContain('eth_requestAccounts')
  expect(calls).toContain('personal_sign')
})

test('a hostile host page: names that hide characters, Porthole’s own ids and script images are refused or dropped, each named in the modal’s console', async ({
  page,
}) => {
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  await hostWith(
    page,
    `{ connectors: [
      { id: 'bidi', name: 'Acme \\u202Etellaw', provider: acme },
      { id: 'zw', name: 'Meta\\u200BMask', provider: acme },
      { id: 'walletConnect', name: 'WalletConnect', provider: acme },
      { id: 'long', name: 'A'.repeat(200), provider: acme },
      { id: 'script', name: 'Script Image', imageUrl: 'javascript:alert(document.domain)', provider: acme },
      { id: 'html', name: 'Html Image', imageUrl: 'data:text/html,<script>alert(1)</script>', provider: acme },
      { id: 'fine', name: 'Fine Wallet', provider: acme },
    ] }`,
  )
  await page.evaluate('porthole.open()')
  const connect = modal(page).getByRole('dialog', { name: 'Connect Wallet' })
  await expect(connect.locator('[data-section="external"]')).toHaveCount(3)
  await expect(connect.locator('[data-section="external"]')).toHaveText([
    /Script Image/,
    /Html Image/,
    /Fine Wallet/,
  ])
  // The dropped images: the rows show the name's letters, no <img> at all.
  await expect(connect.locator('[data-section="external"] img')).toHaveCount(0)
  await expect(connect.getByText('tellaw')).toHaveCount(0)
  // One WalletConnect row, Porthole's.
  await expect(connect.getByRole('button', { name: /^WalletConnect/ })).toHaveCount(1)
  // The modal names each refusal in its frame's console, as for a refused option.
  await expect.poll(() => errors.join('\n')).toContain('connector "walletConnect" refused')
  for (const id of ['bidi', 'zw', 'long'])
    expect(errors.join('\n')).toContain(`connector "${id}" refused`)
  for (const id of ['script', 'html'])
    expect(errors.join('\n')).toContain(`connector "${id}": image dropped`)
})

test('a host connector that throws shows Failed to connect; one that never answers leaves the modal usable', async ({
  page,
}) => {
  await hostWith(
    page,
    `{ connectors: [
      { id: 'throws', name: 'Throwing Wallet', provider: { request() {
          throw Object.defineProperty({}, 'code', { get() { throw new Error('gotcha') } }) } } },
      { id: 'silent', name: 'Silent Wallet', provider: { request: () => new Promise(() => {}) } },
    ] }`,
  )
  const result = page.evaluate('porthole.connect().then((r) => r.address)')
  const frame = modal(page)
  await frame.getByRole('button', { name: 'Throwing Wallet' }).click()
  await expect(frame.getByRole('heading', { name: 'Failed to connect' })).toBeVisible()
  await expect(frame.getByRole('button', { name: 'Try again' })).toBeVisible()
  await frame.getByRole('button', { name: 'Back' }).click()

  await frame.getByRole('button', { name: 'Silent Wallet' }).click()
  await expect(frame.getByRole('heading', { name: 'Continue in Silent Wallet' })).toBeVisible()
  await frame.getByRole('button', { name: 'Back' }).click()
  // Another wallet still connects, and the silent one never takes over.
  await frame.getByRole('button', { name: 'Porthole Dev Wallet' }).click()
  expect(await result).toBe(WALLET_ADDRESS)
  expect(await state(page)).toMatchObject({
    status: 'connected',
    connector: { name: 'Porthole Dev Wallet', type: 'ANNOUNCED' },
  })
})
