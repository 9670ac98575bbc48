/**
 * Bitcoin accounts in the path of `GET /v1/account/{account}/balance`.
 */
import { normalizeBitcoinAddress } from '../chaindata/bitcoin.js'
import { ApiError } from '../errors.js'

/** A Bitcoin account: its network (CAIP-2) and its address in canonical form. */
export type BitcoinAccount = { chainId: string; address: string }

/**
 * The Bitcoin account `value` names: a CAIP-10 id `bip122:<ref>:<address>`, or a bare address
 * when `chainId` is a `bip122` network; `undefined` for anything else (an EVM account). Throws
 * `INVALID_REQUEST` for an address that is not one of its network.
 *
 * @example
 * parseBitcoinAccount('bip122:0f9188f13cb7b2c71f2a335e3a4fc328:bcrt1q…', undefined) // { chainId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328', address: 'bcrt1q…' }
 * parseBitcoinAccount('0xf39F…', undefined) // undefined
 */
export function parseBitcoinAccount(
  value: string,
  chainId: string | undefined,
): BitcoinAccount | undefined {
  let network: string
  let address: string
  if (value.startsWith('bip122:')) {
    const parts = value.split(':')
    if (parts.length !== 3 || !parts[1] || !parts[2])
      throw new ApiError('INVALID_REQUEST', {
        details: `account: Invalid CAIP-10 address: ${value.slice(0, 120)}`,
      })
    network = `bip122:${parts[1]}`
    address = parts[2]
  } else if (chainId?.startsWith('bip122:') && !/^(0x)?[0-9a-fA-F]{40}$/.test(value)) {
    network = chainId
    address = value
  } else return undefined
  const canonical = normalizeBitcoinAddress(network, address)
  if (!canonical)
    throw new ApiError('INVALID_REQUEST', {
      details: `address: ${address.slice(0, 100)} is not a Bitcoin address of ${network.slice(0, 64)}`,
    })
  return { chainId: network, address: canonical }
}
