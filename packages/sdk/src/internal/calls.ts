/**
 * Where the SDK's calls run, in the host page: the dapp's provider calls (every namespace) and
 * the modal's calls on injected wallets, with the Solana and Bitcoin adapters. It is
 * `sdk-calls.js`, which sdk-chains.js loads on the first call, when the modal opens or when an
 * injected wallet is connected: no page needs it before its visitor's click. The wallets it
 * calls were found at start (`injected.ts`, `walletStandard.ts`, in sdk-chains.js).
 *
 * Provider routing: a call for an injected connection (the active one of its namespace in
 * `getState().connections`) goes straight to that wallet; the account methods are answered from
 * state (`eth_requestAccounts` / `solana_requestAccounts` open the modal until an account of the
 * namespace connects); everything else goes to the modal, which holds the other connections.
 */

import { CALLS_METHOD, callsError, checkCalls } from '@porthole/protocol/calls'
import {
  type Channel,
  DisconnectedError,
  type ErrorObject,
  type HostToModal,
  type InjectedEventName,
  type InjectedProviderInfo,
  type ModalToHost,
  toErrorObject,
  UnauthorizedError,
  UnsupportedMethodError,
} from '@porthole/protocol/lite'
import type { EIP1193Provider, Porthole, ProviderNamespace, RequestArguments } from '../types.js'
import type { InjectedWallet } from './injected.js'
import { bridgeStandardWallets, type DiscoverStandardWalletsReturnType } from './walletStandard.js'

/** Methods the modal may run on an injected EVM wallet (defence in depth: the modal is trusted). */
export const MODAL_METHODS =
  /^(?:eth_(?:requestAccounts|accounts|chainId|sendTransaction)|wallet_(?:switchEthereumChain|addEthereumChain|getCapabilities|getAssets)|personal_sign)$/

/** The EIP-1193 events forwarded to the modal. */
const EVENTS: InjectedEventName[] = ['accountsChanged', 'chainChanged', 'connect', 'disconnect']

/** What {@link createCalls} needs from the instance. */
export type CallsHost = {
  /** The instance: its state, and `connect({ namespace })` to open the modal for an account. */
  porthole: Pick<Porthole, 'getState' | 'connect'>
  /** The EIP-6963 wallets (`discoverInjected`): their list, each by uuid or connector id. */
  evm: { get(id: string): InjectedWallet | undefined; list(): InjectedProviderInfo[] }
  /** The Wallet Standard wallets (`discoverStandardWallets`). */
  standard: Pick<DiscoverStandardWalletsReturnType, 'get' | 'entries'>
  /** The channel to the modal, once it is up: provider calls the modal holds, wallet events. */
  ready(): Promise<Pick<Channel.Channel<HostToModal, ModalToHost>, 'request' | 'emit'>>
}

/** What {@link createCalls} returns. */
export type Calls = {
  /** Runs one provider call of `namespace` for the dapp. */
  route(namespace: ProviderNamespace, args: RequestArguments): Promise<unknown>
  /** Runs one call of the modal on the injected wallet with this uuid. */
  injectedRequest(params: { uuid: string; method: string; params?: unknown }): Promise<unknown>
  /** Follows the events of the wallets found since (called whenever the list changes). */
  follow(): void
}

/** The most JSON text of a wallet's error data sent to the modal (larger data is left out). */
const MAX_ERROR_DATA = 10_000

/** A JSON copy of a wallet's answer (null for undefined); throws when it is not JSON. */
const copy = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null))

/**
 * A wallet's error as plain data for the modal: its code and message, and a JSON copy of its
 * data when small; whatever it threw (a string, a getter that throws, a circular object).
 *
 * @example
 * plainError({ code: 4001, message: 'User rejected' }) // { code: 4001, message: 'User rejected' }
 */
export function plainError(error: unknown): ErrorObject {
  try {
    const out = toErrorObject(error)
    if (out.data !== undefined) {
      const text = JSON.stringify(out.data)
      if (text.length <= MAX_ERROR_DATA) out.data = JSON.parse(text)
      else delete out.data
    }
    return out
  } catch {
    return { code: -32603, message: 'The wallet failed' }
  }
}

