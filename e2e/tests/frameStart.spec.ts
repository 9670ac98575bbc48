/**
 * A frame whose small early script ran (and posted `ready`) but whose own code never started:
 * its script failed to load, or threw. Since issue 26 the early script begins the handshake, so
 * the parent no longer waits for a `ready` that never comes; the early script refuses the
 * parent's `hello` instead (@porthole/protocol/announce), and the visitor and the dapp hear the
 * frame's load failure, not a 'Handshake timed out' 20 s later.
 */
import type { Page, Route } from '@playwright/test'
import { freshEmail, startEmailConnect } from '../support/embedded.js'
import { DEMO_URL, expect, modal, state, test, URLS, waitForPorthole } from '../support/fixtures.js'

/** Answers a frame's app script (`/assets/index-*.js`, not its early script) with `answer`. */
async function breakAppScript(
  page: Page,
  origin: string,
  answer: (route: Route) => Promise<void>,
): Promise<void> {
  await page.route(
    (url) => url.origin === origin && /^\/assets\/index-[^/]+\.js$/.test(url.pathname),
    answer,
  )
}

const connectFailure = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { porthole: { connect(): Promise<unknown> } }).porthole.connect().then(
      () => 'resolved',
      (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
    ),
  )

test("the modal's app script fails to load: connect() rejects with the load failure", async ({
  page,
}) => {
  await breakAppScript(page, URLS.modal, (route) => route.abort('connectionrefused'))
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  expect(await connectFailure(page)).toEqual({
    code: 4100,
    message: 'Network Error - Could not load the modal',
  })
  expect(await state(page)).toMatchObject({
    error: { message: 'Network Error - Could not load the modal' },
  })
})

test("the modal's app script throws before it starts: connect() rejects with the load failure", async ({
  page,
}) => {
  await breakAppScript(page, URLS.modal, (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: 'throw new Error("broken build")',
    }),
  )
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  expect(await connectFailure(page)).toEqual({
    code: 4100,
    message: 'Network Error - Could not load the modal',
  })
})

test("the wallet frame's app script fails to load: 'Network Error - Could not load embedded wallet', well before the 20 s load timeout", async ({
  page,
}) => {
  await breakAppScript(page, URLS.wallet, (route) => route.abort('connectionrefused'))
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  await startEmailConnect(page, freshEmail('nostart'))
  // 10 s, not the 20 s after which the modal gives up on a frame that never answers: the
  // wallet's early script refused the modal's hello as soon as the app script failed.
  await expect(modal(page).getByTestId('alert')).toHaveText(
    'Network Error - Could not load embedded wallet',
    { timeout: 10_000 },
  )
})
