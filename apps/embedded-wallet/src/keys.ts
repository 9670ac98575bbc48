/**
 * Key material operations, pure and testable: a new secp256k1 key split 2-of-3, and a key
 * rebuilt from any two shares (shamir-secret-sharing, independently audited). Only the signer
 * Worker calls these with real keys.
 */
import { combine, split } from 'shamir-secret-sharing'
import { bytesToHex, hexToBytes } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'

/** Number of shares and how many rebuild the key (DESIGN §4). */
export const SHARES = 3
export const THRESHOLD = 2

/**
 * Creates a key and its three shares (device, auth, recovery — in that order by convention).
 *
 * @example
 * const { key, address, shares } = await createKey()
 */
export async function createKey(): Promise<{
  key: Uint8Array
  address: string
  shares: Uint8Array[]
}> {
  const key = hexToBytes(generatePrivateKey())
  return {
    key,
    address: privateKeyToAddress(bytesToHex(key)),
    shares: await split(key, SHARES, THRESHOLD),
  }
}

/**
 * Rebuilds a key from two shares. Wrong shares give a different key (Shamir has no integrity):
 * callers compare the address with the one on record.
 *
 * @example
 * const { key, address } = await rebuildKey(deviceShare, authShare)
 */
export async function rebuildKey(
  a: Uint8Array,
  b: Uint8Array,
): Promise<{ key: Uint8Array; address: string }> {
  const key = await combine([a, b])
  if (key.length !== 32) throw new Error('Shares do not form a key')
  return { key, address: privateKeyToAddress(bytesToHex(key)) }
}

/** A fresh share set for a key (a new device gets its own device share). */
export function splitKey(key: Uint8Array): Promise<Uint8Array[]> {
  return split(key, SHARES, THRESHOLD)
}
