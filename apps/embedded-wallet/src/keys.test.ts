import { describe, expect, test } from 'vitest'
import { createKey, rebuildKey, splitKey } from './keys.js'

describe('2-of-3 key shares', () => {
  test('any two shares rebuild the key and its address', async () => {
    const { key, address, shares } = await createKey()
    const [device, auth, recovery] = shares as [Uint8Array, Uint8Array, Uint8Array]
    for (const [a, b] of [
      [device, auth],
      [auth, recovery],
      [recovery, device],
    ] as const) {
      const rebuilt = await rebuildKey(a, b)
      expect(rebuilt.address).toBe(address)
      expect(Buffer.from(rebuilt.key).equals(Buffer.from(key))).toBe(true)
    }
  })

  test('one share alone cannot rebuild the key', async () => {
    const { address, shares } = await createKey()
    const [, auth] = shares as [Uint8Array, Uint8Array, Uint8Array]
    await expect(rebuildKey(auth, auth)).rejects.toThrow()
    // A forged second share gives some other key, never this one.
    const forged = new Uint8Array(auth)
    forged[auth.length - 1] = (forged[auth.length - 1]! + 1) % 256
    const other = await rebuildKey(auth, forged).catch(() => undefined)
    expect(other?.address).not.toBe(address)
  })

  test('a new share set rebuilds the same key but does not mix with the old one', async () => {
    const { address, key, shares: old } = await createKey()
    const fresh = await splitKey(key)
    expect((await rebuildKey(fresh[0]!, fresh[1]!)).address).toBe(address)
    const mixed = await rebuildKey(old[0]!, fresh[1]!).catch(() => undefined)
    expect(mixed?.address).not.toBe(address)
  })
})
