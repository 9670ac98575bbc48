/**
 * Wallets injected in the host page, reached through the SDK (the calls run there): EIP-6963
 * and `window.ethereum` for eip155, Wallet Standard wallets for solana and bip122. The SDK
 * speaks each namespace's provider methods (EIP-1193; WalletConnect's Solana and Bitcoin
 * JSON-RPC names) to them and forwards their events.
 */
import {
  BaseError,
  Checks,
  type ConnectorInfo,
  type InjectedProviderInfo,
  UserRejectedRequestError,
} from '@porthole/protocol'
import {
  EXTERNAL_PREFIX,
  externalImage,
  externalProblem,
  MAX_EXTERNAL,
} from '@porthole/protocol/external'
import {
  type ChainNamespace,
  caipOfStandardChain,
  isSolanaAddress,
  type Network,
  toHexChainId,
} from '@porthole/shared'
import * as Connection from '../actions/connection.js'
import { networkImageUrl } from '../api/client.js'
import { hostRequest } from '../host/bridge.js'
import { addRecent } from '../store/persist.js'
import { store } from '../store/store.js'
import type { BitcoinAccount, LiveConnection, WalletEntry } from '../store/types.js'
import type { Connector, ConnectorAccount } from './types.js'

/** How long a restored session waits for its wallet to announce itself. */
export const RESTORE_WAIT_MS = 2000

/** 'The connector does not support any of the requested chains' (spec §5). */
export const NO_MATCHING_CHAIN = 'The connector does not support any of the requested chains'

const ICON = /^data:image\/(?:png|jpeg|gif|webp|svg\+xml)[;,]/

const isAddress = (value: unknown): value is string =>
  typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value)

/**
 * Accepts the host's injected-wallet descriptors one by one; bad ones are skipped and icons
 * that are not image data URIs are dropped. The host's own connectors (`external`) are checked
 * further ({@link acceptExternal}).
 *
 * @example
 * setInjectedProviders(event.providers)
 */
export function setInjectedProviders(list: readonly unknown[]): void {
  const valid: InjectedProviderInfo[] = []
  for (const item of list) {
    // The host sends the legacy `window.ethereum` entry bare: it is the 'Browser Wallet'.
    const legacy = (item as { legacy?: unknown } | null)?.legacy === true
    const parsed = Checks.InjectedProviderInfo.safeParse(
      legacy ? { name: 'Browser Wallet', rdns: '', icon: '', ...(item as object) } : item,
    )
    if (!parsed.success) {
      const { external, uuid } = (item ?? {}) as { external?: unknown; uuid?: unknown }
      const issue = parsed.error.issues[0]
      if (external === true && typeof uuid === 'string' && issue)
        reportOnce(
          uuid,
          `[porthole] connector "${uuid.slice(EXTERNAL_PREFIX.length)}" refused: ${issue.path.join('.')}: ${issue.message}`,
        )
      continue
    }
    if (valid.some((v) => v.uuid === parsed.data.uuid)) continue
    const info = parsed.data
    if (info.external) valid.push(info)
    else if (!info.uuid.startsWith(EXTERNAL_PREFIX))
      valid.push({ ...info, icon: ICON.test(info.icon) ? info.icon : '' })
  }
  store.setState({ injected: acceptExternal(valid) })
}

const reported = new Set<string>()
/** A console error, once per key (the host sends its whole list again on every change). */
function reportOnce(key: string, message: string): void {
  if (reported.has(key)) return
  reported.add(key)
  console.error(message)
}

/**
 * Keeps the host connectors (`external`) of a descriptor list that the modal may show, and
 * every other entry: an id and name as `externalProblem` (`@porthole/protocol/external`) allows,
 * an id no other wallet's connector has (an rdns, 'injected'; case-insensitive) and no earlier
 * host connector has, eip155 only, at most {@link MAX_EXTERNAL}; an image that is not a data
 * URI or https URL is dropped.
 *
 * @example
 * acceptExternal([{ uuid: 'external:acme', name: 'Acme', icon: '', rdns: '', external: true }])
 */
export function acceptExternal(list: readonly InjectedProviderInfo[]): InjectedProviderInfo[] {
  const taken = new Set(
    list.filter((i) => !i.external).map((i) => connectorInfoFor(i).id.toLowerCase()),
  )
  let count = 0
  return list.flatMap((info) => {
    if (!info.external) return [info]
    const id = info.uuid.slice(EXTERNAL_PREFIX.length)
    const problem = !info.uuid.startsWith(EXTERNAL_PREFIX)
      ? 'not a host connector'
      : (externalProblem({ id, name: info.name }) ??
        (taken.has(id.toLowerCase())
          ? `id: '${id}' is another wallet's`
          : (info.namespace ?? 'eip155') !== 'eip155'
            ? 'eip155 only'
            : count >= MAX_EXTERNAL
              ? `at most ${MAX_EXTERNAL} connectors`
              : undefined))
    const image = externalImage(info.icon)
    // The host's developer reads why in this frame's console, as for a refused option.
    if (problem) reportOnce(info.uuid, `[porthole] connector "${id}" refused: ${problem}`)
    else if (info.icon && !image)
      reportOnce(
        `${info.uuid} image`,
        `[porthole] connector "${id}": image dropped (a PNG, JPEG, GIF, WebP or SVG data URI, or an https URL)`,
      )
    if (problem) return []
    taken.add(id.toLowerCase())
    count++
    return [
      {
        uuid: info.uuid,
        name: info.name,
        icon: image,
        rdns: '',
        external: true,
      },
    ]
  })
}

