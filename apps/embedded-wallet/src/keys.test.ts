import { describe, expect, test } from 'vitest'
import { createKey, freshX, rebuildKey, shareAt, xOf } from './keys.js'

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

  test('shareAt gives back the original device share from the other two, and new points of the same set', async () => {
    const { address, shares } = await createKey()
    const [device, auth, recovery] = shares as [Uint8Array, Uint8Array, Uint8Array]
    // A new device computes exactly the first device's share: no extra point exists.
    expect(
      Buffer.from(await shareAt([auth, recovery], xOf(device))).equals(Buffer.from(device)),
    ).toBe(true)
    expect(
      Buffer.from(await shareAt([device, auth], xOf(recovery))).equals(Buffer.from(recovery)),
    ).toBe(true)
    // A new recovery point (a re-seal) works with the old device and auth shares.
    const x = freshX([xOf(device), xOf(auth), xOf(recovery)])
    const fresh = await shareAt([device, auth], x)
    expect(xOf(fresh)).toBe(x)
    expect((await rebuildKey(fresh, auth)).address).toBe(address)
    expect((await rebuildKey(fresh, device)).address).toBe(address)
    await expect(shareAt([device, auth], xOf(auth))).rejects.toThrow('x must differ')
    await expect(shareAt([device, auth], 0)).rejects.toThrow('x must be 1 to 255')
  })

  test('shares of two different keys do not mix', async () => {
    const first = await createKey()
    const second = await createKey()
    const mixed = await rebuildKey(first.shares[0]!, second.shares[1]!).catch(() => undefined)
    expect(mixed?.address).not.toBe(first.address)
    expect(mixed?.address).not.toBe(second.address)
  })
})
