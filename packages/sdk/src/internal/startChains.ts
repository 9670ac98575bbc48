/**
 * Everything sdk.js loads from sdk-chains.js at start: EIP-6963 / `window.ethereum` discovery
 * and the calls (Wallet Standard discovery, providers' routing, the modal's wallet calls).
 */
import { type Calls, type CallsHost, createCalls } from './calls.js'
import { discoverInjected } from './injected.js'

/**
 * Starts discovery and calls; `list()` is every injected wallet's descriptor, EVM ones first.
 *
 * @example
 * const calls = startChains({ porthole, ready, onChange: send })
 */
export function startChains(host: Omit<CallsHost, 'evm'>): Calls {
  const evm = discoverInjected(() => host.onChange())
  const calls = createCalls({ ...host, evm })
  return {
    ...calls,
    list: () => [...evm.list(), ...calls.list()],
    stop() {
      evm.stop()
      calls.stop()
    },
  }
}
