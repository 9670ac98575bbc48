import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { DEFAULT_ASSETS_DIR, IMAGE_KINDS } from './loadImageAssets.js'
import { sanitizeSvg, UnsafeSvgError } from './sanitizeSvg.js'

const wrap = (inner: string, attributes = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"${attributes}>${inner}</svg>`

describe('sanitizeSvg', () => {
  test('keeps shapes, gradients and clip paths, drops class, comments, the XML declaration and white space', () => {
    const source = `<?xml version="1.0" encoding="UTF-8"?>
<!-- exported -->
<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" class="icon">
  <g clip-path="url(#a)">
    <path fill="url(#b)" fill-rule="evenodd" d="M0 0h24v24H0z"/>
  </g>
  <defs>
    <clipPath id="a"><path d="M0 0h24v24H0z"/></clipPath>
    <linearGradient id="b" x1="0" x2="1" gradientUnits="userSpaceOnUse">
      <stop offset="0" stop-color="#FF5C16"/><stop offset="1" stop-color="#E34807" stop-opacity=".5"/>
    </linearGradient>
  </defs>
</svg>
`
    expect(sanitizeSvg(source)).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><g clip-path="url(#a)"><path fill="url(#b)" fill-rule="evenodd" d="M0 0h24v24H0z"/></g><defs><clipPath id="a"><path d="M0 0h24v24H0z"/></clipPath><linearGradient id="b" x1="0" x2="1" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#FF5C16"/><stop offset="1" stop-color="#E34807" stop-opacity=".5"/></linearGradient></defs></svg>',
    )
  })

  test('keeps the text of titles and text elements, escaped', () => {
    expect(sanitizeSvg(wrap('<title>A &amp; B</title><text x="1">&lt;C&gt;</text>'))).toBe(
      wrap('<title>A &#38; B</title><text x="1">&#60;C&#62;</text>'),
    )
  })

  test('refuses scripts, event handlers, styles, links, foreign content and outside references', () => {
    for (const source of [
      wrap('<script>alert(1)</script>'),
      wrap('<path d="M0 0" onload="alert(1)"/>'),
      wrap('', ' onload="alert(1)"'),
      wrap('<path style="fill:red" d="M0 0"/>'),
      wrap('<style>path{fill:url(https://evil.test/x)}</style>'),
      wrap('<a href="javascript:alert(1)"><path d="M0 0"/></a>'),
      wrap('<use href="https://evil.test/sprite.svg#x"/>'),
      wrap('<image href="https://evil.test/x.png"/>'),
      wrap('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>'),
      wrap('<path fill="url(https://evil.test/x)" d="M0 0"/>'),
      wrap('<path fill="url(data:image/svg+xml,x)" d="M0 0"/>'),
      wrap('<path clip-path="javascript:alert(1)" d="M0 0"/>'),
      wrap('<path d="M0 0" d="M1 1"/>'),
      `<!DOCTYPE svg [<!ENTITY x "y">]>${wrap('<title>&x;</title>')}`,
      wrap('<title>&x;</title>'),
      wrap('<![CDATA[<script>alert(1)</script>]]>'),
      wrap('<?php echo 1 ?>'),
      wrap('stray text'),
      wrap('<path d=M0/>'),
      wrap('<g><path d="M0 0"/>'),
      `${wrap('')}${wrap('')}`,
      '<html><svg xmlns="http://www.w3.org/2000/svg"/></html>',
      '<svg xmlns="http://www.w3.org/1999/xhtml"/>',
      '',
    ])
      expect(() => sanitizeSvg(source), source).toThrow(UnsafeSvgError)
  })

  test('every committed asset comes out of the sanitizer as it is stored (they are written by it)', () => {
    let count = 0
    for (const kind of IMAGE_KINDS)
      for (const file of readdirSync(`${DEFAULT_ASSETS_DIR}${kind}`)) {
        const text = readFileSync(`${DEFAULT_ASSETS_DIR}${kind}/${file}`, 'utf8')
        expect(`${sanitizeSvg(text)}\n`, `${kind}/${file}`).toBe(text)
        count++
      }
    expect(count).toBeGreaterThan(100)
  })
})
