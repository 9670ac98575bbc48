/**
 * Reads a QR code from a screenshot, independently of the encoder the modal uses: a PNG decoder
 * (node:zlib), module sampling, and a QR decoder (ISO/IEC 18004) for the clean images a browser
 * draws — format bits, unmasking, block de-interleaving and numeric, alphanumeric and byte
 * segments. Error correction is not applied: a rendered code has no damaged modules, so a
 * wrong module fails the decode instead of being corrected. Versions 1–10.
 */
import { inflateSync } from 'node:zlib'
import type { Locator } from '@playwright/test'

/** An image as RGBA bytes. */
export type Image = { width: number; height: number; rgba: Uint8Array }

/** Decodes an 8-bit RGB or RGBA, non-interlaced PNG (what Playwright's screenshots are). */
export function decodePng(png: Uint8Array): Image {
  const view = Buffer.from(png)
  let offset = 8
  let width = 0
  let height = 0
  let colorType = 0
  const idat: Buffer[] = []
  while (offset < view.length) {
    const length = view.readUInt32BE(offset)
    const type = view.toString('ascii', offset + 4, offset + 8)
    const data = view.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
      if (data[8] !== 8 || data[12] !== 0) throw new Error('Only 8-bit non-interlaced PNGs')
      colorType = data[9] as number
    } else if (type === 'IDAT') idat.push(data)
    else if (type === 'IEND') break
    offset += 12 + length
  }
  const channels = colorType === 6 ? 4 : colorType === 2 ? 3 : 0
  if (!channels) throw new Error(`Unsupported PNG colour type ${colorType}`)
  const raw = inflateSync(Buffer.concat(idat))
  const stride = width * channels
  const pixels = new Uint8Array(height * stride)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x] as number
      const left = x >= channels ? (pixels[y * stride + x - channels] as number) : 0
      const up = y > 0 ? (pixels[(y - 1) * stride + x] as number) : 0
      const upLeft =
        y > 0 && x >= channels ? (pixels[(y - 1) * stride + x - channels] as number) : 0
      let predicted = 0
      if (filter === 1) predicted = left
      else if (filter === 2) predicted = up
      else if (filter === 3) predicted = (left + up) >> 1
      else if (filter === 4) {
        const p = left + up - upLeft
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)]
        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
      }
      pixels[y * stride + x] = (value + predicted) & 0xff
    }
  }
  const rgba = new Uint8Array(width * height * 4)
  for (let i = 0; i < width * height; i++) {
    rgba.set(pixels.subarray(i * channels, i * channels + 3), i * 4)
    rgba[i * 4 + 3] = channels === 4 ? (pixels[i * channels + 3] as number) : 255
  }
  return { width, height, rgba }
}

/**
 * The module matrix of a QR code of `size` modules per side (quiet zone excluded) drawn dark on
 * light in `image`: the dark bounding box is the symbol (its three finder patterns touch it),
 * each module sampled at its centre.
 */
export function sampleModules(image: Image, size: number): boolean[][] {
  const dark = (x: number, y: number) => {
    const i = (Math.round(y) * image.width + Math.round(x)) * 4
    const [r, g, b] = [image.rgba[i], image.rgba[i + 1], image.rgba[i + 2]] as number[]
    return (r as number) * 0.299 + (g as number) * 0.587 + (b as number) * 0.114 < 128
  }
  let [minX, minY, maxX, maxY] = [image.width, image.height, -1, -1]
  for (let y = 0; y < image.height; y++)
    for (let x = 0; x < image.width; x++)
      if (dark(x, y)) {
        minX = Math.min(minX, x)
        maxX = Math.max(maxX, x)
        minY = Math.min(minY, y)
        maxY = Math.max(maxY, y)
      }
  if (maxX < 0) throw new Error('No QR code in the image')
  const step = (maxX - minX + 1) / size
  const stepY = (maxY - minY + 1) / size
  return Array.from({ length: size }, (_, row) =>
    Array.from({ length: size }, (_, col) =>
      dark(minX + (col + 0.5) * step, minY + (row + 0.5) * stepY),
    ),
  )
}

// Per error-correction level (L, M, Q, H) and version (index 0 unused).
const ECC_PER_BLOCK = [
  [-1, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18],
  [-1, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26],
  [-1, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24],
  [-1, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28],
]
const BLOCKS = [
  [-1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4],
  [-1, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5],
  [-1, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8],
  [-1, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8],
]
/** Format bits' level field → index in the tables above (01 L, 00 M, 11 Q, 10 H). */
const LEVEL_OF_BITS = [1, 0, 3, 2]

/** The 15-bit format word of 5 data bits: BCH(15,5) with generator 0x537, masked with 0x5412. */
function formatWord(data: number): number {
  let rem = data
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537)
  return ((data << 10) | (rem & 0x3ff)) ^ 0x5412
}

function alignmentPositions(version: number): number[] {
  if (version === 1) return []
  const count = Math.floor(version / 7) + 2
  const step = Math.floor((version * 8 + count * 3 + 5) / (count * 4 - 4)) * 2
  const out = [6]
  for (let pos = 17 + version * 4 - 7; out.length < count; pos -= step) out.splice(1, 0, pos)
  return out
}

const MASKS: ((x: number, y: number) => boolean)[] = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
]

/**
 * Decodes a QR module matrix (row-major, `true` = dark, no quiet zone) into its text.
 *
 * @example
 * decodeQr(sampleModules(decodePng(png), 29)) // '0xf39F…'
 */
