/**
 * Embedded-wallet benchmarks on the real stack in Debian's Chromium: the wallet frame's
 * first-load bytes, e-mail login to connected without the human's time (submit → code view,
 * the code's input event → connected), Approve click → signature in the host page, and a returning
 * visitor's restore (the page loaded again → connected, no click).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { chromiumLaunchOptions } from '@porthole/local-stack/chromium'
import { chromium, type Page } from 'playwright-core'
import { BENCH_ORIGIN, MODAL_ORIGIN, serve, URLS } from './browser.js'
import { brotli } from './sdkSize.js'
import { quantile } from './stats.js'

const WALLET_ORIGIN = new URL(URLS.wallet).origin
const MAIL_URL = URLS.mail
const LOGINS = 5
const SIGNATURES = 20
const RESTORES = 8

async function waitForCode(email: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const response = await fetch(`${MAIL_URL}/messages?to=${encodeURIComponent(email)}`)
    const [mail] = (await response.json()) as { subject: string }[]
    const code = /(\d{6})/.exec(mail?.subject ?? '')?.[1]
    if (code) return code
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`No code mailed to ${email}`)
}

const modal = (page: Page) => page.frameLocator('iframe[title="Connect a wallet"]')
const wallet = (page: Page) => modal(page).frameLocator('iframe[title="Porthole embedded wallet"]')

/** One login on a fresh context; returns the two machine intervals and the page (still open). */
export async function login(page: Page, email: string, typingMs: number) {
  await page.goto(BENCH_ORIGIN)
  await page.waitForFunction('window.porthole && window.porthole.getState().caipNetworkId')
  await page.evaluate(`window.__connected = new Promise((done) => {
    const off = porthole.subscribe((s) => { if (s.status === 'connected') { off(); done(performance.now()) } })
  }); porthole.connect(); undefined`)
  const field = modal(page).getByRole('textbox', { name: 'Email' })
  await field.fill(email)
  // A person types for a while: the first keystroke already started the wallet frame's load.
  if (typingMs) await page.waitForTimeout(typingMs)
  const codeField = modal(page).getByRole('textbox', { name: 'Verification code' })
  const t0 = performance.now()
  await field.press('Enter')
  await codeField.waitFor()
  const toCodeView = performance.now() - t0
  const code = await waitForCode(email)
  // From the code's input event in the modal (the keystroke as the page gets it), not from the
  // driver's command: Playwright's checks before it types are no one's wait.
  const frame = page.frames().find((f) => f.url().startsWith(`${MODAL_ORIGIN}/`))
  if (!frame) throw new Error('The modal frame is not loaded')
  await frame.evaluate(() => {
    const field = document.querySelector('input[autocomplete="one-time-code"]') ?? document
    field.addEventListener(
      'input',
      () => {
        ;(window as unknown as { __codeAt: number }).__codeAt =
          performance.timeOrigin + performance.now()
      },
      { capture: true, once: true },
    )
  })
  await codeField.fill(code)
  const connectedAt = (await page.evaluate('window.__connected')) as number
  const codeAt = (await frame.evaluate('window.__codeAt')) as number
  const origin = (await page.evaluate('performance.timeOrigin')) as number
  return { toCodeView, toConnected: connectedAt - (codeAt - origin) }
}

/**
 * The signer Worker's script as the server sends it to a browser that accepts brotli (the
 * build's precompressed `.br`, else brotli 11 of the file): Playwright does not report a
 * dedicated worker's fetch as a request of the page, so it is read from the build output.
 */
function workerBytes(root: string): number {
  const dir = resolve(root, 'apps/embedded-wallet/dist/assets')
  const file = readdirSync(dir).find((f) => f.startsWith('signer.worker-') && f.endsWith('.js'))
  if (!file) return 0
  const path = resolve(dir, file)
  return existsSync(`${path}.br`) ? statSync(`${path}.br`).size : brotli(readFileSync(path))
}

/** The frame's first load as built: its document and the files `dist/index.html` names. */
function eagerFiles(root: string): Set<string> {
  const html = readFileSync(resolve(root, 'apps/embedded-wallet/dist/index.html'), 'utf8')
  return new Set([
    '/',
    ...[...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1] as string),
  ])
}

/**
 * A returning visitor: the same browser loads the page of `page` (signed in with the embedded
 * wallet) again, `reloads` times; the session is restored without a click. From the load event
 * (and from navigation start) to the first state the page sees as connected, its address known;
 * also when the load event came (the wallet frame must not hold it back).
 */
export async function restoreTimes(page: Page, reloads: number) {
  const afterLoad: number[] = []
  const fromNavigation: number[] = []
  const load: number[] = []
  for (let i = 0; i < reloads; i++) {
    await page.reload()
    await page.waitForFunction('window.__connectedAt !== undefined', undefined, {
      timeout: 20_000,
    })
    const sample = (await page.evaluate(`(() => {
      const n = performance.getEntriesByType('navigation')[0]
      return { connected: window.__connectedAt, load: n.loadEventStart }
    })()`)) as { connected: number; load: number }
    afterLoad.push(Math.max(0, sample.connected - sample.load))
    fromNavigation.push(sample.connected)
    load.push(sample.load)
  }
  return { afterLoad, fromNavigation, load }
}

