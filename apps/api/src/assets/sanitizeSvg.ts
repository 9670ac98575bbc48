/**
 * An allow-list SVG sanitizer for the images the API serves: it re-writes the markup from its
 * tokens, so only listed elements and attributes come out, and anything it does not understand
 * is an error rather than something passed through.
 */

/** Elements an image may hold: shapes, groups, paint servers, clipping, masks and text. */
const ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'title',
  'desc',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'clipPath',
  'mask',
  'linearGradient',
  'radialGradient',
  'stop',
])

/** Elements whose text content is kept (elsewhere only white space may appear). */
const TEXT_ELEMENTS = new Set(['title', 'desc', 'text', 'tspan'])

/** Attributes kept: geometry, paint and the labels of the root. */
const ATTRIBUTES = new Set([
  'xmlns',
  'version',
  'id',
  'viewBox',
  'preserveAspectRatio',
  'width',
  'height',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'dx',
  'dy',
  'd',
  'points',
  'transform',
  'fill',
  'fill-rule',
  'fill-opacity',
  'clip-rule',
  'clip-path',
  'clipPathUnits',
  'mask',
  'maskUnits',
  'maskContentUnits',
  'mask-type',
  'opacity',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-opacity',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'text-anchor',
  'dominant-baseline',
  'font-family',
  'font-size',
  'font-weight',
  'letter-spacing',
  'role',
  'aria-label',
  'aria-hidden',
])

/** Attributes dropped without complaint: styling hooks that mean nothing inside an image. */
const DROPPED_ATTRIBUTES = new Set(['class', 'data-name', 'xmlns:xlink'])

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** Raised for markup the sanitizer refuses. */
export class UnsafeSvgError extends Error {
  override readonly name = 'UnsafeSvgError'
}

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);|&/gi, (whole, entity: string | undefined) => {
    if (!entity) throw new UnsafeSvgError('a bare "&"')
    if (entity.startsWith('#')) {
      const code =
        entity[1] === 'x' || entity[1] === 'X'
          ? Number.parseInt(entity.slice(2), 16)
          : Number(entity.slice(1))
      if (!Number.isInteger(code) || code < 0x20 || code > 0x10ffff)
        throw new UnsafeSvgError(`character reference ${whole}`)
      return String.fromCodePoint(code)
    }
    const value = ENTITIES[entity]
    if (value === undefined) throw new UnsafeSvgError(`entity ${whole}`)
    return value
  })
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`)
}

/** A value may point only inside the image (`url(#id)`), never at a script or another file. */
function checkValue(name: string, value: string): void {
  if (/[<>]/.test(value)) throw new UnsafeSvgError(`"${name}" holds markup`)
  for (const match of value.matchAll(/url\(\s*(['"]?)([^'")]*)\1\s*\)/gi))
    if (!/^#[\w.:-]+$/.test(match[2] ?? ''))
      throw new UnsafeSvgError(`"${name}" points outside the image`)
  if (
    /url\(|javascript:|expression\(|@import/i.test(
      value.replace(/url\(\s*(['"]?)#[\w.:-]+\1\s*\)/gi, ''),
    )
  )
    throw new UnsafeSvgError(`"${name}" has a value that is not allowed`)
}

const ATTRIBUTE = /\s+([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/y

function parseAttributes(source: string, tag: string): [string, string][] {
  const out: [string, string][] = []
  let at = 0
  while (at < source.length) {
    if (/^\s*$/.test(source.slice(at))) break
    ATTRIBUTE.lastIndex = at
    const match = ATTRIBUTE.exec(source)
    if (!match) throw new UnsafeSvgError(`cannot read the attributes of <${tag}>`)
    at = ATTRIBUTE.lastIndex
    const name = match[1]!
    const value = decode(match[2] ?? match[3] ?? '')
    if (DROPPED_ATTRIBUTES.has(name)) continue
    if (name === 'xmlns' && value !== 'http://www.w3.org/2000/svg')
      throw new UnsafeSvgError('a foreign namespace')
    if (!ATTRIBUTES.has(name)) throw new UnsafeSvgError(`attribute "${name}" on <${tag}>`)
    if (out.some(([seen]) => seen === name)) throw new UnsafeSvgError(`"${name}" twice on <${tag}>`)
    checkValue(name, value)
    out.push([name, value])
  }
  return out
}

/**
 * Rewrites an SVG document through an allow list: shapes, groups, gradients, clip paths, masks,
 * titles and text with their geometry and paint attributes. Scripts, event handlers, `style`,
 * links (`href`), `<image>`, `<foreignObject>`, `<use>`, external `url(…)` references, entities
 * other than the five XML ones, DOCTYPEs and processing instructions are refused with an
 * {@link UnsafeSvgError}; comments, the XML declaration, `class` and white space between tags are
 * dropped. The result is one line of markup.
 *
 * @example
 * sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0h24v24H0z"/></svg>')
 * // '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0h24v24H0z"/></svg>'
 */
export function sanitizeSvg(source: string): string {
  const input = source
    .replace(/^\uFEFF/, '')
    .replace(/^\s*<\?xml\s[^?]*\?>/, '')
    .replace(/<!--[\s\S]*?-->/g, '')
  const stack: string[] = []
  let out = ''
  let root = false
  const token =
    /<(\/?)([A-Za-z][\w.:-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/y
  let at = 0
  while (at < input.length) {
    token.lastIndex = at
    const match = token.exec(input)
    if (!match) throw new UnsafeSvgError(`unreadable markup at "${input.slice(at, at + 24)}"`)
    at = token.lastIndex
    const [, closing, tag, attributes, selfClosing, text] = match
    if (text !== undefined) {
      const value = decode(text)
      if (TEXT_ELEMENTS.has(stack.at(-1) ?? '')) out += escapeXml(value)
      else if (value.trim()) throw new UnsafeSvgError('text outside a text element')
      continue
    }
    if (!tag || !ELEMENTS.has(tag)) throw new UnsafeSvgError(`element <${tag}>`)
    if (closing) {
      if (stack.pop() !== tag) throw new UnsafeSvgError(`</${tag}> does not close an open element`)
      out += `</${tag}>`
      continue
    }
    if (stack.length === 0) {
      if (root || tag !== 'svg') throw new UnsafeSvgError('the document is not one <svg> element')
      root = true
    }
    const kept = parseAttributes(attributes ?? '', tag)
    out += `<${tag}${kept.map(([name, value]) => ` ${name}="${escapeXml(value)}"`).join('')}`
    if (selfClosing) out += '/>'
    else {
      out += '>'
      stack.push(tag)
    }
  }
  if (!root || stack.length)
    throw new UnsafeSvgError('the document is not one closed <svg> element')
  return out
}
