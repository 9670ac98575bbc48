import { expect, test } from 'vitest'
import { negotiateEncoding } from './acceptEncoding.js'

test('prefers brotli, honours q-values and falls back to identity', () => {
  expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br')
  expect(negotiateEncoding('gzip, deflate')).toBe('gzip')
  expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip')
  expect(negotiateEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip')
  expect(negotiateEncoding('*')).toBe('br')
  expect(negotiateEncoding('*;q=0, gzip;q=0')).toBe('identity')
  expect(negotiateEncoding('identity')).toBe('identity')
  expect(negotiateEncoding(undefined)).toBe('identity')
})
