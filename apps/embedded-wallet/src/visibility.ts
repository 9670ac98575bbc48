/**
 * Whether the user can really see the whole approval card, at a size they can read. The host page
 * owns every element above this frame (the modal frame, its `<dialog>`, any frame it wraps around
 * them) and can style them; what each signal catches in Chromium (measured, see the README's
 * "Threats"):
 * - IntersectionObserver v2 `isVisible`: something drawn over the card, and opacity, filters,
 *   blend modes and transforms (a `scale()` too) on any element above it, in any frame;
 * - the intersection ratio with the top-level viewport: the card cut by an `overflow` box, a
 *   `clip-path` (its bounding box), `clip`, or the window's edge, in any frame;
 * - the frame's render scale, `min(devicePixelRatio, outerWidth / innerWidth)`: CSS `zoom` on
 *   any element above it (Chromium passes it into the frame's devicePixelRatio and viewport) and
 *   a page laid out wider than the screen;
 * - the pointer's own moves over this frame (screen pixels against this frame's pixels): a zoom
 *   that the first two cannot tell from a high-density screen.
 * A mask (`mask-image`, `mask`), a `clip-path` shape whose bounding box holds the card, and a
 * move of the whole card change none of them: Chromium reports such a frame visible, whole and
 * unscaled. That is why these checks run only on sites the operator vetted
 * (`inlineApprovals.ts`); everywhere else every approval goes to the popup window.
 *
 * Firefox and Safari lack `isVisible`: there nothing counts as visible, and approvals go to a
 * popup window instead.
 */

/** The share of the card that must be on screen: all of it, but for sub-pixel rounding. */
export const MIN_SHOWN = 0.99
/**
 * The smallest render scale at which the card counts as readable: its 12 px text is 9.6 px on
 * screen. Browser zoom counts too: 80 % and 90 % approve in the frame, 75 % and below go to the
 * popup.
 */
export const MIN_SCALE = 0.8
/** How far (in this frame's pixels) the pointer must travel before its moves tell a scale. */
export const POINTER_SPAN = 32
/**
 * The pointer's scale may read this much under {@link MIN_SCALE} (screen coordinates are whole
 * pixels: 1 px in {@link POINTER_SPAN} is 3 %), so that browser zoom at 80 % stays in the frame.
 */
export const POINTER_TOLERANCE = 0.05

/** What the frame knows at one moment: the card's latest IntersectionObserver v2 entry and its own viewport. */
export type Sighting = {
  isIntersecting: boolean
  /** IntersectionObserver v2; `undefined` where the browser lacks it. */
  isVisible: boolean | undefined
  intersectionRatio: number
  devicePixelRatio: number
  /** This frame's viewport width (CSS pixels of this frame). */
  innerWidth: number
  /** The browser window's width (screen pixels); 0 where the browser does not say. */
  outerWidth: number
  /** The scale the pointer's moves over this frame showed, if they showed one. */
  pointerScale?: number | undefined
}

/**
 * The scale at which this frame is drawn: 1 untouched, below 1 when something shrinks it. Both
 * terms are upper bounds of the true scale: devicePixelRatio also carries the screen's density,
 * and the window's width over this frame's is the scale only when the frame spans the window
 * (as the modal does), else more.
 *
 * @example
 * renderScale({ devicePixelRatio: 0.3, innerWidth: 4266, outerWidth: 1280 }) // 0.3
 */
export function renderScale(
  sighting: Pick<Sighting, 'devicePixelRatio' | 'innerWidth' | 'outerWidth'>,
): number {
  const { devicePixelRatio, innerWidth, outerWidth } = sighting
  const spanned = outerWidth > 0 && innerWidth > 0 ? outerWidth / innerWidth : Infinity
  return Math.min(devicePixelRatio, spanned)
}

/**
 * Whether the whole card is visible and readable: nothing over it and no effect on it
 * (`isVisible`), all of it inside the top-level viewport and every clip ({@link MIN_SHOWN}), and
 * drawn at {@link MIN_SCALE} or more.
 *
 * @example
 * seenWhole({ isIntersecting: true, isVisible: true, intersectionRatio: 0.025, ... }) // false: cropped
 */
export function seenWhole(sighting: Sighting): boolean {
  return (
    sighting.isIntersecting &&
    sighting.isVisible === true &&
    sighting.intersectionRatio >= MIN_SHOWN &&
    renderScale(sighting) >= MIN_SCALE &&
    (sighting.pointerScale === undefined || sighting.pointerScale >= MIN_SCALE - POINTER_TOLERANCE)
  )
}

/** Whether this browser reports `isVisible` (IntersectionObserver v2). */
export function visibilitySupported(): boolean {
  return (
    typeof IntersectionObserverEntry !== 'undefined' &&
    'isVisible' in IntersectionObserverEntry.prototype
  )
}

