import { describe, expect, test } from 'vitest'
import { clientAddress } from './forwardedFor.js'

describe('clientAddress', () => {
  const peer = '10.0.0.2'
  test('without trusted proxies the header is ignored, whatever the client wrote', () => {
    expect(clientAddress({ peer, forwardedFor: '203.0.113.7', trustedProxies: 0 })).toBe(peer)
  })

  test('one proxy: the right-most entry, not the forged ones the client put before it', () => {
    const forwardedFor = '1.1.1.1, 2.2.2.2, 203.0.113.7'
    expect(clientAddress({ peer, forwardedFor, trustedProxies: 1 })).toBe('203.0.113.7')
  })

  test('two proxies: the entry the outer proxy wrote', () => {
    const forwardedFor = 'forged, 203.0.113.7, 10.0.0.9'
    expect(clientAddress({ peer, forwardedFor, trustedProxies: 2 })).toBe('203.0.113.7')
  })

  test('a header shorter than the proxy chain (or none) falls back to the peer', () => {
    expect(clientAddress({ peer, forwardedFor: '203.0.113.7', trustedProxies: 2 })).toBe(peer)
    expect(clientAddress({ peer, forwardedFor: undefined, trustedProxies: 1 })).toBe(peer)
    expect(clientAddress({ peer, forwardedFor: ' , ', trustedProxies: 1 })).toBe(peer)
  })

  test('IPv4-mapped addresses are written as IPv4', () => {
    expect(
      clientAddress({ peer: '::ffff:127.0.0.1', forwardedFor: undefined, trustedProxies: 0 }),
    ).toBe('127.0.0.1')
    expect(clientAddress({ peer: '::1', forwardedFor: undefined, trustedProxies: 0 })).toBe('::1')
  })
})
