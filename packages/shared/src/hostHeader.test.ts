import { describe, expect, test } from 'vitest'
import { allowedHosts, isAllowedHost, isLoopbackHost } from './hostHeader.js'

describe('allowedHosts', () => {
  test('a loopback server answers its own address and the loopback names on its port', () => {
    expect([...allowedHosts({ host: '127.0.0.1', port: 4500 })].sort()).toEqual([
      '127.0.0.1:4500',
      '[::1]:4500',
      'localhost:4500',
    ])
    expect([...allowedHosts({ host: '::1', port: 4600 })].sort()).toEqual([
      '127.0.0.1:4600',
      '[::1]:4600',
      'localhost:4600',
    ])
  })

  test('a server on another interface answers only its own name and the extra ones', () => {
    expect([
      ...allowedHosts({ host: '10.0.0.5', port: 4500, extraHosts: ['Mail.Internal:4500'] }),
    ]).toEqual(['10.0.0.5:4500', 'mail.internal:4500'])
  })

  test('every interface means the loopback names only, and port 80 may be left out', () => {
    expect([...allowedHosts({ host: '0.0.0.0', port: 80 })].sort()).toEqual([
      '127.0.0.1',
      '127.0.0.1:80',
      '[::1]',
      '[::1]:80',
      'localhost',
      'localhost:80',
    ])
  })
})

describe('isAllowedHost', () => {
  const allowed = allowedHosts({ host: '127.0.0.1', port: 4500 })

  test('accepts the names the server is served under, in any letter case', () => {
    for (const host of ['127.0.0.1:4500', 'localhost:4500', 'LOCALHOST:4500', '[::1]:4500'])
      expect(isAllowedHost(host, allowed), host).toBe(true)
  })

  test('refuses a rebinding name, another port, a missing port and a missing header', () => {
    for (const host of [
      'evil.example:4500',
      'attacker.test',
      'localhost:4501',
      'localhost',
      '127.0.0.1',
      'localhost.:4500',
      'localhost:4500.evil.example',
      '',
      undefined,
    ])
      expect(isAllowedHost(host, allowed), String(host)).toBe(false)
  })
})

test('isLoopbackHost knows localhost and the loopback addresses', () => {
  for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '::ffff:127.0.0.1'])
    expect(isLoopbackHost(host), host).toBe(true)
  for (const host of ['0.0.0.0', '10.0.0.1', 'localhost.example', '::', 'example.com'])
    expect(isLoopbackHost(host), host).toBe(false)
})