/** The parts of a pointer move {@link pointerScaleMeter} reads. */
export type PointerMove = Pick<
  PointerEvent,
  'pointerType' | 'clientX' | 'clientY' | 'screenX' | 'screenY'
>

/** What {@link pointerScaleMeter} returns. */
export type PointerScaleMeter = {
  /** Takes one pointer move; the scale, once the moves tell one. */
  move(event: PointerMove): number | undefined
  /** Forgets the moves so far: the next move starts a new stretch. */
  reset(): void
  readonly scale: number | undefined
}

/**
 * Measures the scale the pointer's moves show: screen pixels travelled over this frame's pixels
 * travelled, from the first move of a stretch to the latest one at least {@link POINTER_SPAN}
 * away (a zoom scales every stretch alike, whatever its path). Mouse and pen only: a touch has
 * no moves before it lands.
 *
 * @example
 * const meter = pointerScaleMeter()
 * addEventListener('pointermove', (event) => meter.move(event))
 */
export function pointerScaleMeter(): PointerScaleMeter {
  let anchor: PointerMove | undefined
  let scale: number | undefined
  return {
    move(event) {
      if (event.pointerType !== 'mouse' && event.pointerType !== 'pen') return scale
      if (!anchor) {
        anchor = event
        return scale
      }
      const client = Math.hypot(event.clientX - anchor.clientX, event.clientY - anchor.clientY)
      if (client < POINTER_SPAN) return scale
      scale = Math.hypot(event.screenX - anchor.screenX, event.screenY - anchor.screenY) / client
      return scale
    },
    reset() {
      anchor = undefined
      scale = undefined
    },
    get scale() {
      return scale
    },
  }
}

/**
 * Calls `onChange` with whether the whole card is visible and readable ({@link seenWhole})
 * whenever anything it depends on changes: the card's IntersectionObserver v2 entry (at most
 * every 100 ms), this frame's size or pixel ratio (a zoom above it changes both), or pointer
 * moves that show the frame shrunk. Always `false` where IntersectionObserver v2 is missing.
 * Returns the function that stops it.
 *
 * @example
 * const stop = observeVisibility(card, (visible) => setArmed(visible))
 */
export function observeVisibility(
  target: Element,
  onChange: (visible: boolean) => void,
): () => void {
  if (!visibilitySupported()) {
    onChange(false)
    return () => {}
  }
  let entry: Pick<Sighting, 'isIntersecting' | 'isVisible' | 'intersectionRatio'> | undefined
  const meter = pointerScaleMeter()
  let shown = false
  const report = () => {
    shown =
      entry !== undefined &&
      seenWhole({
        ...entry,
        devicePixelRatio,
        innerWidth,
        outerWidth,
        pointerScale: meter.scale,
      })
    onChange(shown)
  }
  // Any change of what the frame knows starts over: the moves made before it say nothing of now.
  const changed = () => {
    meter.reset()
    report()
  }
  const observer = new IntersectionObserver(
    (entries) => {
      const last = entries.at(-1) as
        | (IntersectionObserverEntry & { isVisible?: boolean })
        | undefined
      if (!last) return
      entry = {
        isIntersecting: last.isIntersecting,
        isVisible: last.isVisible,
        intersectionRatio: last.intersectionRatio,
      }
      changed()
    },
    {
      threshold: [0, MIN_SHOWN, 1],
      trackVisibility: true,
      delay: 100,
    } as IntersectionObserverInit,
  )
  observer.observe(target)
  // A zoom above the frame changes its devicePixelRatio (and its size): a media query on the
  // current ratio says when, and is made again for the new one.
  let resolution: MediaQueryList | undefined
  const watchResolution = () => {
    resolution?.removeEventListener('change', onResolution)
    resolution = matchMedia(`(resolution: ${devicePixelRatio}dppx)`)
    resolution.addEventListener('change', onResolution)
  }
  const onResolution = () => {
    watchResolution()
    changed()
  }
  watchResolution()
  const onMove = (event: PointerEvent) => {
    const before = meter.scale
    const scale = meter.move(event)
    // Only a verdict that turns matters: a new "visible" would restart the arming delay.
    if (shown && scale !== before && scale !== undefined && scale < MIN_SCALE - POINTER_TOLERANCE)
      report()
  }
  // The pointer left this document: the frame may move before it comes back.
  const onOut = (event: PointerEvent) => {
    if (event.relatedTarget === null) meter.reset()
  }
  addEventListener('resize', changed)
  addEventListener('pointermove', onMove, { capture: true, passive: true })
  addEventListener('pointerout', onOut, { capture: true, passive: true })
  return () => {
    observer.disconnect()
    resolution?.removeEventListener('change', onResolution)
    removeEventListener('resize', changed)
    removeEventListener('pointermove', onMove, { capture: true })
    removeEventListener('pointerout', onOut, { capture: true })
  }
}
