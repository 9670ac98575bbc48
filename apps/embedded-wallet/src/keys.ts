/**
 * Key material operations, pure and testable: a new secp256k1 key split 2-of-3, a key rebuilt
 * from any two shares (shamir-secret-sharing, independently audited), and the wallet's Solana
 * (ed25519) key derived from that same secret. Only the signer Worker calls these with real keys.
 */
import { ed25519 } from '@noble/curves/ed25519'
import { hkdf } from '@noble/hashes/hkdf'
import { sha256 } from '@noble/hashes/sha2'
import { base58 } from '@scure/base'
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

/** The x coordinate of a share (its last byte, 1–255). */
export const xOf = (share: Uint8Array): number => share[share.length - 1] as number

/**
 * The share at `x` of the polynomial two shares lie on — the same secret, the same share set.
 * In GF(2⁸) addition is XOR, so the value at `x` is the value at 0 of the polynomial moved by
 * `x`: the library's own `combine` of the two shares with their coordinates XORed with `x`.
 * A new device gets the device share the first device got (same `x`), so no extra point of the
 * polynomial ever exists on a device, and the auth and recovery shares stay valid.
 *
 * @example
 * const device = await shareAt([auth, recovery], deviceX) // equals the original device share
 */
export async function shareAt(
  shares: readonly [Uint8Array, Uint8Array],
  x: number,
): Promise<Uint8Array> {
  const [a, b] = shares
  if (!Number.isInteger(x) || x < 1 || x > 255) throw new RangeError('x must be 1 to 255')
  if (x === xOf(a) || x === xOf(b)) throw new RangeError('x must differ from the given shares')
  const moved = (share: Uint8Array) => {
    const copy = new Uint8Array(share)
    copy[copy.length - 1] = xOf(share) ^ x
    return copy
  }
  const y = await combine([moved(a), moved(b)])
  const out = new Uint8Array(y.length + 1)
  out.set(y)
  out[y.length] = x
  return out
}

/**
 * An x coordinate for a new share, other than those given (random, so a new recovery share
 * does not repeat an old one).
 *
 * @example
 * const x = freshX([deviceX, xOf(auth)])
 */
export function freshX(taken: readonly number[]): number {
  for (;;) {
    const x = crypto.getRandomValues(new Uint8Array(1))[0] as number
    if (x !== 0 && !taken.includes(x)) return x
  }
}

/**
 * The HKDF `info` of the Solana key derivation, version 1. Part of every Solana address the
 * wallet ever reported: it never changes. A new derivation gets a new string (`…/v2`), and v1
 * stays derivable from the same shares.
 */
export const SOLANA_KEY_INFO = 'porthole/solana/ed25519/v1'

/** The wallet's Solana key: an ed25519 seed (RFC 8032 private key), its public key and address. */
export type SolanaKey = { seed: Uint8Array; publicKey: Uint8Array; address: string }

/**
 * The wallet's Solana key, derived from its custody secret (the 32-byte secp256k1 key the
 * shares rebuild), so one login gives both addresses with no new share and no new backup:
 *
 *   seed = HKDF-SHA256(IKM = secret, salt = none (RFC 5869: 32 zero bytes),
 *                      info = 'porthole/solana/ed25519/v1', L = 32)
 *   publicKey = Ed25519 public key of seed (RFC 8032); address = base58(publicKey)
 *
 * Why this is safe:
 * - One-way: HKDF is HMAC-SHA256, a PRF. The seed, the public key and any number of Solana
 *   signatures tell nothing about the secret, so a leaked or exported Solana key does not give
 *   the EVM key. (The other way does hold: whoever has the EVM private key can derive the
 *   Solana key with this public recipe. An exported EVM key is a backup of both.)
 * - Domain-separated: the secret is used directly only as a secp256k1 scalar; this fixed `info`
 *   string is used for nothing else, so the seed is independent of every other use of the
 *   secret, and a signature on one curve helps forge nothing on the other.
 * - Custody unchanged: the seed is a function of the secret alone, computed only where the
 *   secret is (the signer Worker), so the 2-of-3 threat model of DESIGN §4 covers it as is.
 *
 * @example
 * const { address } = solanaKeyOf(secret) // 'Fh2…' (base58, 32–44 characters)
 */
export function solanaKeyOf(secret: Uint8Array): SolanaKey {
  if (secret.length !== 32) throw new Error('The custody secret must be 32 bytes')
  const seed = hkdf(sha256, secret, undefined, SOLANA_KEY_INFO, 32)
  const publicKey = ed25519.getPublicKey(seed)
  return { seed, publicKey, address: base58.encode(publicKey) }
}
