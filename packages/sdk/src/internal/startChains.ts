/**
 * What sdk.js loads from sdk-chains.js at start: injected-wallet discovery (EIP-6963 and
 * `window.ethereum`, Wallet Standard), whose descriptors the modal lists in its first frame,
 * and the calls and headless mode, which run in `sdk-calls.js`: loaded on the first call, just
 * after the modal opens (the visitor's click: a wallet is picked in the view it shows, later) or
 * when an injected wallet is connected (a restored session: its events are followed).
 */
import type { InjectedProviderInfo } from '@porthole/protocol/lite'
import type { ExternalConnector, Porthole } from '../types.js'
import type { Calls, CallsHost } from './calls.js'
import type { Headless } from './headless.js'
import { discoverInjected } from './injected.js'
import { loadCalls } from './loadCalls.js'
import { discoverStandardWallets } from './walletStandard.js'

/** What {@link startChains} needs from the instance. */
export type ChainsHost = Omit<CallsHost, 'evm' | 'standard' | 'porthole'> & {
  /** The instance: calls read its state; its `state` events say when to load the calls. */
  porthole: Pick<Porthole, 'getState' | 'connect' | 'on'>
  /** The injected wallet list changed (the instance sends the whole list again). */
  onChange(): void
  /** Where Wallet Standard events are exchanged; default `window`. */
  target?: EventTarget
  /** The host's own connectors (the `connectors` option), listed with the injected wallets. */
  connectors?: readonly ExternalConnector[] | undefined
}

/** What {@link startChains} returns: the calls and headless mode, and the wallets found. */
export type Chains = Pick<Calls, 'route' | 'injectedRequest'> &
  Headless & {
    /** Every injected wallet's descriptor, EVM ones first. */
    list(): InjectedProviderInfo[]
    stop(): void
  }

/**
 * Starts discovery; the calls load when first needed.
 *
 * @example
 * const chains = startChains({ porthole, ready, onChange: send })
 */
export function startChains(host: ChainsHost): Chains {
  const evm = discoverInjected(() => host.onChange(), host.connectors)
  const standard = discoverStandardWallets({
    onChange: () => host.onChange(),
    ...(host.target ? { target: host.target } : {}),
  })
  let calls: (Calls & Headless) | undefined
  let loading: Promise<Calls & Headless> | undefined
  const load = () =>
    (loading ??= loadCalls().then(
      (module) =>
        (calls = {
          ...module.createCalls({ ...host, evm, standard }),
          ...module.createHeadless(host.ready),
        }),
      (error: unknown) => {
        // Not cached: the next call that needs it tries again (and reports its own failure).
        loading = undefined
        throw error
      },
    ))
  // A warm-up: a failure here is the next call's to report (it loads again).
  const warmUp = () => void load().catch(() => {})
  let clicked = false
  const warm = ({ open, connections }: ReturnType<Porthole['getState']>) => {
    if (connections.some((c) => evm.get(c.connectorId) || standard.get(c.connectorId))) warmUp()
    else if (open && !clicked) {
      clicked = true
      // After the first frame the click shows: that frame needs nothing from sdk-calls.js, and
      // its fetch and run stay out of it (no request, no script between the click and it).
      requestAnimationFrame(() => setTimeout(warmUp))
    }
  }
  const stopWarming = host.porthole.on('state', warm as never)
  warm(host.porthole.getState())
  return {
    route: async (namespace, args) => (await load()).route(namespace, args),
    injectedRequest: async (params) => (await load()).injectedRequest(params),
    wallets: async () => (await load()).wallets(),
    connect: async (options) => (await load()).connect(options),
    list() {
      calls?.follow()
      return [...evm.list(), ...standard.list()]
    },
    stop() {
      stopWarming()
      evm.stop()
      standard.stop()
    },
  }
}
