/**
 * Regtest addresses and output scripts: the address an output pays (what the Esplora API
 * indexes by) and Esplora's name for its script type.
 */
import { BITCOIN_REGTEST_NETWORK } from '@porthole/shared'
import { Address, OutScript } from '@scure/btc-signer'

const regtest = Address(BITCOIN_REGTEST_NETWORK)

/**
 * The canonical (lower-case bech32) form of a regtest address, or `undefined` when it is not
 * one.
 *
 * @example
 * normalizeAddress('BCRT1QQUV9LG5G2R4JKR0AHUN0DDFG5XNTXJELWJPNUW') // 'bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw'
 */
export function normalizeAddress(address: string): string | undefined {
  try {
    const text = /^bcrt1/i.test(address) ? address.toLowerCase() : address
    return regtest.encode(regtest.decode(text))
  } catch {
    return undefined
  }
}

/**
 * The output script paying `address` (a regtest address; throws on anything else).
 *
 * @example
 * scriptOf('bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw') // 0014… (P2WPKH)
 */
export function scriptOf(address: string): Uint8Array {
  return OutScript.encode(regtest.decode(address))
}

/**
 * The regtest address an output script pays, or `undefined` (OP_RETURN, bare scripts).
 *
 * @example
 * addressOf(scriptOf(address)) === address // true
 */
export function addressOf(script: Uint8Array): string | undefined {
  try {
    return regtest.encode(OutScript.decode(script))
  } catch {
    return undefined
  }
}

/**
 * Esplora's `scriptpubkey_type` of an output script: `v0_p2wpkh`, `v0_p2wsh`, `v1_p2tr`,
 * `p2pkh`, `p2sh`, `p2pk`, `op_return` or `unknown`.
 *
 * @example
 * scriptType(scriptOf('bcrt1p…')) // 'v1_p2tr'
 */
export function scriptType(script: Uint8Array): string {
  if (script[0] === 0x6a) return 'op_return'
  let type: string | undefined
  try {
    type = OutScript.decode(script).type
  } catch {
    type = undefined
  }
  const names: Record<string, string> = {
    wpkh: 'v0_p2wpkh',
    wsh: 'v0_p2wsh',
    tr: 'v1_p2tr',
    pkh: 'p2pkh',
    sh: 'p2sh',
    pk: 'p2pk',
  }
  return (type && names[type]) ?? 'unknown'
}
