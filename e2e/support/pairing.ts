/**
 * WalletConnect pairing from the demo page: `connect()` started, WalletConnect chosen, and the
 * URI the SDK emitted (the one the QR code shows).
 */
import type { Page } from '@playwright/test'
import { DEMO_URL, expect, modal, waitForPorthole } from './fixtures.js'

/**
 * Opens `url` (default the demo), starts `connect()` (its outcome in `window.__connect`; every
 * URI in `window.__uris`; the EIP-1193 provider's events in `window.__events`), picks
 * WalletConnect, and resolves with the URI, checked against the QR code on screen.
 *
 * @example
 * await wallet.pair(await startPairing(page))
 */
export async function startPairing(page: Page, url = DEMO_URL): Promise<string> {
  await page.goto(url)
  await waitForPorthole(page)
  await page.evaluate(`window.__uris = [];
    window.__uri = new Promise((done) => porthole.on('display_uri', (uri) => {
      window.__uris.push(uri); done(uri) }));
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
