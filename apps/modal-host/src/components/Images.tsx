/**
 * Wallet, network, social and account images, with a generated fallback (monogram or gradient)
 * so nothing shows broken offline. Images are fetched as images (lazily, decoded off the main
 * thread), never bundled.
 */

import type { Network } from '@porthole/shared'
import { useEffect, useState } from 'react'
import { networkImageUrl } from '../api/client.js'
import { useModal } from '../store/store.js'

function hue(text: string): number {
  let h = 0
  for (const char of text) h = (h * 31 + (char.codePointAt(0) ?? 0)) % 360
  return h
}

/** Image URLs that failed this session: their pictures show the tile without asking again. */
const failedImages = new Set<string>()
/** Image URLs loaded this session: a deferred picture of one shows it at once. */
const loadedImages = new Set<string>()
/** Whether the modal has been on screen for a frame (deferred pictures wait for that). */
let modalShown = false

/**
 * Records that an image URL failed to load: every picture of it shows its letter tile from then
 * on (what an `<img>`'s `onError` does).
 *
 * @example
 * <img src={src} onError={() => reportImageError(src)} />
 */
export function reportImageError(src: string): void {
  failedImages.add(src)
}

/**
 * Whether the first frame of the open modal has passed: false while the modal is prepared behind
 * the closed dialog, true from just after the first frame it runs open (the one
 * `porthole:view-visible` marks; the host shows the dialog before it asks the modal to open), for
 * good.
 */
function useModalShown(enabled: boolean): boolean {
  const open = useModal((s) => s.open)
  const [shown, setShown] = useState(modalShown)
  useEffect(() => {
    if (!enabled || shown || !open) return
    let timer: ReturnType<typeof setTimeout> | undefined
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        modalShown = true
        setShown(true)
      })
    })
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(timer)
    }
  }, [enabled, open, shown])
  return shown
}

/** The letter tile: a picture's stand-in when it has no image, or its image failed. */
function Tile({ name, size }: { name: string; size: number }) {
  const initials = name
    .split(/\s+/)
    .map((w) => w[0])
    .join('')
    .slice(0, 2)
    .toUpperCase()
  return (
    <span
      className="ph-monogram"
      aria-hidden="true"
      style={{
        width: size,
        height: size,
        fontSize: size * 0.38,
        background: `hsl(${hue(name)} 55% 45%)`,
      }}
    >
      {initials}
    </span>
  )
}

/** Props of {@link Picture}. */
export type PictureProps = {
  /** The image URL; empty for none. */
  src: string
  /** What the picture shows (the tile's initials); the image itself is decorative (`alt=""`). */
  name: string
  size?: number
  /**
   * Wait for the modal to be on screen before fetching, showing the tile until the image has
   * loaded: for images that would otherwise load with the closed, prepared view and add to what
   * a host pays before the first click (the social buttons).
   */
  deferred?: boolean
}

/**
 * A square image, decorative (its control carries the name), fetched lazily and decoded off the
 * main thread; the letter tile stands in when `src` is empty or the image fails.
 *
 * @example
 * <Picture src={wallet.image} name={wallet.name} size={40} />
 */
export function Picture({ src, name, size = 40, deferred = false }: PictureProps) {
  const [, rerender] = useState(0)
  const waiting = deferred && !loadedImages.has(src)
  const shown = useModalShown(waiting)
  // A deferred picture fetches once the modal is on screen and shows the image once decoded.
  useEffect(() => {
    if (!waiting || !shown || !src || failedImages.has(src)) return
    let current = true
    const image = new Image()
    image.decoding = 'async'
    image.src = src
    image
      .decode()
      .then(
        () => loadedImages.add(src),
        () => reportImageError(src),
      )
      .finally(() => {
        if (current) rerender((n) => n + 1)
      })
    return () => {
      current = false
    }
  }, [waiting, shown, src])
  if (!src || failedImages.has(src) || waiting) return <Tile name={name} size={size} />
  return (
    <img
      className="ph-image"
      src={src}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      draggable={false}
      onError={() => {
        reportImageError(src)
        rerender((n) => n + 1)
      }}
    />
  )
}

/** A network's logo from the API's asset images. */
export function NetworkImage({ network, size = 24 }: { network: Network; size?: number }) {
  const src = network.assets.imageUrl ?? networkImageUrl(network.assets.imageId)
  return <Picture src={src} name={network.name} size={size} />
}

/** A deterministic gradient avatar for an address. */
export function Avatar({ address }: { address: string }) {
  const a = hue(address)
  const b = hue(address.split('').reverse().join(''))
  return (
    <span
      className="ph-avatar"
      aria-hidden="true"
      style={{
        background: `radial-gradient(circle at 30% 30%, hsl(${a} 80% 70%), hsl(${b} 70% 45%) 70%)`,
      }}
    />
  )
}
