import type { DefaultAccountTypes } from '@porthole/protocol'

/** The account types each namespace offers (spec §6); the first is its default. */
export const AVAILABLE_ACCOUNT_TYPES: Readonly<Record<string, readonly string[]>> = {
  eip155: ['smartAccount', 'eoa'],
  solana: ['eoa'],
  polkadot: ['eoa'],
  cosmos: ['eoa'],
  bip122: ['payment'],
}

/**
 * Checks `defaultAccountTypes` (spec §3, §6): a type the namespace does not offer is refused with
 * an error naming it.
 *
 * @example
 * checkAccountTypes({ solana: 'smartAccount' })
 * // ['Option "defaultAccountTypes.solana": "smartAccount" is not available; Porthole's solana accounts are eoa']
 */
export function checkAccountTypes(types: DefaultAccountTypes | undefined): string[] {
  const errors: string[] = []
  for (const [namespace, type] of Object.entries(types ?? {})) {
    const available = AVAILABLE_ACCOUNT_TYPES[namespace] ?? []
    if (!available.includes(type))
      errors.push(
        `Option "defaultAccountTypes.${namespace}": "${type}" is not available; Porthole's ${namespace} accounts are ${available.join(' or ')}`,
      )
  }
  return errors
}

/**
 * The eip155 account type a new embedded user starts with: the host's `defaultAccountTypes`,
 * else spec §6's smartAccount. The user's own later choice (the Account view's toggle) wins.
 *
 * @example
 * evmAccountType({ eip155: 'eoa' }) // 'eoa'
 */
export function evmAccountType(types: DefaultAccountTypes | undefined): 'eoa' | 'smartAccount' {
  return types?.eip155 === 'eoa' ? 'eoa' : 'smartAccount'
}
