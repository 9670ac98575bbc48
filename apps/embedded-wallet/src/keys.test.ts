import { hkdfSync } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519'
import { Keypair } from '@solana/web3.js'
import { bytesToHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  createKey,
  freshX,
  rebuildKey,
  SOLANA_KEY_INFO,
  shareAt,
  solanaKeyOf,
  xOf,
} from './keys.js'

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

/** The v1 Solana address of the secret 0x0102…20 (computed with Node's HKDF and web3.js). */
const FROZEN_V1_ADDRESS = '4Mmj2VLTtBTdXBGQL6c7h7CGXPk1Y8mRAJY1yYzV3SQk'

describe('the Solana key derived from the custody secret', () => {
  const secret = Uint8Array.from({ length: 32 }, (_, i) => i + 1)

  test('is deterministic, and v1 never changes (a frozen vector)', () => {
    const first = solanaKeyOf(secret)
    const second = solanaKeyOf(new Uint8Array(secret))
    expect(second.address).toBe(first.address)
    expect(Buffer.from(second.seed).equals(Buffer.from(first.seed))).toBe(true)
    expect(SOLANA_KEY_INFO).toBe('porthole/solana/ed25519/v1')
    // Changing this value changes every user's Solana address: a new derivation is a new version.
    expect(first.address).toBe(FROZEN_V1_ADDRESS)
  })

  test('is HKDF-SHA256 with the documented info, and an ed25519 key Solana tools accept', () => {
    // An independent implementation of each step: Node's HKDF, web3.js's keypair.
    const seed = new Uint8Array(hkdfSync('sha256', secret, new Uint8Array(0), SOLANA_KEY_INFO, 32))
    const key = solanaKeyOf(secret)
    expect(Buffer.from(key.seed).equals(Buffer.from(seed))).toBe(true)
    expect(Keypair.fromSeed(seed).publicKey.toBase58()).toBe(key.address)
    expect(key.address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
  })

  test('differs from the EVM key, and the secret cannot be read back from it', () => {
    const key = solanaKeyOf(secret)
    expect(Buffer.from(key.seed).equals(Buffer.from(secret))).toBe(false)
    // Not the secret used on the other curve either: ed25519 of the secret itself is another key.
    expect(Buffer.from(key.publicKey).equals(Buffer.from(ed25519.getPublicKey(secret)))).toBe(false)
    const evm = privateKeyToAccount(bytesToHex(secret))
    expect(key.address).not.toBe(evm.address)
    expect(solanaKeyOf(Uint8Array.from(secret, (b, i) => (i === 31 ? b ^ 1 : b))).address).not.toBe(
      key.address,
    )
  })

  test('any two shares rebuild the same Solana address: no new share, no new backup', async () => {
    const { key, shares } = await createKey()
    const [device, auth, recovery] = shares as [Uint8Array, Uint8Array, Uint8Array]
    const address = solanaKeyOf(key).address
    for (const [a, b] of [
      [device, auth],
      [auth, recovery],
      [recovery, device],
    ] as const)
      expect(solanaKeyOf((await rebuildKey(a, b)).key).address).toBe(address)
    // A re-sealed recovery point of the same set gives the same address too.
    const fresh = await shareAt([device, auth], freshX([xOf(device), xOf(auth), xOf(recovery)]))
    expect(solanaKeyOf((await rebuildKey(fresh, auth)).key).address).toBe(address)
    expect(solanaKeyOf((await createKey()).key).address).not.toBe(address)
  })

  test('refuses a secret that is not 32 bytes', () => {
    expect(() => solanaKeyOf(new Uint8Array(31))).toThrow('The custody secret must be 32 bytes')
  })
})