/** The namespace an injected wallet serves. */
export function namespaceOf(info: InjectedProviderInfo): ChainNamespace {
  return info.namespace ?? 'eip155'
}

/**
 * The connector value for an injected provider: EVM wallets by rdns (or 'injected'); Wallet
 * Standard wallets by name within their namespace (they have no rdns, and their uuid changes
 * with every page load).
 */
export function connectorInfoFor(info: InjectedProviderInfo): ConnectorInfo {
  const namespace = namespaceOf(info)
  // The host's own connector (spec §3 type EXTERNAL): by the id the host gave it.
  if (info.external)
    return {
      id: info.uuid.slice(EXTERNAL_PREFIX.length),
      type: 'EXTERNAL',
      name: info.name,
      uuid: info.uuid,
    }
  return {
    id:
      namespace === 'eip155' ? info.rdns || 'injected' : `${namespace}:${info.name}`.slice(0, 128),
    type: info.legacy ? 'INJECTED' : 'ANNOUNCED',
    name: info.name,
    ...(info.rdns ? { rdns: info.rdns } : {}),
    uuid: info.uuid,
  }
}

function chainIdOf(value: unknown): number {
  const id =
    typeof value === 'string'
      ? Number.parseInt(value, value.startsWith('0x') ? 16 : 10)
      : Number(value)
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error('Invalid chainId')
  return id
}

const isUnrecognized = (error: unknown) => {
  const e = error as { code?: number; data?: { originalError?: { code?: number } } }
  return e?.code === 4902 || e?.data?.originalError?.code === 4902
}

/**
 * The configured network of `namespace` to use with a wallet that declares `chains`: the
 * active network when the wallet has it, else the first configured one it has; 'The
 * connector does not support any of the requested chains' when none.
 */
function networkFor(namespace: ChainNamespace, chains: readonly string[] | undefined): Network {
  const { config, activeNetworkId } = store.getState()
  const declared = new Set((chains ?? []).map((c) => caipOfStandardChain(c) ?? c))
  const candidates = config.networks.filter(
    (n) => n.chainNamespace === namespace && declared.has(n.caipNetworkId),
  )
  const network = candidates.find((n) => n.caipNetworkId === activeNetworkId) ?? candidates[0]
  if (!network) throw new BaseError(NO_MATCHING_CHAIN)
  return network
}

/** The Bitcoin accounts a wallet names, payment first and ordinal second (spec §3). */
function bitcoinAccounts(answer: unknown): BitcoinAccount[] {
  if (!Array.isArray(answer)) return []
  const accounts = answer
    .filter((a): a is Record<string, unknown> => !!a && typeof a.address === 'string')
    .map(
      (a): BitcoinAccount => ({
        address: a.address as string,
        purpose: a.intention === 'ordinal' || a.purpose === 'ordinal' ? 'ordinal' : 'payment',
        ...(typeof a.publicKey === 'string' ? { publicKey: a.publicKey } : {}),
        ...(typeof a.path === 'string' ? { path: a.path } : {}),
      }),
    )
  return [
    ...accounts.filter((a) => a.purpose === 'payment'),
    ...accounts.filter((a) => a.purpose === 'ordinal'),
  ]
}

/**
 * A connector for an injected wallet (any namespace), its calls run by the host.
 *
 * @example
 * const connector = injectedConnector(info)
 * const accounts = await connector.connect({})
 */
