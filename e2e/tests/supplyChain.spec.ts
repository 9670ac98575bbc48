/**
 * Supply chain: a host page includes code the modal origin serves, so the README's embed
 * snippet pins a versioned sdk.js with Subresource Integrity. Tampered bytes (a compromised
 * server or CDN) must be refused by the browser, never run.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, MODAL_ORIGIN, test } from '../support/fixtures.js'

const ROOT = resolve(import.meta.dirname, '../..')
const SDK_FILE = resolve(ROOT, 'packages/sdk/dist/sdk.js')
const VERSION = (
  JSON.parse(readFileSync(resolve(ROOT, 'packages/sdk/package.json'), 'utf8')) as {
    version: string
  }
).version
const README_MODAL_URL = 'https://modal.example.com'

/** The README's embed snippet block (between the sdk-embed markers). */
function readmeSnippet(): string {
  const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8')
  const block = /<!-- sdk-embed:start[^>]*-->([\s\S]*?)<!-- sdk-embed:end -->/.exec(readme)?.[1]
  if (!block) throw new Error('README.md has no sdk-embed block: run `npm run sri`')
  return block
}

/** The snippet's SDK script tag, pointed at the local stack and its demo project. */
function pinnedScriptTag(): string {
  const tag = /<script src="[^"]*"[^>]*><\/script>/.exec(readmeSnippet())?.[0]
  if (!tag) throw new Error("README.md's sdk-embed block has no script tag")
  return tag.replace(README_MODAL_URL, MODAL_ORIGIN).replace('YOUR_PROJECT_ID', 'porthole-demo')
}

/** A third-party host page (its own origin, another site than the modal) with `head` in it. */
async function startHost(head: string): Promise<{ url: string; close(): Promise<void> }> {
  const html = `<!doctype html><html><head><title>Shop</title>${head}</head><body>Shop</body></html>`
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(html)
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://localhost:${port}/`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  }
}

/** Console errors and page errors, to see why a script did not run. */
function collectErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  return errors
}

/**
 * Makes the modal origin serve `prefix` + the real bytes for `/sdk/<version>/<file>` (a
 * compromised origin or CDN); `served` turns true once it has.
 */
async function serveTampered(page: Page, file: string, prefix: string) {
  const state = { served: false }
  await page.route(`${MODAL_ORIGIN}/sdk/${VERSION}/${file}`, async (route) => {
    const original = await route.fetch()
    state.served = true
    await route.fulfill({
      status: original.status(),
      headers: {
        'content-type': 'text/javascript; charset=utf-8',
        'access-control-allow-origin': '*',
        'cache-control': 'no-store',
      },
      body: `${prefix}\n${await original.text()}`,
    })
  })
  return state
}

const hasPorthole = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { porthole?: { connect?: unknown } }
    return typeof w.porthole?.connect === 'function'
  })

test('sdk.js is served at its immutable version path and at /sdk.js, both with CORS', async ({
  request,
}) => {
  const built = readFileSync(SDK_FILE)
  const versioned = await request.get(`${MODAL_ORIGIN}/sdk/${VERSION}/sdk.js`, {
    headers: { origin: 'https://shop.example' },
  })
  expect(versioned.status()).toBe(200)
  expect(Buffer.from(await versioned.body()).equals(built)).toBe(true)
  expect(versioned.headers()['cache-control']).toBe('public, max-age=31536000, immutable')
  expect(versioned.headers()['access-control-allow-origin']).toBe('*')
  const latest = await request.get(`${MODAL_ORIGIN}/sdk.js`, {
    headers: { origin: 'https://shop.example' },
  })
  expect(Buffer.from(await latest.body()).equals(built)).toBe(true)
  expect(latest.headers()['cache-control']).toBe('public, max-age=300')
  expect(latest.headers()['access-control-allow-origin']).toBe('*')
})

test("README's embed snippet pins the built packages/sdk/dist/sdk.js (else run `npm run sri`)", () => {
  const snippet = readmeSnippet()
  const integrity = `sha384-${createHash('sha384').update(readFileSync(SDK_FILE)).digest('base64')}`
  expect(snippet).toContain(`src="${README_MODAL_URL}/sdk/${VERSION}/sdk.js"`)
  expect(snippet).toContain(`integrity="${integrity}" crossorigin="anonymous"`)
})

