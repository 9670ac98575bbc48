import { describe, expect, test } from 'vitest'
import {
  MIN_SCALE,
  type PointerMove,
  pointerScaleMeter,
  renderScale,
  type Sighting,
  seenWhole,
} from './visibility.js'

/** An untouched page: what the wallet frame reported in Chromium 156 (1280 × 720, density 1). */
const untouched: Sighting = {
  isIntersecting: true,
  isVisible: true,
  intersectionRatio: 1,
  devicePixelRatio: 1,
  innerWidth: 1280,
  outerWidth: 1280,
}

// What the nested wallet frame (host → modal origin → wallet origin) reported in Chromium 156
// when the host did each of these to the modal frame (README "Threats"); "(derived)" rows are
// worked out from those numbers, for what headless Chromium cannot do (browser zoom, phones).
const measured: [string, Partial<Sighting>, boolean][] = [
  ['nothing', {}, true],
  ['opacity 0.5', { isVisible: false }, false],
  ['transform: scale(0.3)', { isVisible: false }, false],
  ['a popover drawn over it', { isVisible: false }, false],
  ['clip-path: inset() around Approve', { intersectionRatio: 0.025 }, false],
  ['an overflow: hidden box around Approve', { intersectionRatio: 0.025 }, false],
  ['half of the card off the window (derived)', { intersectionRatio: 0.5 }, false],
  ['zoom 0.3', { devicePixelRatio: 0.3, innerWidth: 4266 }, false],
  ['zoom 0.5', { devicePixelRatio: 0.5, innerWidth: 2560 }, false],
  ['zoom 0.3 on a screen of density 2', { devicePixelRatio: 0.6, innerWidth: 4266 }, false],
  [
    'a phone page without a viewport tag (980 px drawn on 412) (derived)',
    { innerWidth: 980, outerWidth: 412, devicePixelRatio: 2.625 },
    false,
  ],
  ['browser zoom 90 % (derived)', { devicePixelRatio: 0.9, innerWidth: 1422 }, true],
  ['browser zoom 75 % (derived)', { devicePixelRatio: 0.75, innerWidth: 1707 }, false],
  ['zoom 2 (larger), the card still whole', { devicePixelRatio: 2, innerWidth: 640 }, true],
  ['devtools docked beside the page (derived)', { innerWidth: 900 }, true],
  // What the frame cannot tell from untouched (README "Threats"): a mask, and zoom 0.5 on a frame
  // narrowed to half the window on a screen of density 2, unless the pointer's moves show it.
  ['mask-image around Approve', {}, true],
  ['zoom 0.5 on a half-width frame, density 2', { devicePixelRatio: 1 }, true],
  ['the same, with the pointer moved over it', { devicePixelRatio: 1, pointerScale: 0.5 }, false],
  [
    'a pointer at browser zoom 80 % (derived)',
    { devicePixelRatio: 0.8, innerWidth: 1600, pointerScale: 0.78 },
    true,
  ],
  ['no IntersectionObserver v2 (derived)', { isVisible: undefined }, false],
]

describe('seenWhole', () => {
  for (const [name, change, expected] of measured)
    test(`${expected ? 'arms' : 'refuses'}: ${name}`, () => {
      expect(seenWhole({ ...untouched, ...change })).toBe(expected)
    })
})

describe('renderScale', () => {
  test('is the smaller of the pixel ratio and the window over the frame', () => {
    expect(renderScale({ devicePixelRatio: 0.3, innerWidth: 4266, outerWidth: 1280 })).toBeCloseTo(
      0.3,
    )
    expect(renderScale({ devicePixelRatio: 2, innerWidth: 2560, outerWidth: 1280 })).toBe(0.5)
  })
  test('ignores a window width the browser does not give', () => {
    expect(renderScale({ devicePixelRatio: 1, innerWidth: 1280, outerWidth: 0 })).toBe(1)
  })
})

const move = (screenX: number, clientX: number, pointerType = 'mouse'): PointerMove => ({
  pointerType,
  screenX,
  screenY: 300,
  clientX,
  clientY: 200,
})

describe('pointerScaleMeter', () => {
  test('tells nothing before the pointer has travelled far enough', () => {
    const meter = pointerScaleMeter()
    meter.move(move(100, 100))
    expect(meter.move(move(110, 120))).toBeUndefined()
  })
  test('reads a zoom of 0.5: 20 screen pixels for 40 of the frame', () => {
    const meter = pointerScaleMeter()
    meter.move(move(100, 100))
    expect(meter.move(move(120, 140))).toBeCloseTo(0.5)
  })
  test('reads 1 on an untouched frame, and starts over after reset', () => {
    const meter = pointerScaleMeter()
    meter.move(move(100, 300))
    expect(meter.move(move(160, 360))).toBe(1)
    meter.reset()
    expect(meter.scale).toBeUndefined()
    meter.move(move(500, 100))
    expect(meter.move(move(520, 140))).toBeCloseTo(0.5)
    expect(meter.scale).toBeLessThan(MIN_SCALE)
  })
  test('ignores touches (no moves before they land)', () => {
    const meter = pointerScaleMeter()
    meter.move(move(100, 100, 'touch'))
    expect(meter.move(move(120, 140, 'touch'))).toBeUndefined()
  })
})