export function injectedConnector(info: InjectedProviderInfo): Connector {
  const namespace = namespaceOf(info)
  const call = (method: string, params?: unknown, timeout?: number) =>
    hostRequest(
      'injectedRequest',
      {
        uuid: info.uuid,
        method,
        ...(params === undefined ? {} : { params: params as unknown[] }),
      },
      timeout ? { timeout } : undefined,
    )

  const evmAccounts = async (method: string): Promise<ConnectorAccount[]> => {
    const accounts = (await call(
      method,
      undefined,
      method === 'eth_accounts' ? 10_000 : 0,
    )) as unknown
    // An address is what a wallet must answer: anything else (a host connector's script can
    // answer anything) is no account, not a connection under a name the modal would show.
    if (!Array.isArray(accounts) || !isAddress(accounts[0])) return []
    const chainId = chainIdOf(await call('eth_chainId', undefined, 10_000))
    return [{ namespace, address: accounts[0], caipNetworkId: `eip155:${chainId}` }]
  }
  const solanaAccounts = async (method: string): Promise<ConnectorAccount[]> => {
    const answer = (await call(method, {}, method === 'solana_getAccounts' ? 10_000 : 0)) as unknown
    const pubkey = Array.isArray(answer) ? (answer[0] as { pubkey?: unknown })?.pubkey : undefined
    if (typeof pubkey !== 'string' || !isSolanaAddress(pubkey)) return []
    return [
      {
        namespace,
        address: pubkey,
        caipNetworkId: networkFor(namespace, info.chains).caipNetworkId,
      },
    ]
  }
  const btcAccounts = async (): Promise<ConnectorAccount[]> => {
    const network = networkFor(namespace, info.chains)
    const accounts = bitcoinAccounts(await call('getAccountAddresses', {}))
    const payment = accounts[0]
    if (!payment) return []
    return [{ namespace, address: payment.address, caipNetworkId: network.caipNetworkId, accounts }]
  }

  const connector: Connector = {
    info: connectorInfoFor(info),
    namespaces: [namespace],
    async connect() {
      if (namespace !== 'eip155') networkFor(namespace, info.chains) // refuse before the prompt
      const accounts =
        namespace === 'eip155'
          ? await evmAccounts('eth_requestAccounts')
          : namespace === 'solana'
            ? await solanaAccounts('solana_requestAccounts')
            : await btcAccounts()
      if (accounts.length === 0) throw new UserRejectedRequestError('Connection rejected')
      return accounts
    },
    async getAccounts() {
      if (namespace === 'eip155') return evmAccounts('eth_accounts')
      if (namespace === 'solana') return solanaAccounts('solana_getAccounts')
      return btcAccounts()
    },
    request({ method, params }) {
      return call(method, params)
    },
    async disconnect() {},
    ...(namespace === 'eip155'
      ? {
          async switchNetwork(network: Network) {
            const chainId = toHexChainId(network.id)
            const switchChain = () => call('wallet_switchEthereumChain', [{ chainId }])
            try {
              await switchChain()
            } catch (error) {
              if (!isUnrecognized(error)) throw error
              const explorer = network.blockExplorers?.default.url
              await call('wallet_addEthereumChain', [
                {
                  chainId,
                  chainName: network.name,
                  nativeCurrency: network.nativeCurrency,
                  rpcUrls: network.rpcUrls.default.http,
                  ...(explorer ? { blockExplorerUrls: [explorer] } : {}),
                  iconUrls: [network.assets.imageUrl ?? networkImageUrl(network.assets.imageId)],
                },
              ])
              await switchChain()
            }
          },
        }
      : {}),
  }
  return connector
}

/**
 * Follows an event from an injected wallet (the host forwards them by uuid): account switch,
 * chain switch, disconnect. Events of wallets that are not connected are ignored.
 *
 * @example
 * onInjectedEvent({ uuid, event: 'chainChanged', data: '0x1' })
 */
export function onInjectedEvent(event: { uuid: string; event: string; data: unknown }): void {
  const live = store.getState().connections.find((c) => c.connector.uuid === event.uuid)
  if (!live) return
  Connection.onConnectorEvent(live.connector.id, {
    event: event.event,
    data: event.data,
    namespace: live.namespace,
  })
}

function findInjected(connector: ConnectorInfo): InjectedProviderInfo | undefined {
  return store.getState().injected.find((i) => {
    const info = connectorInfoFor(i)
    return info.id.toLowerCase() === connector.id.toLowerCase() && info.type === connector.type
  })
}

/** Waits (at most 2 s) for the host to announce the wallet behind a saved connection. */
function waitForInjected(connector: ConnectorInfo): Promise<InjectedProviderInfo | undefined> {
  const found = findInjected(connector)
  if (found) return Promise.resolve(found)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      unsubscribe()
      resolve(undefined)
    }, RESTORE_WAIT_MS)
    const unsubscribe = store.subscribe(() => {
      const info = findInjected(connector)
      if (!info) return
      clearTimeout(timer)
      unsubscribe()
      resolve(info)
    })
  })
}

const restoreInjected = {
  async restore(saved: LiveConnection[]) {
    const first = saved[0]
    const info = first && (await waitForInjected(first.connector))
    return info ? injectedConnector(info) : undefined
  },
}
Connection.registerConnectorKind('ANNOUNCED', restoreInjected)
Connection.registerConnectorKind('INJECTED', restoreInjected)
Connection.registerConnectorKind('EXTERNAL', restoreInjected)

/**
 * Connects the injected wallet behind `wallet`: asks for accounts (the user approves in the
 * wallet), then records the connection and closes the modal. Errors (4001 when rejected, 'The
 * connector does not support any of the requested chains') propagate to the view.
 *
 * @example
 * await connectInjected(wallet)
 */
export async function connectInjected(wallet: WalletEntry): Promise<void> {
  const info = wallet.injected
  if (!info) throw new Error('Wallet not installed')
  const connector = injectedConnector(info)
  Connection.assertCanConnect(connector.info.id, [namespaceOf(info)])
  const accounts = await connector.connect({})
  store.setState((s) => ({ recentWallets: addRecent(s.recentWallets, wallet) }))
  Connection.setConnected(connector, accounts, { silent: false })
}
