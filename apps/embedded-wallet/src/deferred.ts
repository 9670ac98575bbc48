/**
 * The frame's code for what a signed-in user does, out of its first download: the smart account
 * (`smartAccount.ts`: viem's account abstraction, the SimpleAccount) and the requests that act as
 * the account (`accountRpc.ts`: cards' descriptions and simulation, permits, EIP-5792 batches,
 * smart sessions). Each loads on its first use; {@link warm} starts both as soon as a user is
 * signed in or signing in, so no request of theirs waits for the download.
 */

import { startSigner } from './signer.js'
import type { ConfigureSmartAccountsParameters } from './smartAccount.js'

type SmartAccountModule = typeof import('./smartAccount.js')
type AccountRpcModule = typeof import('./accountRpc.js')

let settings: ConfigureSmartAccountsParameters | undefined
const listeners = new Set<() => void>()
let smartAccount: Promise<SmartAccountModule> | undefined
let accountRpc: Promise<AccountRpcModule> | undefined

/**
 * Sets the networks with smart accounts and the account factory, applied when the smart-account
 * module loads (see `smartAccount.ts`'s `configureSmartAccounts`).
 *
 * @example
 * configureSmartAccounts({ networks: runtime.smartAccountNetworks })
 */
export function configureSmartAccounts(parameters: ConfigureSmartAccountsParameters): void {
  settings = parameters
  smartAccount?.then((module) => module.configureSmartAccounts(parameters))
}

/**
 * Calls `listener` when the user's account changes in the frame (e.g. the account deployed),
 * from the smart-account module's load on (nothing can change before).
 *
 * @example
 * onSmartAccountChange(() => emitUserChanged())
 */
export function onSmartAccountChange(listener: () => void): void {
  listeners.add(listener)
  smartAccount?.then((module) => module.onChange(listener))
}

/**
 * The smart-account module, configured; loaded on the first call.
 *
 * @example
 * const SmartAccount = await loadSmartAccount()
 */
export function loadSmartAccount(): Promise<SmartAccountModule> {
  smartAccount ??= import('./smartAccount.js').then(
    (module) => {
      if (settings) module.configureSmartAccounts(settings)
      for (const listener of listeners) module.onChange(listener)
      return module
    },
    (error: unknown) => {
      // A failed download is tried again by the next use.
      smartAccount = undefined
      throw error
    },
  )
  return smartAccount
}

/**
 * The account requests' module (with the smart-account module, configured); loaded on the first
 * call.
 *
 * @example
 * const { handleAccountRpc } = await loadAccountRpc()
 */
export function loadAccountRpc(): Promise<AccountRpcModule> {
  accountRpc ??= Promise.all([import('./accountRpc.js'), loadSmartAccount()]).then(
    ([module]) => module,
    (error: unknown) => {
      accountRpc = undefined
      throw error
    },
  )
  return accountRpc
}

/**
 * Starts loading both modules and the signer Worker, without waiting: a sign-in began, so the
 * key, the modal's `getUser` and the site's first account requests follow shortly. The Worker
 * makes the key a new user gets while the code is typed (`prepare`).
 *
 * @example
 * warm() // the e-mail code is on its way
 */
export function warm(): void {
  // A key that could not be made ahead is made by `create`, which reports its own failure.
  startSigner()
    .prepare()
    .catch(() => {})
  // A failed warm-up only loses the head start: the first use imports again and reports its error.
  loadAccountRpc().catch(() => {})
}
