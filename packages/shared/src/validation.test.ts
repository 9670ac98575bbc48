import { describe, expect, test } from 'vitest'
import {
  isEmail,
  isEvmAddress,
  isSignature,
  isSolanaAddress,
  isThemeMode,
  isTransactionHash,
  isWebPageUrl,
} from './validation.js'

describe('validation rules', () => {
  test.each([
    ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', true],
    ['f39Fd6e51aad88F6F4ce6aB8827279cffFb92266', true],
    ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb9226', false],
    ['0xg39Fd6e51aad88F6F4ce6aB8827279cffFb92266', false],
  ])('EVM address %s → %s', (value, expected) => expect(isEvmAddress(value)).toBe(expected))

  test.each([
    ['7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', true],
    ['11111111111111111111111111111111', true],
    ['0OIl1111111111111111111111111111', false],
    ['short', false],
  ])('Solana address %s → %s', (value, expected) => expect(isSolanaAddress(value)).toBe(expected))

  test('transaction hash is 0x plus 64 hex; a signature 0x plus 62 or more', () => {
    expect(isTransactionHash(`0x${'a'.repeat(64)}`)).toBe(true)
    expect(isTransactionHash(`0x${'a'.repeat(63)}`)).toBe(false)
    expect(isSignature(`0x${'b'.repeat(62)}`)).toBe(true)
    expect(isSignature(`0x${'b'.repeat(61)}`)).toBe(false)
  })

  test('e-mail format and theme mode', () => {
    expect(isEmail('ada@example.com')).toBe(true)
    expect(isEmail('ada@example')).toBe(false)
    expect(isEmail('ada example.com')).toBe(false)
    expect(isThemeMode('dark')).toBe(true)
    expect(isThemeMode('blue')).toBe(false)
  })
})

describe('isWebPageUrl', () => {
  test.each([
    'https://pay.example.com/checkout?id=1',
    'http://127.0.0.1:4900/checkout/1',
    'http://localhost:4000/',
    'http://wallet.localhost:4200/callback',
    'http://[::1]:4900/x',
  ])('%j may be opened', (url) => expect(isWebPageUrl(url)).toBe(true))

  test.each([
    'javascript:alert(1)',
    ' javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'blob:https://pay.example.com/uuid',
    'file:///etc/passwd',
    'vbscript:msgbox(1)',
    'http://pay.example.com/checkout',
    'http://127.0.0.1.evil.com/',
    'https://user:pass@pay.example.com/',
    '//pay.example.com/checkout',
    '/checkout',
    'not a url',
    '',
  ])('%j may not', (url) => expect(isWebPageUrl(url)).toBe(false))
})