test("a host page with the README's snippet loads the pinned SDK", async ({ page }) => {
  const errors = collectErrors(page)
  const host = await startHost(pinnedScriptTag())
  try {
    await page.goto(host.url)
    await expect.poll(() => hasPorthole(page)).toBe(true)
    expect(errors.filter((e) => /integrity|CORS/i.test(e))).toEqual([])
  } finally {
    await host.close()
  }
})

test('the same page does not run a tampered sdk.js: the browser refuses it for its integrity', async ({
  page,
}) => {
  const errors = collectErrors(page)
  // The modal origin (or a CDN in front of it) serves other bytes for the same URL.
  const tampered = await serveTampered(
    page,
    'sdk.js',
    'window.__tampered = true; window.__stolen = document.cookie;',
  )
  const host = await startHost(pinnedScriptTag())
  try {
    await page.goto(host.url)
    await expect.poll(() => errors.some((e) => /integrity/i.test(e))).toBe(true)
    expect(tampered.served).toBe(true)
    expect(errors.find((e) => /integrity/i.test(e))).toMatch(/sha-?384/i)
    expect(await page.evaluate(() => (window as { __tampered?: boolean }).__tampered)).toBe(
      undefined,
    )
    expect(await hasPorthole(page)).toBe(false)
  } finally {
    await host.close()
  }
})

test('nor a tampered sdk-chains.js (the part sdk.js loads at start): its hash is pinned inside sdk.js', async ({
  page,
}) => {
  const errors = collectErrors(page)
  const tampered = await serveTampered(page, 'sdk-chains.js', 'window.__tampered = true;')
  // Every page loads sdk-chains.js at once (wallet discovery: they are listed in Connect).
  const tag = pinnedScriptTag().replace(
    /data-networks="[^"]*"/,
    'data-networks="eip155:31337,solana:DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P"',
  )
  const host = await startHost(
    tag.includes('data-networks')
      ? tag
      : tag.replace(
          '<script ',
          '<script data-networks="eip155:31337,solana:DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P" ',
        ),
  )
  try {
    await page.goto(host.url)
    await expect.poll(() => hasPorthole(page)).toBe(true)
    // The first provider call needs sdk-chains.js; the browser refuses the other bytes.
    const outcome = await page.evaluate(() =>
      (
        window as unknown as {
          porthole: {
            getProvider(ns: string): { request(a: { method: string }): Promise<unknown> }
          }
        }
      ).porthole
        .getProvider('solana')
        .request({ method: 'solana_getAccounts' })
        .then(
          () => 'answered',
          (error: Error) => error.message,
        ),
    )
    expect(tampered.served).toBe(true)
    expect(outcome).toBe('Could not load sdk-chains.js')
    expect(errors.find((e) => /integrity/i.test(e))).toMatch(/sha-?256/i)
    expect(await page.evaluate(() => (window as { __tampered?: boolean }).__tampered)).toBe(
      undefined,
    )
  } finally {
    await host.close()
  }
})

test('nor a tampered sdk-calls.js (the part sdk-chains.js loads on the first call): its hash is pinned inside sdk-chains.js', async ({
  page,
}) => {
  const errors = collectErrors(page)
  const tampered = await serveTampered(page, 'sdk-calls.js', 'window.__tampered = true;')
  const host = await startHost(pinnedScriptTag())
  try {
    await page.goto(host.url)
    await expect.poll(() => hasPorthole(page)).toBe(true)
    // The first provider call needs sdk-calls.js; the browser refuses the other bytes.
    const outcome = await page.evaluate(() =>
      (
        window as unknown as {
          porthole: {
            getProvider(ns: string): { request(a: { method: string }): Promise<unknown> }
          }
        }
      ).porthole
        .getProvider('eip155')
        .request({ method: 'eth_accounts' })
        .then(
          () => 'answered',
          (error: Error) => error.message,
        ),
    )
    expect(tampered.served).toBe(true)
    expect(outcome).toBe('Could not load sdk-calls.js')
    expect(errors.find((e) => /integrity/i.test(e))).toMatch(/sha-?256/i)
    expect(await page.evaluate(() => (window as { __tampered?: boolean }).__tampered)).toBe(
      undefined,
    )
  } finally {
    await host.close()
  }
})
