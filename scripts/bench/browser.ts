/**
 * Browser benchmarks on the real stack in Debian's Chromium: bytes before the first click,
 * click → modal visible (preloaded and cold), the host ↔ modal round trip and the SDK
 * provider's overhead on eth_chainId.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { resolve } from 'node:path'
import { chromiumLaunchOptions } from '@porthole/local-stack/chromium'
import { chromium, type Page } from 'playwright-core'
import { brotli } from './sdkSize.js'
import { quantile } from './stats.js'

export const BENCH_PORT = 4020
export const BENCH_ORIGIN = `http://localhost:${BENCH_PORT}`

/** A bare host page: the script tag, a button that opens the modal, in-page timing hooks. */
const PAGE = `<!doctype html><html><head><title>bench</title>
<script src="http://127.0.0.1:4100/sdk.js" data-project-id="porthole-demo" data-networks="eip155:31337,eip155:31338"></script>
</head><body><button id="open">Open</button>
<script>
window.__box = []; window.__view = []
document.getElementById('open').addEventListener('click', () => {
  const t0 = performance.now()
  let boxSeen = false
  const off = porthole.subscribe((s) => { if (s.view) { window.__view.push(performance.now() - t0); off() } })
  porthole.open()
  const frame = document.querySelector('iframe[title="Connect a wallet"]')
  const check = () => {
    const r = frame.getBoundingClientRect()
    if (frame.closest('dialog').open && r.width > 0 && r.height > 0) window.__box.push(performance.now() - t0)
    else requestAnimationFrame(check)
  }
  requestAnimationFrame(check)
})
</script></body></html>`

/** Serves the bench host page on both loopback addresses. */
export function serve(): Promise<Server[]> {
  return Promise.all(
    ['127.0.0.1', '::1'].map(
      (host) =>
        new Promise<Server>((ok) => {
          const server = createServer((_req, res) => {
            res.writeHead(200, { 'content-type': 'text/html' })
            res.end(PAGE)
          })
          server.once('error', () => ok(server))
          server.listen(BENCH_PORT, host, () => ok(server))
        }),
    ),
  )
}

type W = Window & {
  porthole: {
    open(): Promise<void>
    close(): Promise<void>
    connect(): Promise<unknown>
    switchNetwork(id: string): Promise<void>
    getState(): { status: string; open: boolean; caipNetworkId: string | null }
    getProvider(ns: 'eip155'): { request(a: { method: string }): Promise<unknown> }
  }
  portholeDevWallet: { provider: { request(a: { method: string }): Promise<unknown> } }
  __box: number[]
  __view: number[]
}

async function ready(page: Page) {
  await page.waitForFunction(
    () => (window as unknown as W).porthole?.getState().caipNetworkId !== null,
  )
}

async function clickAndWait(page: Page, count: number) {
  await page.evaluate(() => document.getElementById('open')?.click())
  await page.waitForFunction(
    (n) =>
      (window as unknown as W).__view.length >= n && (window as unknown as W).__box.length >= n,
    count,
  )
}

