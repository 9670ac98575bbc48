/**
 * CAIP-2 network ids and CAIP-10 account ids (spec §5 validation rules).
 */
import { BaseError } from '@porthole/protocol'

/** Chain namespaces Porthole supports (spec §5). */
export const CHAIN_NAMESPACES = ['eip155', 'solana', 'polkadot', 'bip122', 'cosmos'] as const
export type ChainNamespace = (typeof CHAIN_NAMESPACES)[number]

/** Thrown for a malformed CAIP-2 id: 'Invalid CAIP-2 network id: ...'. */
export class InvalidCaipNetworkIdError extends BaseError {
  override name = 'InvalidCaipNetworkIdError'
  constructor(value: string) {
    super(`Invalid CAIP-2 network id: ${value}`)
  }
}

/** Thrown for a malformed CAIP-10 address: 'Invalid CAIP-10 address: ...'. */
export class InvalidCaipAddressError extends BaseError {
  override name = 'InvalidCaipAddressError'
  constructor(value: string) {
    super(`Invalid CAIP-10 address: ${value}`)
  }
}

/** True for a namespace Porthole supports. */
export function isChainNamespace(value: string): value is ChainNamespace {
  return (CHAIN_NAMESPACES as readonly string[]).includes(value)
}

/**
 * Splits a CAIP-2 id: exactly two colon-separated parts, else 'Invalid CAIP-2 network id: ...'.
 *
 * @example
 * parseCaipNetworkId('eip155:1') // { namespace: 'eip155', reference: '1' }
 */
export function parseCaipNetworkId(id: string): { namespace: string; reference: string } {
  const parts = id.split(':')
  if (parts.length !== 2 || !parts[0] || !parts[1]) throw new InvalidCaipNetworkIdError(id)
  return { namespace: parts[0], reference: parts[1] }
}

/**
 * Splits a CAIP-10 account id: exactly three parts with a known namespace, else
 * 'Invalid CAIP-10 address: ...'.
 *
 * @example
 * parseCaipAddress('eip155:1:0xab…') // { namespace: 'eip155', reference: '1', address: '0xab…' }
 */
export function parseCaipAddress(value: string): {
  namespace: ChainNamespace
  reference: string
  address: string
} {
  const parts = value.split(':')
  const [namespace, reference, address] = parts
  if (parts.length !== 3 || !namespace || !reference || !address || !isChainNamespace(namespace))
    throw new InvalidCaipAddressError(value)
  return { namespace, reference, address }
}

/**
 * Builds a CAIP-10 id from a CAIP-2 network id and an address.
 *
 * @example
 * toCaipAddress('eip155:1', '0xab…') // 'eip155:1:0xab…'
 */
export function toCaipAddress(caipNetworkId: string, address: string): string {
  parseCaipNetworkId(caipNetworkId)
  return `${caipNetworkId}:${address}`
}

/**
 * Normalises a chain id given as a number, a decimal or hex string, or a CAIP-2 id into the
 * CAIP-2 id of an eip155 chain (spec: "Chain ids are strings or numbers").
 *
 * @example
 * toEip155NetworkId('0x1') // 'eip155:1'
 */
export function toEip155NetworkId(chainId: number | string): string {
  if (typeof chainId === 'string' && chainId.includes(':')) {
    parseCaipNetworkId(chainId)
    return chainId
  }
  const id = typeof chainId === 'number' ? chainId : Number(chainId)
  if (!Number.isSafeInteger(id) || id <= 0) throw new InvalidCaipNetworkIdError(String(chainId))
  return `eip155:${id}`
}

/**
 * EVM chain id to its ENSIP-11 coin type; the id must be below 2^31, else 'Invalid chainId'.
 *
 * @example
 * evmChainIdToCoinType(10) // 2147483658
 */
export function evmChainIdToCoinType(chainId: number): number {
  if (!Number.isInteger(chainId) || chainId < 0 || chainId >= 0x80000000)
    throw new BaseError('Invalid chainId')
  return (0x80000000 | chainId) >>> 0
}
