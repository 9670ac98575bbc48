import { expect, test } from 'vitest'
import { cacheControl, isHashedAsset } from './cacheControl.ts'

test('recognises the content-hashed file names of a Vite build', () => {
  expect(isHashedAsset('/assets/index-BXk2c8Ab.js')).toBe(true)
  expect(isHashedAsset('/assets/index-D_3nCs9f.css')).toBe(true)
  expect(isHashedAsset('/assets/wallet-icon-a1b2c3d4.svg')).toBe(true)
  expect(isHashedAsset('/assets/index-BXk2c8Ab.js.map')).toBe(true)
  expect(isHashedAsset('/assets/my-component.js')).toBe(false)
  expect(isHashedAsset('/assets/logo.png')).toBe(false)
  expect(isHashedAsset('/index-BXk2c8Ab.js')).toBe(false)
})

test('each file class gets its cache lifetime', () => {
  expect(cacheControl('/', 'text/html; charset=utf-8')).toBe('no-cache')
  expect(cacheControl('/assets/index-BXk2c8Ab.js', 'text/javascript')).toBe(
    'public, max-age=31536000, immutable',
  )
  expect(cacheControl('/sdk.js', 'text/javascript')).toBe('public, max-age=300')
  expect(cacheControl('/sdk/0.1.0/sdk.js', 'text/javascript')).toBe(
    'public, max-age=31536000, immutable',
  )
  expect(cacheControl('/sdk/0.1.2/sdk-chains.js', 'text/javascript')).toBe(
    'public, max-age=31536000, immutable',
  )
  expect(cacheControl('/sdk/0.1.8/sdk-calls.js', 'text/javascript')).toBe(
    'public, max-age=31536000, immutable',
  )
  expect(cacheControl('/sdk/latest/sdk.js', 'text/javascript')).toBe('public, max-age=3600')
  expect(cacheControl('/favicon.svg', 'image/svg+xml')).toBe('public, max-age=3600')
})
