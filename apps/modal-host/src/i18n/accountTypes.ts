/**
 * The account-type switch's strings (the embedded user's smart account and its owner): a
 * catalogue of its own, loaded with that view so the modal's first download does not carry them.
 */
import { catalogue } from './en.js'

export const accountTypes = {
  accounts: 'Accounts',
  smartAccount: 'Smart account',
  eoa: 'Owner account (EOA)',
  inUse: 'In use',
  use: 'Use',
  useAccount: 'Use {account}',
  notDeployed: 'Deploys with its first transaction',
  switchedToSmartAccount: 'Now using the smart account',
  switchedToEoa: 'Now using the owner account (EOA)',
} as const

/**
 * Looks up an account-type string and fills its `{placeholders}`.
 *
 * @example
 * tk('useAccount', { account: tk('eoa') }) // 'Use Owner account (EOA)'
 */
export const tk = catalogue('accountTypes', accountTypes)
