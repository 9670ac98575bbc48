/**
 * Issue 16, privacy by default: a page visit sends no telemetry. Until the modal first opens,
 * no analytics request leaves the browser (not even the analytics configuration), whatever the
 * dapp does meanwhile; after it opened, events go out as configured.
 */
import { DEMO_URL, expect, test, waitForPorthole } from '../support/fixtures.js'
import { trackRequests } from '../support/network.js'

const ANALYTICS = /\/(e|getAnalyticsConfig)(\?|$)/

test('no analytics before the first open; events after it', async ({ page }) => {
  const sent: string[] = []
  page.on('request', (request) => {
    if (ANALYTICS.test(new URL(request.url()).pathname + '?')) sent.push(request.url())
  })
  const network = trackRequests(page)
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  // The dapp acts before the user opens anything: a network switch is tracked once opened.
  await page.evaluate("window.porthole.switchNetwork('eip155:31338')")
  await page.evaluate("window.porthole.switchNetwork('eip155:31337')")
  await network.settled()
  await page.waitForTimeout(1000)
  expect(sent).toEqual([])

  await page.evaluate('window.porthole.open()')
  await page.evaluate('window.porthole.close()')
  await page.evaluate("window.porthole.switchNetwork('eip155:31338')")
  await expect.poll(() => sent.some((url) => new URL(url).pathname === '/e')).toBe(true)
})
