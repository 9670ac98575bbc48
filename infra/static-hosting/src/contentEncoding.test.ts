import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib'
import { expect, test } from 'vitest'
import { compress, decodesTo } from './contentEncoding.ts'

test('compressed bodies decompress to the original', async () => {
  const body = Buffer.from('porthole '.repeat(200))
  expect(brotliDecompressSync(await compress(body, 'br'))).toEqual(body)
  expect(gunzipSync(await compress(body, 'gzip'))).toEqual(body)
})

test('brotli is at quality 11', async () => {
  const body = Buffer.from(
    Array.from({ length: 300 }, (_, i) => `row ${i}: ${(i * 7919) % 1000}`).join('\n'),
  )
  const at = (quality: number) =>
    brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    })
  expect(at(9)).not.toEqual(at(11))
  expect(await compress(body, 'br')).toEqual(at(11))
})

test('decodesTo accepts only an encoding of exactly the body', async () => {
  const body = Buffer.from('porthole '.repeat(200))
  for (const encoding of ['br', 'gzip'] as const) {
    const encoded = await compress(body, encoding)
    expect(await decodesTo(encoded, encoding, body)).toBe(true)
    expect(await decodesTo(encoded, encoding, body.subarray(1))).toBe(false)
    expect(await decodesTo(encoded, encoding, Buffer.concat([body, Buffer.from('!')]))).toBe(false)
    expect(await decodesTo(encoded.subarray(0, 10), encoding, body)).toBe(false)
    expect(await decodesTo(Buffer.from('not compressed'), encoding, body)).toBe(false)
  }
})
