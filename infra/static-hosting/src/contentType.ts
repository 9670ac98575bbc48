/**
 * Content-Type by file extension.
 */
import { extname } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
}

/**
 * The Content-Type of a file; `application/octet-stream` when the extension is unknown.
 *
 * @example
 * contentType('/assets/index-BXk2c8Ab.css') // 'text/css; charset=utf-8'
 */
export function contentType(path: string): string {
  return TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream'
}

/**
 * True when a type gains from compression (text, JSON, SVG, wasm; not images or fonts).
 *
 * @example
 * isCompressible('image/png') // false
 */
export function isCompressible(type: string): boolean {
  return /^(text\/|application\/(json|manifest\+json|xml|wasm)|image\/svg\+xml)/.test(type)
}
