/**
 * Wallet, network and account images, with a generated fallback (monogram or gradient) so
 * nothing shows broken offline.
 */

import type { Network } from '@porthole/shared'
import { useState } from 'react'
import { networkImageUrl } from '../api/client.js'

function hue(text: string): number {
  let h = 0
  for (const char of text) h = (h * 31 + (char.codePointAt(0) ?? 0)) % 360
  return h
}

/** A square image with a monogram fallback when `src` is empty or fails. */
export function Picture({ src, name, size = 40 }: { src: string; name: string; size?: number }) {
  const [failed, setFailed] = useState(false)
  if (!src || failed) {
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
  return (
    <img
      className="ph-image"
      src={src}
      alt=""
      width={size}
      height={size}
      draggable={false}
      onError={() => setFailed(true)}
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
