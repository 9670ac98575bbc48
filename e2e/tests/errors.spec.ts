/**
 * AppKit's error contract (issue 27 item 6, spec §8 "Errors"): each error a host can be given is
 * provoked here the way it happens — bad input through the SDK's API, a refused request, a file
 * of the modal that cannot be fetched, the wallet frame gone — in Chromium against the local
 * stack, and the host checks the code and the exact message it receives (hosts match on them).
 * README.md "Errors a host can receive" lists every one with its test.
 */
import type { Page } from '@playwright/test'
import { admin, emailLogin, freshEmail, inbox } from '../support/embedded.js'
import { DEMO_URL, expect, modal, state, test, URLS, waitForPorthole } from '../support/fixtures.js'
import { startHostPage } from '../support/hostPage.js'

type Outcome = {
  value?: unknown
  error?: { code: number; message: string; data?: unknown }
}

/** Runs `call` (an expression on `porthole`) in the page; its value or its error's wire form. */
function outcome(page: Page, call: string): Promise<Outcome> {
  return page.evaluate(`(async () => {
    try {
      return { value: await (${call}) }
    } catch (error) {
      return { error: { code: error.code, message: error.message, data: error.data } }
    }
  })()`) as Promise<Outcome>
}

/** A host page of its own: the one script tag, the devnet only, and these `data-*` attributes. */
const hostHtml = (attributes = '') => `<!doctype html><html><head><title>Errors host</title>
<script src="${URLS.modal}/sdk.js" data-project-id="porthole-demo" data-networks="eip155:31337" ${attributes}></script></head>
<body><h1>Errors host</h1></body></html>`

/** Ports of this file's host pages (away from the other files' fixed ones). */
const PORTS = { evmOnly: 4093, noEmbedded: 4094 }

/** Fails every fetch of a modal file whose text contains `marker` (the rest load as ever). */
async function failChunk(page: Page, marker: RegExp | string): Promise<string[]> {
  const failed: string[] = []
  await page.route(`${URLS.modal}/assets/*.js`, async (route) => {
    const response = await route.fetch()
    const body = await response.text()
    const hit =
      typeof marker === 'string' ? body.includes(marker) : marker.test(route.request().url())
    if (!hit) return route.fulfill({ response, body })
    failed.push(route.request().url())
    return route.abort('connectionrefused')
  })
  return failed
}

