/**
 * EIP-55 address checksums with a small Keccak-256 of our own. The modal's first download needs
 * only this one hash (a connected address is shown and handed out checksummed); taking it from
 * viem brought viem's hex and error modules and @noble/hashes along, ~13 KB of code (~4.5 KB on
 * the wire) into the modal's first download. Lanes are BigInts: slower than noble's 32-bit
 * halves, and a checksum hashes a single 40-byte block (tens of microseconds). Everything else
 * that hashes uses viem.
 */

const MASK = (1n << 64n) - 1n
/** Keccak-256's rate: 1088 bits, 17 lanes of 8 bytes. */
const RATE = 136

/** Rho's rotation and pi's destination lane, in the order the pi walk visits lanes. */
const ROTATIONS: number[] = []
const DESTINATIONS: number[] = []
/** Iota's round constants, from the spec's linear feedback shift register. */
const ROUND_CONSTANTS: bigint[] = []
{
  let x = 1
  let y = 0
  for (let t = 0; t < 24; t++) {
    ROTATIONS.push((((t + 1) * (t + 2)) / 2) % 64)
    ;[x, y] = [y, (2 * x + 3 * y) % 5]
    DESTINATIONS.push(x + 5 * y)
  }
  let r = 1
  for (let round = 0; round < 24; round++) {
    let constant = 0n
    for (let j = 0; j < 7; j++) {
      r = ((r << 1) ^ ((r >> 7) * 0x71)) & 0xff
      if (r & 2) constant ^= 1n << BigInt((1 << j) - 1)
    }
    ROUND_CONSTANTS.push(constant)
  }
}

const rotl = (lane: bigint, by: number): bigint =>
  by === 0 ? lane : ((lane << BigInt(by)) | (lane >> BigInt(64 - by))) & MASK

/** Keccak-f[1600] on the 25 lanes, in place. */
function permute(a: bigint[]): void {
  const c = new Array<bigint>(5)
  for (const constant of ROUND_CONSTANTS) {
    for (let x = 0; x < 5; x++)
      c[x] =
        (a[x] as bigint) ^
        (a[x + 5] as bigint) ^
        (a[x + 10] as bigint) ^
        (a[x + 15] as bigint) ^
        (a[x + 20] as bigint)
    for (let x = 0; x < 5; x++) {
      const d = (c[(x + 4) % 5] as bigint) ^ rotl(c[(x + 1) % 5] as bigint, 1)
      for (let y = 0; y < 25; y += 5) a[y + x] = (a[y + x] as bigint) ^ d
    }
    let current = a[1] as bigint
    for (let t = 0; t < 24; t++) {
      const to = DESTINATIONS[t] as number
      const next = a[to] as bigint
      a[to] = rotl(current, ROTATIONS[t] as number)
      current = next
    }
    for (let y = 0; y < 25; y += 5) {
      const row = a.slice(y, y + 5)
      for (let x = 0; x < 5; x++)
        a[y + x] =
          (row[x] as bigint) ^
          (((row[(x + 1) % 5] as bigint) ^ MASK) & (row[(x + 2) % 5] as bigint))
    }
    a[0] = (a[0] as bigint) ^ constant
  }
}

/**
 * Keccak-256 (Ethereum's, with Keccak's `0x01` padding rather than SHA-3's `0x06`) of `bytes`.
 *
 * @example
 * keccak256(new Uint8Array()) // Uint8Array [0xc5, 0xd2, 0x46, …] (c5d2460186f7233c…)
 */
export function keccak256(bytes: Uint8Array): Uint8Array {
  const padded = new Uint8Array((Math.floor(bytes.length / RATE) + 1) * RATE)
  padded.set(bytes)
  padded[bytes.length] = 0x01
  padded[padded.length - 1] = (padded[padded.length - 1] as number) | 0x80
  const state = new Array<bigint>(25).fill(0n)
  for (let block = 0; block < padded.length; block += RATE) {
    for (let lane = 0; lane < RATE / 8; lane++) {
      let value = 0n
      for (let i = 7; i >= 0; i--)
        value = (value << 8n) | BigInt(padded[block + lane * 8 + i] as number)
      state[lane] = (state[lane] as bigint) ^ value
    }
    permute(state)
  }
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++)
    out[i] = Number(((state[i >> 3] as bigint) >> BigInt((i & 7) * 8)) & 0xffn)
  return out
}

/**
 * The EIP-55 checksummed form of an EVM address (any letter case in, the checksum's out);
 * throws for anything that is not `0x` and 40 hex digits.
 *
 * @example
 * checksumAddress('0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359')
 * // '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'
 */
export function checksumAddress(address: string): `0x${string}` {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`Address "${address}" is invalid.`)
  const lower = address.slice(2).toLowerCase()
  const hash = keccak256(new TextEncoder().encode(lower))
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    const nibble = ((hash[i >> 1] as number) >> (i & 1 ? 0 : 4)) & 0xf
    out += nibble >= 8 ? (lower[i] as string).toUpperCase() : lower[i]
  }
  return out as `0x${string}`
}
