/**
 * Wallet, network, social and account images, with a generated fallback (monogram or gradient)
 * so nothing shows broken offline. Images are fetched as images (lazily, decoded off the main
 * thread); only the social providers' logos are bundled (components/socialIcons.ts).
 */

import type { Network } from '@porthole/shared'
import { useState } from 'react'
import { networkImageUrl } from '../api/client.js'

function hue(text: string): number {
  let h = 0
  for (const char of text) h = (h * 31 + (char.codePointAt(0) ?? 0)) % 360
  return h
}

/** Image URLs that failed this session: their pictures show the tile without asking again. */
const failedImages = new Set<string>()

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
   * Loaded at once, not when laid out near the viewport: the few pictures of the first view
   * (Connect's wallet rows and social logos), which must be drawn in the card's first frame.
   */
  eager?: boolean
}

/**
 * A square image, decorative (its control carries the name), fetched lazily and decoded off the
 * main thread; the letter tile stands in when `src` is empty or the image fails.
 *
 * @example
 * <Picture src={wallet.image} name={wallet.name} size={40} />
 */
export function Picture({ src, name, size = 40, eager = false }: PictureProps) {
  const [, rerender] = useState(0)
  if (!src || failedImages.has(src)) return <Tile name={name} size={size} />
  return (
    <img
      className="ph-image"
      src={src}
      alt=""
      width={size}
      height={size}
      loading={eager ? 'eager' : 'lazy'}
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
