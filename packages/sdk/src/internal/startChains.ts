/**
 * Everything sdk.js loads from sdk-chains.js at start: EIP-6963 / `window.ethereum` discovery,
 * the calls (Wallet Standard discovery, providers' routing, the modal's wallet calls) and
 * headless mode (`wallets()`, `connect({ wallet })`, `connect({ email })`).
 */
import { type Calls, type CallsHost, createCalls } from './calls.js'
import { createHeadless, type Headless } from './headless.js'
import { discoverInjected } from './injected.js'

/** What {@link startChains} returns: the calls and headless mode. */
export type Chains = Calls & Headless

/**
 * Starts discovery, calls and headless mode; `list()` is every injected wallet's descriptor,
 * EVM ones first.
 *
 * @example
 * const calls = startChains({ porthole, ready, onChange: send })
 */
export function startChains(host: Omit<CallsHost, 'evm'>): Chains {
  const evm = discoverInjected(() => host.onChange())
  const calls = createCalls({ ...host, evm })
  return {
    ...calls,
    ...createHeadless(host.ready),
    list: () => [...evm.list(), ...calls.list()],
    stop() {
      evm.stop()
      calls.stop()
    },
  }
}
