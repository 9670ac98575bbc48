/**
 * base58 (Bitcoin's alphabet, as Solana uses it) and base64, the encodings of WalletConnect's
 * Solana methods. Small on purpose: part of the lazily loaded `sdk-calls.js`.
 */
import { InvalidParamsError } from '@porthole/protocol/lite'

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/**
 * base58 text of `bytes` (each leading zero byte is a leading '1').
 *
 * @example
 * base58Encode(new Uint8Array([0, 1])) // '12'
 */
export function base58Encode(bytes: Uint8Array): string {
  let n = 0n
  for (const byte of bytes) n = n * 256n + BigInt(byte)
  let text = ''
  for (; n > 0n; n /= 58n) text = ALPHABET[Number(n % 58n)] + text
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) text = `1${text}`
  return text
}

/**
 * The bytes of base58 `text`; InvalidParamsError (-32602) for anything that is not base58.
 *
 * @example
 * base58Decode('12') // Uint8Array [0, 1]
 */
export function base58Decode(text: unknown): Uint8Array {
  if (typeof text !== 'string') throw new InvalidParamsError('Expected base58 text')
  let n = 0n
  for (const char of text) {
    const digit = ALPHABET.indexOf(char)
    if (digit < 0) throw new InvalidParamsError('Invalid base58 text')
    n = n * 58n + BigInt(digit)
  }
  const bytes: number[] = []
  for (; n > 0n; n >>= 8n) bytes.unshift(Number(n & 255n))
  for (let i = 0; i < text.length && text[i] === '1'; i++) bytes.unshift(0)
  return Uint8Array.from(bytes)
}

/**
 * base64 text of `bytes`.
 *
 * @example
 * base64Encode(new Uint8Array([1, 2, 3])) // 'AQID'
 */
export function base64Encode(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/**
 * The bytes of base64 `text`; InvalidParamsError (-32602) for anything that is not base64.
 *
 * @example
 * base64Decode('AQID') // Uint8Array [1, 2, 3]
 */
export function base64Decode(text: unknown): Uint8Array {
  try {
    if (typeof text === 'string') return Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
  } catch {}
  throw new InvalidParamsError('Invalid base64 text')
}