/**
 * Only the returning visitor's restore (`npm run bench -- restore`): one e-mail login, then
 * `reloads` reloads of the page; the stack must be up and the bench origin allowed.
 */
export async function restoreBenchmark(reloads: number) {
  const servers = await serve()
  const browser = await chromium.launch(chromiumLaunchOptions)
  try {
    const page = await (await browser.newContext()).newPage()
    await login(page, `restore-${Math.random().toString(36).slice(2, 8)}@ph.test`, 0)
    return await restoreTimes(page, reloads)
  } finally {
    await browser.close()
    for (const server of servers) server.close()
  }
}

/** Runs the embedded-wallet benchmarks; the stack must be up and the bench origin allowed. */
export async function embeddedBenchmarks(root: string) {
  const servers = await serve()
  const browser = await chromium.launch(chromiumLaunchOptions)
  try {
    const codeView: number[] = []
    const codeViewTyped: number[] = []
    const connected: number[] = []
    let frameLoad = {
      requests: 0,
      brotli: 0,
      transferred: 0,
      files: [] as { url: string; brotli: number }[],
      signIn: { requests: 0, brotli: 0, files: [] as string[] },
    }
    let signing: Page | undefined
    let signingAddress = ''
    for (let i = 0; i < LOGINS; i++) {
      const context = await browser.newContext()
      const page = await context.newPage()
      const loaded: { url: string; transferred: number; brotli: number }[] = []
      context.on('requestfinished', (request) => {
        if (!request.url().startsWith(WALLET_ORIGIN)) return
        // Late events of a closed context are dropped (only the first login is measured).
        void (async () => {
          const sizes = await request.sizes()
          // As sent: the encoded body (what `brotli` names here) and with its headers.
          loaded.push({
            url: request.url().replace(/\?.*$/, ''),
            transferred: sizes.responseBodySize + sizes.responseHeadersSize,
            brotli: sizes.responseBodySize,
          })
        })().catch(() => {})
      })
      const email = `bench-${i}-${Math.random().toString(36).slice(2, 8)}@ph.test`
      const sample = await login(page, email, 0)
      codeView.push(sample.toCodeView)
      connected.push(sample.toConnected)
      if (i === 0) {
        // The first load is the frame's document and what it names; the rest (the account's
        // code, warmed once the sign-in starts) is reported apart.
        const eager = eagerFiles(root)
        const first = loaded.filter((r) => eager.has(new URL(r.url).pathname))
        const later = loaded.filter((r) => !eager.has(new URL(r.url).pathname))
        frameLoad = {
          requests: first.length,
          brotli: first.reduce((s, r) => s + r.brotli, 0),
          transferred: first.reduce((s, r) => s + r.transferred, 0),
          files: first
            .map(({ url, brotli }) => ({ url, brotli }))
            .sort((a, b) => b.brotli - a.brotli),
          signIn: {
            requests: later.length,
            brotli: later.reduce((s, r) => s + r.brotli, 0),
            files: later.map(({ url }) => url),
          },
        }
      }
      if (i === LOGINS - 1) {
        signing = page
        signingAddress = (await page.evaluate('porthole.getState().address')) as string
      } else await context.close()
    }

    // The same with 1.5 s of typing before Enter (the frame loads meanwhile).
    for (let i = 0; i < LOGINS; i++) {
      const context = await browser.newContext()
      const email = `typed-${i}-${Math.random().toString(36).slice(2, 8)}@ph.test`
      codeViewTyped.push((await login(await context.newPage(), email, 1500)).toCodeView)
      await context.close()
    }

    // Approve click (in the wallet frame) → signature resolved in the host page.
    const page = signing as Page
    const approveToSignature: number[] = []
    const frame = page.frames().find((f) => f.url().startsWith(WALLET_ORIGIN))
    if (!frame) throw new Error('The wallet frame is not loaded')
    // The click's time is taken in the wallet frame itself, in the capture phase.
    await frame.evaluate(
      `addEventListener('click', () => { window.__clickAt = performance.timeOrigin + performance.now() }, true)`,
    )
    for (let i = 0; i < SIGNATURES; i++) {
      const message = `0x${Buffer.from(`bench ${i}`).toString('hex')}`
      await page.evaluate(`window.__signed = porthole.getProvider('eip155')
        .request({ method: 'personal_sign', params: ['${message}', '${signingAddress}'] })
        .then(() => performance.timeOrigin + performance.now()); undefined`)
      const approve = wallet(page).getByRole('button', { name: 'Approve' })
      await approve.click()
      const signedAt = (await page.evaluate('window.__signed')) as number
      const clickAt = (await frame.evaluate('window.__clickAt')) as number
      approveToSignature.push(signedAt - clickAt)
      await page.waitForTimeout(50)
    }
    const restore = await restoreTimes(page, RESTORES)
    const summary = (samples: number[]) => ({
      n: samples.length,
      median: quantile(samples, 0.5),
      p95: quantile(samples, 0.95),
    })
    return {
      frameLoad: { ...frameLoad, workerBrotli: workerBytes(root) },
      toCodeView: summary(codeView),
      toCodeViewTyped: summary(codeViewTyped),
      toConnected: summary(connected),
      approveToSignature: summary(approveToSignature),
      restore,
    }
  } finally {
    await browser.close()
    for (const server of servers) server.close()
  }
}
