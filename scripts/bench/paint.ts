/**
 * What the screen showed, frame by frame: a CDP screencast of the page's composited output (both
 * frames as the user sees them), each frame stamped with the time it was drawn. A bench reads
 * from it the first frame after a click in which the modal's card is on screen, so the figure
 * does not depend on any probe inside the modal.
 */
import jpeg from 'jpeg-js'
import type { CDPSession, Page } from 'playwright-core'

/** One composited frame: when it was drawn (epoch ms) and its pixels. */
type ScreenFrame = { at: number; data: Buffer }

/** A running screencast of `page`. */
export type Screencast = {
  /** Frames drawn after `since` (epoch ms), oldest first. */
  framesAfter(since: number): ScreenFrame[]
  stop(): Promise<void>
}

/**
 * Starts a screencast of every drawn frame.
 *
 * @example
 * const cast = await startScreencast(page)
 */
export async function startScreencast(page: Page): Promise<Screencast> {
  const cdp: CDPSession = await page.context().newCDPSession(page)
  const frames: ScreenFrame[] = []
  cdp.on('Page.screencastFrame', (event) => {
    const timestamp = event.metadata.timestamp
    if (timestamp !== undefined)
      frames.push({ at: timestamp * 1000, data: Buffer.from(event.data, 'base64') })
    void cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => {})
  })
  await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 80, everyNthFrame: 1 })
  return {
    framesAfter: (since) => frames.filter((f) => f.at > since).sort((a, b) => a.at - b.at),
    async stop() {
      await cdp.send('Page.stopScreencast').catch(() => {})
      await cdp.detach().catch(() => {})
    },
  }
}

/** An RGB colour. */
export type Rgb = readonly [number, number, number]

/**
 * Whether the frame shows `color` (within `tolerance` per channel) at every point of `points`,
 * given as fractions of the frame's width and height.
 *
 * @example
 * shows(frame, [[0.5, 0.3]], [0x19, 0x1a, 0x1a])
 */
export function shows(
  frame: ScreenFrame,
  points: readonly (readonly [number, number])[],
  color: Rgb,
  tolerance = 12,
): boolean {
  const image = jpeg.decode(frame.data, { useTArray: true })
  return points.every(([fx, fy]) => {
    const x = Math.min(image.width - 1, Math.round(fx * image.width))
    const y = Math.min(image.height - 1, Math.round(fy * image.height))
    const i = (y * image.width + x) * 4
    return color.every((c, k) => Math.abs((image.data[i + k] as number) - c) <= tolerance)
  })
}
