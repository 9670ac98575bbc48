import { useMemo } from 'react'
import { encode } from 'uqr'
import { Picture } from './Images.js'

/** Props of {@link QrCode}. */
export type QrCodeProps = {
  /** What the code encodes (a pairing URI, an address…). */
  value: string
  /** The accessible name of the image. */
  label: string
  /** A logo drawn in the middle (high error correction keeps the code readable). */
  logo?: { src: string; name: string } | undefined
  testId?: string
}

/**
 * A QR code as SVG rectangles (no markup strings), one 1×1 square per dark module on a white
 * quiet zone of one module.
 *
 * @example
 * <QrCode value={address} label="QR code of the address" />
 */
export function QrCode({ value, label, logo, testId }: QrCodeProps) {
  const withLogo = !!logo?.src
  const { size, path } = useMemo(() => {
    const { data, size } = encode(value, { ecc: withLogo ? 'H' : 'M', border: 1 })
    let path = ''
    data.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) path += `M${x} ${y}h1v1h-1z`
      })
    })
    return { size, path }
  }, [value, withLogo])
  return (
    <div className="ph-qr" data-testid={testId}>
      <svg viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label}>
        <rect width={size} height={size} fill="#fff" />
        <path d={path} fill="#111" shapeRendering="crispEdges" />
      </svg>
      {logo?.src ? (
        <span className="ph-qr-logo">
          <Picture src={logo.src} name={logo.name} size={48} />
        </span>
      ) : null}
    </div>
  )
}