export function decodeQr(m: boolean[][]): string {
  const size = m.length
  const version = (size - 17) / 4
  if (!Number.isInteger(version) || version < 1 || version > 10)
    throw new Error(`Unsupported QR size ${size}`)
  const at = (x: number, y: number) => m[y]?.[x] === true

  // Format information, first copy: row 8 (columns 0–5, 7, 8), then column 8 (rows 7, 5–0).
  let format = 0
  const cells: [number, number][] = [
    [0, 8],
    [1, 8],
    [2, 8],
    [3, 8],
    [4, 8],
    [5, 8],
    [7, 8],
    [8, 8],
    [8, 7],
    [8, 5],
    [8, 4],
    [8, 3],
    [8, 2],
    [8, 1],
    [8, 0],
  ]
  for (const [x, y] of cells) format = (format << 1) | (at(x, y) ? 1 : 0)
  const data = [...Array(32).keys()].find((d) => formatWord(d) === format)
  if (data === undefined) throw new Error(`Unreadable format bits ${format.toString(2)}`)
  const level = LEVEL_OF_BITS[data >> 3] as number
  const mask = MASKS[data & 7] as (x: number, y: number) => boolean

  // Function patterns are not data.
  const reserved = Array.from({ length: size }, () => Array<boolean>(size).fill(false))
  const reserve = (x0: number, y0: number, w: number, h: number) => {
    for (let y = Math.max(0, y0); y < Math.min(size, y0 + h); y++)
      for (let x = Math.max(0, x0); x < Math.min(size, x0 + w); x++)
        (reserved[y] as boolean[])[x] = true
  }
  reserve(0, 0, 9, 9)
  reserve(size - 8, 0, 8, 9)
  reserve(0, size - 8, 9, 8)
  reserve(6, 0, 1, size)
  reserve(0, 6, size, 1)
  const align = alignmentPositions(version)
  for (const ax of align)
    for (const ay of align) {
      const corner =
        (ax === 6 && ay === 6) || (ax === 6 && ay === size - 7) || (ax === size - 7 && ay === 6)
      if (!corner) reserve(ax - 2, ay - 2, 5, 5)
    }
  if (version >= 7) {
    reserve(size - 11, 0, 3, 6)
    reserve(0, size - 11, 6, 3)
  }

  // Data bits in the zigzag order, unmasked.
  const bits: number[] = []
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5
    for (let vert = 0; vert < size; vert++)
      for (let j = 0; j < 2; j++) {
        const x = right - j
        const upward = ((right + 1) & 2) === 0
        const y = upward ? size - 1 - vert : vert
        if ((reserved[y] as boolean[])[x]) continue
        bits.push((at(x, y) ? 1 : 0) ^ (mask(x, y) ? 1 : 0))
      }
  }
  let modules = (16 * version + 128) * version + 64
  if (version >= 2) {
    const count = Math.floor(version / 7) + 2
    modules -= (25 * count - 10) * count - 55
    if (version >= 7) modules -= 36
  }
  const raw = Math.floor(modules / 8)
  const codewords: number[] = []
  for (let i = 0; i < raw; i++) {
    let byte = 0
    for (let b = 0; b < 8; b++) byte = (byte << 1) | (bits[i * 8 + b] as number)
    codewords.push(byte)
  }

  // De-interleave: short blocks first, each one data byte shorter.
  const blockCount = (BLOCKS[level] as number[])[version] as number
  const eccLength = (ECC_PER_BLOCK[level] as number[])[version] as number
  const shortCount = blockCount - (raw % blockCount)
  const shortLength = Math.floor(raw / blockCount)
  const blocks: number[][] = Array.from({ length: blockCount }, () => [])
  let k = 0
  for (let i = 0; i <= shortLength; i++)
    for (let j = 0; j < blockCount; j++)
      if (i !== shortLength - eccLength || j >= shortCount)
        (blocks[j] as number[])[i] = codewords[k++] as number
  const dataBytes = blocks.flatMap((block, j) =>
    block
      .slice(0, shortLength - eccLength + (j < shortCount ? 0 : 1))
      .filter((v) => v !== undefined),
  )

  // Segments.
  let pos = 0
  const read = (n: number) => {
    let value = 0
    for (let i = 0; i < n; i++) {
      const byte = dataBytes[(pos + i) >> 3] ?? 0
      value = (value << 1) | ((byte >> (7 - ((pos + i) & 7))) & 1)
    }
    pos += n
    return value
  }
  const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:'
  const big = version >= 10
  let text = ''
  while (pos + 4 <= dataBytes.length * 8) {
    const mode = read(4)
    if (mode === 0) break
    if (mode === 4) {
      const count = read(big ? 16 : 8)
      text += Buffer.from(Array.from({ length: count }, () => read(8))).toString('utf8')
    } else if (mode === 2) {
      let count = read(big ? 11 : 9)
      for (; count >= 2; count -= 2) {
        const v = read(11)
        text += (ALPHANUMERIC[Math.floor(v / 45)] as string) + (ALPHANUMERIC[v % 45] as string)
      }
      if (count === 1) text += ALPHANUMERIC[read(6)]
    } else if (mode === 1) {
      let count = read(big ? 12 : 10)
      for (; count >= 3; count -= 3) text += String(read(10)).padStart(3, '0')
      if (count === 2) text += String(read(7)).padStart(2, '0')
      if (count === 1) text += String(read(4))
    } else throw new Error(`Unsupported QR segment mode ${mode}`)
  }
  return text
}

/**
 * Reads the QR code an element draws (an `<svg>` with a `viewBox` of its modules plus a
 * one-module quiet zone), from a screenshot of it.
 */
export async function readQrCode(svg: Locator): Promise<string> {
  const viewBox = (await svg.getAttribute('viewBox')) ?? ''
  const size = Number(viewBox.split(/\s+/)[2]) - 2
  const png = await svg.screenshot({ animations: 'disabled' })
  return decodeQr(sampleModules(decodePng(png), size))
}
