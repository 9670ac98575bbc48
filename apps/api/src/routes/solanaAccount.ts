/**
 * Solana accounts in the path of `GET /v1/account/{account}/balance`.
 */
import { isSolanaAddress } from '@porthole/shared'
import { ApiError } from '../errors.js'

/** A Solana account: its network (CAIP-2) and its base58 address. */
export type SolanaAccount = { chainId: string; address: string }

/**
 * The Solana account `value` names: a CAIP-10 id `solana:<ref>:<address>`, or a bare address
 * when `chainId` is a `solana` network; `undefined` for anything else (an EVM account). Throws
 * `INVALID_REQUEST` for an address that is not 32–44 base58 characters.
 *
 * @example
 * parseSolanaAccount('solana:DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P:61UAJ1bK…', undefined) // { chainId: 'solana:DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P', address: '61UAJ1bK…' }
 * parseSolanaAccount('0xf39F…', undefined) // undefined
 */
export function parseSolanaAccount(
  value: string,
  chainId: string | undefined,
): SolanaAccount | undefined {
  let network: string
  let address: string
  if (value.startsWith('solana:')) {
    const parts = value.split(':')
    if (parts.length !== 3 || !parts[1] || !parts[2])
      throw new ApiError('INVALID_REQUEST', {
        details: `account: Invalid CAIP-10 address: ${value.slice(0, 120)}`,
      })
    network = `solana:${parts[1]}`
    address = parts[2]
  } else if (chainId?.startsWith('solana:')) {
    network = chainId
    address = value
  } else return undefined
  if (!isSolanaAddress(address))
    throw new ApiError('INVALID_REQUEST', {
      details: `address: ${address.slice(0, 100)} is not a Solana address (32 to 44 base58 characters)`,
    })
  return { chainId: network, address }
}