/** Runs every browser benchmark; the stack must be up and the bench origin allowed. */
export async function browserBenchmarks(root: string) {
  const servers = await serve()
  const browser = await chromium.launch(chromiumLaunchOptions)
  try {
    // 1. Everything the host page loads before the first click (frames included).
    const context = await browser.newContext()
    const page = await context.newPage()
    const loaded: { url: string; transferred: number; brotli: number }[] = []
    context.on('requestfinished', async (request) => {
      const response = await request.response()
      if (!response) return
      const sizes = await request.sizes()
      const body = await response.body().catch(() => Buffer.alloc(0))
      loaded.push({
        url: request.url(),
        transferred: sizes.responseBodySize + sizes.responseHeadersSize,
        brotli: brotli(body),
      })
    })
    await page.goto(BENCH_ORIGIN)
    await ready(page)
    await page.waitForLoadState('networkidle')
    const beforeClick = {
      requests: loaded.length,
      transferred: loaded.reduce((s, r) => s + r.transferred, 0),
      brotli: loaded.reduce((s, r) => s + r.brotli, 0),
      files: loaded
        .map((r) => ({ url: r.url.replace(/\?.*$/, ''), brotli: r.brotli }))
        .sort((a, b) => b.brotli - a.brotli),
    }

    // 2. Click → modal visible, preloaded: 20 clicks on one page.
    for (let i = 1; i <= 20; i++) {
      await clickAndWait(page, i)
      await page.evaluate(() => (window as unknown as W).porthole.close())
      await page.waitForTimeout(100)
    }
    const preloaded = await page.evaluate(() => ({
      box: (window as unknown as W).__box,
      view: (window as unknown as W).__view,
    }))

    // 3. Host ↔ modal round trip of a no-op (switching to the active network does nothing).
    const roundTrips = await page.evaluate(async () => {
      const { porthole } = window as unknown as W
      const active = porthole.getState().caipNetworkId as string
      for (let i = 0; i < 50; i++) await porthole.switchNetwork(active)
      const samples: number[] = []
      const start = performance.now()
      for (let i = 0; i < 1000; i++) {
        const t0 = performance.now()
        await porthole.switchNetwork(active)
        samples.push(performance.now() - t0)
      }
      return { samples, mean: (performance.now() - start) / 1000 }
    })
    await context.close()

    // 4. Cold: a fresh context (empty cache) per sample, click as soon as the page has parsed.
    const cold = { box: [] as number[], view: [] as number[] }
    for (let i = 0; i < 20; i++) {
      const fresh = await browser.newContext()
      const p = await fresh.newPage()
      await p.goto(BENCH_ORIGIN, { waitUntil: 'domcontentloaded' })
      await clickAndWait(p, 1)
      const sample = await p.evaluate(() => ({
        box: (window as unknown as W).__box[0] as number,
        view: (window as unknown as W).__view[0] as number,
      }))
      cold.box.push(sample.box)
      cold.view.push(sample.view)
      await fresh.close()
    }

    // 5. eth_chainId through the SDK provider vs directly on the injected wallet.
    const walletContext = await browser.newContext()
    const walletPage = await walletContext.newPage()
    const devWallet = readFileSync(resolve(root, 'apps/demo/dist/dev-wallet.js'), 'utf8')
    await walletPage.addInitScript(
      `if (window.top === window) { window.portholeDevWalletConfig = { mode: 'approve' };\n${devWallet}\n}`,
    )
    await walletPage.goto(BENCH_ORIGIN)
    await ready(walletPage)
    const connecting = walletPage.evaluate(() => (window as unknown as W).porthole.connect())
    await walletPage
      .frameLocator('iframe[title="Connect a wallet"]')
      .getByRole('button', { name: 'Porthole Dev Wallet' })
      .click()
    await connecting
    // In-page code as text: tsx would wrap named inner functions in a helper the page lacks.
    const chainId = (await walletPage.evaluate(`(async () => {
      const time = async (request) => {
        for (let i = 0; i < 100; i++) await request({ method: 'eth_chainId' })
        // performance.now() is coarse (0.1 ms) in a page that is not cross-origin isolated:
        // time 10 batches of 100 calls and keep the per-call mean of each batch.
        const samples = []
        for (let b = 0; b < 10; b++) {
          const t0 = performance.now()
          for (let i = 0; i < 100; i++) await request({ method: 'eth_chainId' })
          samples.push((performance.now() - t0) / 100)
        }
        return samples
      }
      const provider = porthole.getProvider('eip155')
      return {
        sdk: await time((a) => provider.request(a)),
        direct: await time((a) => portholeDevWallet.provider.request(a)),
      }
    })()`)) as { sdk: number[]; direct: number[] }
    await walletContext.close()

    const summary = (samples: number[]) => ({
      median: quantile(samples, 0.5),
      p95: quantile(samples, 0.95),
      p99: quantile(samples, 0.99),
    })
    return {
      beforeClick,
      preloaded: { box: summary(preloaded.box), view: summary(preloaded.view) },
      cold: { box: summary(cold.box), view: summary(cold.view) },
      roundTrip: { ...summary(roundTrips.samples), mean: roundTrips.mean },
      chainId: { sdk: summary(chainId.sdk), direct: summary(chainId.direct) },
    }
  } finally {
    await browser.close()
    await Promise.all(servers.map((s) => new Promise((ok) => s.close(ok))))
  }
}
