import type { DefaultAccountTypes } from '@porthole/protocol'

/** The only account type each namespace has for now (eip155 smart accounts are not built yet). */
export const AVAILABLE_ACCOUNT_TYPES: Readonly<Record<string, string>> = {
  eip155: 'eoa',
  solana: 'eoa',
  polkadot: 'eoa',
  cosmos: 'eoa',
  bip122: 'payment',
}

/**
 * Checks `defaultAccountTypes` (spec §3, §6): accepted, but accounts are eoa only for now
 * (Bitcoin: payment first), so another type is refused with an error naming it.
 *
 * @example
 * checkAccountTypes({ eip155: 'smartAccount' })
 * // ['Option "defaultAccountTypes.eip155": "smartAccount" is not available yet …']
 */
export function checkAccountTypes(types: DefaultAccountTypes | undefined): string[] {
  const errors: string[] = []
  for (const [namespace, type] of Object.entries(types ?? {})) {
    const available = AVAILABLE_ACCOUNT_TYPES[namespace]
    if (type !== available)
      errors.push(
        `Option "defaultAccountTypes.${namespace}": "${type}" is not available yet; Porthole's ${namespace} accounts are ${available} only for now`,
      )
  }
  return errors
}
