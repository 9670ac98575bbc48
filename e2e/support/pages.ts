/**
 * Closing a second page (an approval link, a popup) without the hang Chromium can cause.
 *
 * `page.close()` sends `Target.closeTarget` and waits, with no timeout, for the target to go.
 * When that command meets a navigation being committed (the answer to a form POST, a reload),
 * Chromium acknowledges it and drops it (crbug.com/536385539, microsoft/playwright#42366, open
 * in Playwright 1.65): the page stays open and `page.close()` never returns. A CI run of
 * farcasterAttacks.spec.ts spent its whole 60 s timeout there, 2 ms after the click on a form's
 * Approve button. Closing the target again closes it.
 */
import type { Page } from '@playwright/test'

/** How long one close may take before it is sent again, and how many times it is. */
const RETRY_AFTER_MS = 1_000
const ATTEMPTS = 3

/**
 * Closes `page` and returns once it is closed. If the page is still open {@link RETRY_AFTER_MS}
 * after the close, its target is closed again over CDP (at most {@link ATTEMPTS} times in all);
 * if it still is, this throws and names the page, instead of waiting out the test's timeout.
 *
 * @example
 * await owner.getByRole('button', { name: 'Approve' }).click()
 * await closePage(owner)
 */
export async function closePage(page: Page): Promise<void> {
  if (page.isClosed()) return
  const url = page.url()
  const closed = page.close().then(() => true)
  for (let attempt = 1; ; attempt++) {
    if (await within(closed, RETRY_AFTER_MS)) return
    if (attempt === ATTEMPTS) break
    console.warn(`closePage: ${url} still open after page.close(); closing its target again`)
    // A re-send that fails is caught by the next check: the page is still open, so the loop
    // sends again or throws naming it.
    await closeTarget(page).catch(() => {})
  }
  throw new Error(
    `${url} is still open ${ATTEMPTS} closes later (Chromium dropped Target.closeTarget)`,
  )
}

/** Sends `Target.closeTarget` for `page` again, over a CDP session of its own. */
async function closeTarget(page: Page): Promise<void> {
  const browser = page.context().browser()
  if (!browser) return
  const session = await page.context().newCDPSession(page)
  const { targetInfo } = await session.send('Target.getTargetInfo')
  const root = await browser.newBrowserCDPSession()
  try {
    await root.send('Target.closeTarget', { targetId: targetInfo.targetId })
  } finally {
    // The session goes with the browser's target list; one already detached has nothing to free.
    await root.detach().catch(() => {})
  }
}

/** Whether `promise` resolves within `ms`. */
function within(promise: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}
