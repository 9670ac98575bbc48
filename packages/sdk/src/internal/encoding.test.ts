import { expect, test } from 'vitest'
import { base58Decode, base58Encode, base64Decode, base64Encode } from './encoding.js'

test('base58 round-trips bytes, leading zeros as leading 1s', () => {
  expect(base58Encode(new Uint8Array([0, 0, 1]))).toBe('112')
  expect(base58Decode('112')).toEqual(new Uint8Array([0, 0, 1]))
  expect(base58Encode(new TextEncoder().encode('Hello World!'))).toBe('2NEpo7TZRRrLZSi2U')
  expect(new TextDecoder().decode(base58Decode('2NEpo7TZRRrLZSi2U'))).toBe('Hello World!')
  expect(base58Encode(new Uint8Array())).toBe('')
  const key = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) % 256)
  expect(base58Decode(base58Encode(key))).toEqual(key)
})

test('base58 and base64 refuse what is not theirs with -32602', () => {
  expect(() => base58Decode('0OIl')).toThrow(expect.objectContaining({ code: -32602 }))
  expect(() => base58Decode(42)).toThrow(expect.objectContaining({ code: -32602 }))
  expect(() => base64Decode('***')).toThrow(expect.objectContaining({ code: -32602 }))
  expect(() => base64Decode(undefined)).toThrow(expect.objectContaining({ code: -32602 }))
})

test('base64 round-trips bytes', () => {
  expect(base64Encode(new Uint8Array([1, 2, 3]))).toBe('AQID')
  expect(base64Decode('AQID')).toEqual(new Uint8Array([1, 2, 3]))
  const bytes = Uint8Array.from({ length: 1232 }, (_, i) => i % 256)
  expect(base64Decode(base64Encode(bytes))).toEqual(bytes)
})