test.describe('errors a host receives through the SDK (spec §8)', () => {
  test("connect({ email }) on a project with neither e-mail nor social login: 'No auth connector found' (4200), and no code is mailed", async ({
    page,
  }) => {
    const host = await startHostPage(
      PORTS.noEmbedded,
      null,
      'localhost',
      hostHtml(`data-features='{"email":false,"socials":false}'`),
    )
    admin('project', 'allow', 'porthole-demo', host.url)
    try {
      await page.goto(host.url)
      await waitForPorthole(page)
      const email = freshEmail('noauth')
      expect(await outcome(page, `porthole.connect({ email: '${email}' })`)).toEqual({
        error: { code: 4200, message: 'No auth connector found' },
      })
      expect(await inbox(email)).toEqual([])
    } finally {
      admin('project', 'deny', 'porthole-demo', host.url)
      await host.close()
    }
  })

  test("connect({ namespace }) and solana_requestAccounts on a page with EVM networks only: 'Chain adapter not found' (-32602); the modal does not open", async ({
    page,
  }) => {
    const host = await startHostPage(PORTS.evmOnly, null, 'localhost', hostHtml())
    admin('project', 'allow', 'porthole-demo', host.url)
    try {
      await page.goto(host.url)
      await waitForPorthole(page)
      expect(await outcome(page, `porthole.connect({ namespace: 'solana' })`)).toEqual({
        error: { code: -32602, message: 'Chain adapter not found' },
      })
      expect(
        await outcome(
          page,
          `porthole.getProvider('solana').request({ method: 'solana_requestAccounts' })`,
        ),
      ).toEqual({ error: { code: -32602, message: 'Chain adapter not found' } })
      expect(await state(page)).toMatchObject({ open: false, status: 'disconnected' })
      // The namespace the host configured still connects through the modal as ever.
      const evm = outcome(page, `porthole.connect({ namespace: 'eip155' })`)
      await expect(modal(page).getByRole('heading', { name: 'Connect Wallet' })).toBeVisible()
      await page.evaluate('porthole.close()')
      expect((await evm).error).toMatchObject({ code: 4001, message: 'Modal closed' })
    } finally {
      admin('project', 'deny', 'porthole-demo', host.url)
      await host.close()
    }
  })

  test('bad input through the SDK API: each refusal has its code and exact message, and nothing opens', async ({
    page,
  }) => {
    const host = await startHostPage(PORTS.evmOnly, null, 'localhost', hostHtml())
    admin('project', 'allow', 'porthole-demo', host.url)
    try {
      await page.goto(host.url)
      await waitForPorthole(page)
      const cases: [string, Outcome['error']][] = [
        [
          `porthole.connect({ wallet: 'no.such.wallet' })`,
          { code: -32602, message: 'Wallet not found: no.such.wallet' },
        ],
        [
          `porthole.connect({ email: 'not-an-address' })`,
          { code: -32602, message: 'Enter a valid e-mail address' },
        ],
        [`porthole.switchNetwork('eip155:999999')`, { code: -32603, message: 'Network not found' }],
        [
          `porthole.getProvider('eip155').request({ method: 'personal_sign', params: ['0x00', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'] })`,
          { code: 4100, message: 'Not connected' },
        ],
        [
          `Promise.resolve().then(() => porthole.getProvider('tron'))`,
          { code: -32603, message: 'Unsupported chain namespace' },
        ],
      ]
      for (const [call, error] of cases) {
        const result = await outcome(page, call)
        console.log(`${call} → ${JSON.stringify(result)}`)
        expect(result).toEqual({ error })
      }
      expect(await state(page)).toMatchObject({ open: false, status: 'disconnected' })
      // After destroy() every call is refused (4900) instead of waiting for a modal that is gone.
      await page.evaluate('porthole.destroy()')
      expect(await outcome(page, 'porthole.connect()')).toEqual({
        error: { code: 4900, message: 'Porthole instance destroyed' },
      })
    } finally {
      admin('project', 'deny', 'porthole-demo', host.url)
      await host.close()
    }
  })

  test("WalletConnect's code cannot be fetched: connect({ wallet: 'walletConnect' }) rejects 'WalletConnectConnector not found' (-32002)", async ({
    page,
  }) => {
    // The universal provider's chunk is the one holding its storage prefix.
    const failed = await failChunk(page, 'universal_provider')
    await page.goto(DEMO_URL)
    await waitForPorthole(page)
    expect(await outcome(page, `porthole.connect({ wallet: 'walletConnect' })`)).toEqual({
      error: { code: -32002, message: 'WalletConnectConnector not found' },
    })
    expect(failed.length).toBeGreaterThan(0)
    // Chunks still being fetched as the test ends (the modal preloads views when idle).
    await page.unrouteAll({ behavior: 'ignoreErrors' })
  })

  test("the e-mail code entry's code cannot be fetched: connect({ email }) rejects 'Unable to load email login dependency' (-32002) and no code is mailed", async ({
    page,
  }) => {
    const failed = await failChunk(page, /\/EmailSteps-[^/]*\.js$/)
    await page.goto(DEMO_URL)
    await waitForPorthole(page)
    const email = freshEmail('nodep')
    expect(await outcome(page, `porthole.connect({ email: '${email}' })`)).toEqual({
      error: { code: -32002, message: 'Unable to load email login dependency' },
    })
    expect(failed.length).toBeGreaterThan(0)
    expect(await inbox(email)).toEqual([])
    await page.unrouteAll({ behavior: 'ignoreErrors' })
  })

  test("a sign-out the API never hears: disconnect() rejects 'Failed to disconnect' (-32603) naming the chain, and the dapp is disconnected all the same", async ({
    page,
  }) => {
    await page.goto(DEMO_URL)
    await waitForPorthole(page)
    await emailLogin(page, freshEmail('discfail'))
    await page.route('**/auth/v1/logout?**', (route) => route.abort('connectionrefused'))
    const result = await outcome(page, 'porthole.disconnect()')
    console.log(`disconnect() with the API unreachable: ${JSON.stringify(result)}`)
    expect(result.error).toMatchObject({
      code: -32603,
      message: 'Failed to disconnect',
      data: { cause: { message: expect.stringMatching(/^Failed to disconnect chains: eip155/) } },
    })
    expect(await state(page)).toMatchObject({ status: 'disconnected', address: null })
    // The user sees why in the modal (issue 25's alert, with Try again).
    await expect(modal(page).getByTestId('alert')).toContainText(
      'Signed out on this device, but the sign-out did not reach the server',
    )
  })
})
