/**
 * Waits for a page's network to settle, in place of Playwright's `networkidle` load state.
 *
 * `networkidle` is reached at most once per navigation and never if one request in any frame
 * stays open from the page's load on: a CI run waited the whole test timeout on it and said
 * nothing of the request. This tracker counts the page's requests (all frames, out-of-process
 * ones too) from the moment it is attached, and `settled()` returns once none is open and none
 * has started for `quietMs`. After `timeoutMs` it returns anyway and names what is still open,
 * so a test that only needed the page to have asked for what it asks for goes on to its real
 * assertions, and the log says which request never ended.
 */
import type { Page, Request } from '@playwright/test'

export type RequestTracker = {
  /** Resolves once the page has been quiet for `quietMs`; the still-open URLs after a timeout. */
  settled(options?: { quietMs?: number; timeoutMs?: number }): Promise<string[]>
}

/** Attach before `page.goto` so the load's own requests are counted. */
export function trackRequests(page: Page): RequestTracker {
  const open = new Set<Request>()
  let lastChange = Date.now()
  page.on('request', (request) => {
    open.add(request)
    lastChange = Date.now()
  })
  const ended = (request: Request) => {
    open.delete(request)
    lastChange = Date.now()
  }
  page.on('requestfinished', ended)
  page.on('requestfailed', ended)
  return {
    async settled({ quietMs = 500, timeoutMs = 15_000 } = {}) {
      const deadline = Date.now() + timeoutMs
      while (Date.now() < deadline) {
        if (open.size === 0 && Date.now() - lastChange >= quietMs) return []
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const still = [...open].map((request) => `${request.method()} ${request.url()}`)
      console.warn(
        `The page's network did not settle in ${timeoutMs} ms; open: ${still.join(', ')}`,
      )
      return still
    },
  }
}
