/**
 * Accessibility checks in Chromium: axe-core's WCAG A and AA rules run inside the modal frame
 * and a shown wallet frame (a11y.spec.ts, and any spec that draws a view of its own).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from '@playwright/test'
import { expect, MODAL_ORIGIN, URLS } from './fixtures.js'

/** WCAG 2.0, 2.1 and 2.2, levels A and AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']
const WALLET_ORIGIN = URLS.wallet

/**
 * axe-core itself (the engine of `@axe-core/playwright`), run inside each frame. The builder's own
 * walk through nested frames leaves out, without a word, a frame it could not prepare within a
 * second (the wallet frame inside the modal frame): a scan that skips the approval card would
 * pass whatever the card looks like.
 */
const AXE_SOURCE = readFileSync(
  createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve(
    'axe-core/axe.min.js',
  ),
  'utf8',
)

/** The modal frame and, when it is shown, the wallet frame. */
export function frames(page: Page) {
  return page
    .frames()
    .filter((f) => f.url().startsWith(`${MODAL_ORIGIN}/`) || f.url().startsWith(WALLET_ORIGIN))
}

/** Waits until no finite animation runs in the frames (a colour is read mid-fade otherwise). */
export async function settle(page: Page): Promise<void> {
  for (const frame of frames(page))
    await frame.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
          // A cancelled animation rejects `finished`: it no longer runs, which is all we wait for.
          .map((a) => a.finished.catch(() => {})),
      ),
    )
}

/** An axe rule a frame breaks, and where. */
export type Violation = {
  id: string
  frame: string
  nodes: { target: string[]; summary: string }[]
}

/** Runs axe-core's WCAG A and AA rules in the modal frame and in a shown wallet frame. */
export async function axe(page: Page): Promise<Violation[]> {
  await settle(page)
  const found: Violation[] = []
  for (const frame of frames(page)) {
    if (frame.url().startsWith(WALLET_ORIGIN)) {
      const shown = await frame.evaluate(() => document.querySelector('.pw-card') !== null)
      if (!shown) continue
    }
    await frame.evaluate(AXE_SOURCE)
    const violations = await frame.evaluate(async (tags) => {
      type Results = {
        violations: { id: string; nodes: { target: string[]; failureSummary: string }[] }[]
      }
      const { axe } = window as unknown as {
        axe: { run(context: Document, options: object): Promise<Results> }
      }
      const results = await axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        // Headings in order too (a best-practice rule, not a success criterion of its own).
        rules: { 'heading-order': { enabled: true } },
        iframes: false,
      })
      return results.violations.map((v) => ({
        id: v.id,
        nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary })),
      }))
    }, WCAG_TAGS)
    for (const v of violations) found.push({ ...v, frame: new URL(frame.url()).host })
  }
  return found
}

/** Expects axe to find nothing on the view on screen (soft: every view of a test is reported). */
export async function expectAccessible(page: Page, view: string): Promise<void> {
  const found = await axe(page)
  const report = found
    .map(
      (v) => `${v.frame} ${v.id}: ${v.nodes.map((n) => `${n.target} (${n.summary})`).join('; ')}`,
    )
    .join('\n')
  expect.soft(found, `${view}\n${report}`).toEqual([])
}