/**
 * Returns the call router, following the events of every wallet found.
 *
 * @example
 * const calls = createCalls({ porthole, evm, standard, ready })
 * await calls.route('solana', { method: 'solana_getAccounts' }) // [{ pubkey }]
 */
export function createCalls(host: CallsHost): Calls {
  const onEvent = (uuid: string, event: InjectedEventName, data: unknown) =>
    host.ready().then(
      (channel) => channel.emit('injectedEvent', { uuid, event, data }),
      () => {}, // the instance failed or was destroyed: nobody to tell
    )
  const standard = bridgeStandardWallets(host.standard, onEvent)
  const wallet = (
    namespace: ProviderNamespace,
    id: string,
  ): Pick<EIP1193Provider, 'request'> | undefined =>
    namespace === 'eip155' ? host.evm.get(id)?.provider : standard.get(id)
  const followed = new Set<string>()
  const follow = () => {
    standard.follow()
    for (const { uuid } of host.evm.list()) {
      const provider = host.evm.get(uuid)?.provider
      if (!provider || followed.has(uuid)) continue
      followed.add(uuid)
      // A provider whose `on` throws (a host connector's, say) is not followed: its events are
      // lost, and nothing else is (the calls still work, and the other wallets are followed).
      try {
        for (const event of EVENTS)
          (provider as { on?: EIP1193Provider['on'] }).on?.(event, (data: unknown) =>
            onEvent(uuid, event, data instanceof Error ? toErrorObject(data) : data),
          )
      } catch (error) {
        console.error('[porthole] cannot follow the events of', uuid, error)
      }
    }
  }
  follow()

  return {
    async route(namespace, args) {
      const { method } = args
      const state = host.porthole.getState()
      const connection = state.connections.find((c) => c.active && c.namespace === namespace)
      const injected = connection && wallet(namespace, connection.connectorId)
      if (injected && !CALLS_METHOD.test(method)) return injected.request(args)
      if (injected) {
        // EIP-5792 on a browser wallet: the batch rules first; a wallet that does not know the
        // methods answers 4200 by name.
        if (method === 'wallet_sendCalls') checkCalls(args.params)
        return injected.request(args).catch((error: unknown) => {
          const name =
            (namespace === 'eip155' && host.evm.get(connection.connectorId)?.info.name) ||
            'The wallet'
          throw callsError(error, method, name)
        })
      }
      const accounts = (address: string) => [namespace === 'solana' ? { pubkey: address } : address]
      if (namespace === 'eip155' && method === 'eth_chainId') {
        const chainId = connection ? Number(connection.caipAddress.split(':')[1]) : state.chainId
        return typeof chainId === 'number' ? `0x${chainId.toString(16)}` : null
      }
      if (method === 'eth_accounts' || method === 'solana_getAccounts')
        return connection ? accounts(connection.address) : []
      if (method === 'eth_requestAccounts' || method === 'solana_requestAccounts')
        return accounts((connection ?? (await host.porthole.connect({ namespace }))).address)
      if (!connection) throw new UnauthorizedError('Not connected')
      return (await host.ready()).request('request', {
        ...(args as HostToModal['requests']['request']['params']),
        namespace,
      })
    },
    async injectedRequest({ uuid, method, params }) {
      const evm = host.evm.get(uuid)
      if (evm && !MODAL_METHODS.test(method)) throw new UnsupportedMethodError()
      // Wallet Standard adapters refuse what is not theirs themselves.
      const target = evm?.provider ?? standard.get(uuid)
      if (!target) throw new DisconnectedError('Wallet not found')
      // What goes back to the modal is plain JSON, whatever the wallet gave or threw.
      try {
        return copy(
          await target.request(
            params === undefined
              ? { method }
              : { method, params: params as RequestArguments['params'] },
          ),
        )
      } catch (error) {
        throw plainError(error)
      }
    },
    follow,
  }
}
