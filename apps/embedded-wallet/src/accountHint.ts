/**
 * What this device remembers of a user's accounts, readable without the account's code
 * (`smartAccount.ts`, ~37 KB): the smart account's address the factory gave for the owner on a
 * chain, and the user's preferred account type. A returning user's restore names the accounts from
 * it, with the deployment read from the chain, while that code loads (issue 26); the code then
 * reads the factory again, and its answer is the address.
 */
import type { AccountType, EmbeddedUser } from '@porthole/protocol'
import { DEVNET_AA, DEVNET_CHAIN_IDS } from '@porthole/shared'
import * as Api from './api.js'

type Address = `0x${string}`

/** The networks with smart accounts unless the runtime config names others: the devnets. */
export const DEFAULT_SMART_ACCOUNT_NETWORKS: readonly number[] = DEVNET_CHAIN_IDS.map((id) =>
  Number(id.split(':')[1]),
)

const PREFERENCE_KEY = 'porthole-wallet:preferredAccountType:'
const ADDRESS_KEY = 'porthole-wallet:smartAccountAddress:'

/** The account fields of a user (`EmbeddedUser`): what the chain says of the owner's accounts. */
export type AccountsDescription = Pick<
  EmbeddedUser,
  'address' | 'accounts' | 'preferredAccountType' | 'smartAccountDeployed'
>

/**
 * The user's preferred account type on this device (per owner): what they chose last, else
 * `smartAccount`.
 *
 * @example
 * preferredTypeOf('0x…') // 'smartAccount'
 */
export function preferredTypeOf(ownerAddress: string): AccountType {
  try {
    const stored = localStorage.getItem(PREFERENCE_KEY + ownerAddress.toLowerCase())
    if (stored === 'eoa' || stored === 'smartAccount') return stored
  } catch {
    // No storage for this frame (blocked): the default below, as for a user who never chose.
  }
  return 'smartAccount'
}

/**
 * Remembers the user's preferred account type on this device.
 *
 * @example
 * rememberPreferredType('0x…', 'eoa')
 */
export function rememberPreferredType(ownerAddress: string, type: AccountType): void {
  try {
    localStorage.setItem(PREFERENCE_KEY + ownerAddress.toLowerCase(), type)
  } catch {
    // No storage: the choice holds for this page (the Worker's state), not the next restore.
  }
}

const addressKey = (chainId: number, factory: string, ownerAddress: string) =>
  `${ADDRESS_KEY}${chainId}:${factory.toLowerCase()}:${ownerAddress.toLowerCase()}`

/**
 * The smart account's address the factory gave this device before for the owner on `chainId`, or
 * `undefined`.
 *
 * @example
 * rememberedAddress(31337, factory, '0x…')
 */
export function rememberedAddress(
  chainId: number,
  factory: string,
  ownerAddress: string,
): Address | undefined {
  try {
    const stored = localStorage.getItem(addressKey(chainId, factory, ownerAddress))
    return stored && /^0x[0-9a-fA-F]{40}$/.test(stored) ? (stored as Address) : undefined
  } catch {
    return undefined
  }
}

/**
 * Remembers the smart account's address the factory gave for the owner on `chainId`.
 *
 * @example
 * rememberAddress(31337, factory, owner, account.address)
 */
export function rememberAddress(
  chainId: number,
  factory: string,
  ownerAddress: string,
  address: string,
): void {
  try {
    localStorage.setItem(addressKey(chainId, factory, ownerAddress), address)
  } catch {
    // No storage here: the next restore waits for the account's code and the factory.
  }
}

/**
 * The account fields for an owner: with a smart account (its address, whether it is the active
 * one, whether it has code), or the EOA alone.
 *
 * @example
 * accountsOf(owner, { address: smart, active: true, deployed: false })
 */
export function accountsOf(
  ownerAddress: Address,
  smart?: { address: Address; active: boolean; deployed: boolean },
): AccountsDescription {
  const eoa = { address: ownerAddress, type: 'eoa' as const }
  if (!smart)
    return {
      address: ownerAddress,
      accounts: [eoa],
      preferredAccountType: 'eoa',
      smartAccountDeployed: false,
    }
  return {
    address: smart.active ? smart.address : ownerAddress,
    accounts: [eoa, { address: smart.address, type: 'smartAccount' }],
    preferredAccountType: smart.active ? 'smartAccount' : 'eoa',
    smartAccountDeployed: smart.deployed,
  }
}

/** Where smart accounts exist, and their factory (the page's runtime config). */
export type SmartAccountSettings = {
  networks?: readonly number[] | undefined
  factory?: Address | undefined
}

/**
 * The owner's accounts on `chainId` from what this device remembers, with the smart account's
 * deployment read from the chain (one request, through the API's RPC proxy); `undefined` when the
 * smart account's address is not remembered (the account's code must ask the factory).
 *
 * @example
 * await describeRemembered('0x…', 31337, { networks: [31337] })
 */
export async function describeRemembered(
  ownerAddress: Address,
  chainId: number,
  settings: SmartAccountSettings,
): Promise<AccountsDescription | undefined> {
  const networks = settings.networks ?? DEFAULT_SMART_ACCOUNT_NETWORKS
  if (!networks.includes(chainId)) return accountsOf(ownerAddress)
  const factory = settings.factory ?? DEVNET_AA.accountFactory
  const address = rememberedAddress(chainId, factory, ownerAddress)
  if (!address) return undefined
  const code = await Api.rpc<string | null>(`eip155:${chainId}`, 'eth_getCode', [address, 'latest'])
  return accountsOf(ownerAddress, {
    address,
    active: preferredTypeOf(ownerAddress) === 'smartAccount',
    deployed: !!code && code !== '0x',
  })
}
