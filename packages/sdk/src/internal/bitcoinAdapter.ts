/**
 * A Wallet Standard Bitcoin wallet behind WalletConnect's bip122 JSON-RPC methods. Bitcoin has
 * no Wallet Standard signing features yet, so Porthole reads one feature, `bitcoin:request`:
 *
 *   features['bitcoin:request'] = { version: '1.0.0', request({ method, params }): Promise<result> }
 *
 * speaking WalletConnect's bip122 methods with their params and results unchanged
 * (`getAccountAddresses`, `signMessage`, `signPsbt`, `sendTransfer`). The demo's Bitcoin dev
 * wallet implements it. A wallet that also has `standard:connect` is connected first when it
 * has granted no account (silently; `getAccountAddresses`, the modal's connect, asks if that
 * gives none). Methods outside spec §6's Bitcoin list are refused (4200).
 */
import { UnsupportedMethodError } from '@porthole/protocol/lite'
import {
  accountsOn,
  type ConnectFeature,
  followAccounts,
  type StandardAdapter,
  type StandardWallet,
} from './standardTypes.js'

const BITCOIN = 'bitcoin:'

/** Spec §6's Bitcoin wallet methods. */
const METHODS = ['getAccountAddresses', 'signMessage', 'signPsbt', 'sendTransfer']

type RequestFeature = { request(args: { method: string; params?: unknown }): Promise<unknown> }

/**
 * True for a Wallet Standard wallet the SDK bridges as Bitcoin: a `bitcoin:*` chain and a
 * `bitcoin:request` feature.
 *
 * @example
 * if (isBitcoinWallet(wallet)) adapters.set(uuid, createBitcoinAdapter(wallet))
 */
export const isBitcoinWallet = (wallet: StandardWallet): boolean =>
  wallet.chains.some((c) => c.startsWith(BITCOIN)) &&
  typeof (wallet.features['bitcoin:request'] as RequestFeature | undefined)?.request === 'function'

/**
 * The adapter of one Bitcoin wallet: the four methods pass through to `bitcoin:request`.
 *
 * @example
 * const [payment] = await createBitcoinAdapter(wallet).request({ method: 'getAccountAddresses', params: {} })
 */
export function createBitcoinAdapter(wallet: StandardWallet): StandardAdapter {
  const feature = wallet.features['bitcoin:request'] as RequestFeature
  const connect = wallet.features['standard:connect'] as ConnectFeature | undefined
  const granted = (accounts: StandardWallet['accounts']) => accountsOn(accounts, BITCOIN).length
  return {
    async request({ method, params }) {
      if (!METHODS.includes(method)) throw new UnsupportedMethodError()
      if (connect && !granted(wallet.accounts)) {
        const { accounts } = await connect.connect({ silent: true })
        if (!granted(accounts) && method === 'getAccountAddresses') await connect.connect()
      }
      return feature.request(params === undefined ? { method } : { method, params })
    },
    on: followAccounts(wallet, BITCOIN),
  }
}
