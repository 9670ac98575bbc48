/**
 * The wagmi connector: `porthole({ projectId })` in `createConfig`'s `connectors` puts a wagmi +
 * viem app on Porthole. It makes one Porthole instance (the npm SDK's `createPorthole`) the first
 * time it is needed in a browser, never at import or on a server, and maps wagmi's connector
 * calls onto it: `connect` opens the modal, `switchChain` is `switchNetwork('eip155:<id>')`, the
 * provider is the SDK's EIP-1193 provider, and its events become wagmi's `change`, `connect`
 * and `disconnect`.
 */
import {
  createPorthole,
  type EIP1193Provider,
  type Porthole,
  type PortholeOptions,
  type PortholeState,
} from '@porthole/sdk'
import {
  ChainNotConfiguredError,
  ConnectorNotConnectedError,
  createConnector,
  ProviderNotFoundError,
} from '@wagmi/core'
import {
  type Address,
  type Chain,
  getAddress,
  SwitchChainError,
  UserRejectedRequestError,
} from 'viem'

/** A network as the SDK's `networks` option takes it. */
type Network = Exclude<NonNullable<PortholeOptions['networks']>[number], string>

/** Parameters of {@link porthole}: the SDK's options (`createPorthole`) with a required `projectId`. */
export type PortholeParameters = Omit<PortholeOptions, 'projectId'> & {
  /** Your project id (from `npm run admin -- project create`). */
  projectId: string
  /**
   * How long `isAuthorized` (wagmi's reconnect after a reload) waits for the modal to report
   * whether it restored a session; default 10,000 ms.
   */
  restoreTimeoutMs?: number | undefined
}

/** What the connector adds to wagmi's connector interface. */
export type PortholeProperties = {
  /**
   * The connector's Porthole instance, created on first use (browser only; throws
   * `ProviderNotFoundError` where there is no `window`): for `open()`, `getState()`, the
   * Solana and Bitcoin providers, `on('display_uri')`…
   */
  getPorthole(): Porthole
}

/** rdns of the SDK's own EIP-6963 announcement: wagmi then adds no second connector for it. */
const RDNS = 'dev.porthole'
const ICON =
  "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='-1 -1 2 2'><circle r='1' fill='%2336f'/></svg>"

/** The EIP-1193 code of a request the user refused (here: the modal closed). */
const USER_REJECTED = 4001

porthole.type = 'porthole' as const

/**
 * A wagmi connector for Porthole: the connect-wallet modal with browser wallets, WalletConnect
 * and e-mail or social login, behind one EIP-1193 provider. SDK options pass through (`modalUrl`
 * says where the modal is hosted); `networks` defaults to the config's chains.
 *
 * @example
 * import { porthole } from '@porthole/wagmi'
 * import { createConfig, http } from 'wagmi'
 * import { base } from 'wagmi/chains'
 *
 * export const config = createConfig({
 *   chains: [base],
 *   connectors: [porthole({ projectId: 'YOUR_PROJECT_ID', modalUrl: 'https://modal.example.com' })],
 *   transports: { [base.id]: http() },
 * })
 */
export function porthole(parameters: PortholeParameters) {
  const { restoreTimeoutMs = 10_000, ...options } = parameters

  // Called once per wagmi config: each config has its own instance.
  return createConnector<EIP1193Provider, PortholeProperties>((config) => {
    let instance: Porthole | undefined
    // Set while our own disconnect() runs: wagmi's action updates its state itself.
    let disconnecting = false
    const emitChange = (data: { accounts?: readonly Address[]; chainId?: number }) =>
      config.emitter.emit('change', data)

    const getPorthole = (): Porthole => {
      if (typeof window === 'undefined') throw new ProviderNotFoundError()
      if (instance) return instance
      const created = createPorthole({
        ...options,
        networks: options.networks ?? config.chains.map(toNetwork),
      })
      instance = created
      const provider = created.getProvider('eip155')
      provider.on('connect', (info) => void connector.onConnect?.(info as { chainId: string }))
      provider.on('accountsChanged', (accounts) =>
        connector.onAccountsChanged(accounts as string[]),
      )
      provider.on('chainChanged', (chainId) => connector.onChainChanged(chainId as string))
      provider.on('disconnect', (error) => connector.onDisconnect(error as Error | undefined))
      return created
    }
    const provider = () => getPorthole().getProvider('eip155')
    const getAccounts = async (): Promise<readonly Address[]> => {
      const accounts = (await provider().request({ method: 'eth_accounts' })) as string[] | null
      return (accounts ?? []).map((address) => getAddress(address))
    }
    const getChainId = async (): Promise<number> => {
      const hex = (await provider().request({ method: 'eth_chainId' })) as string | null
      // Not connected while the modal is on another namespace's network: the config's first.
      return hex ? Number(hex) : config.chains[0].id
    }
    /** Waits for the modal's word on a session (a restore settled), at most `restoreTimeoutMs`. */
    const restored = () => until(getPorthole(), settled, restoreTimeoutMs)

    const connector = {
      id: 'porthole',
      name: 'Porthole',
      type: porthole.type,
      rdns: RDNS,
      icon: ICON,
      getPorthole,

      async setup() {
        // In the browser the instance starts at once (the modal frame preloads, a saved session
        // restores) and its events reach wagmi; a server has no window and makes none.
        if (typeof window !== 'undefined') getPorthole()
      },

      async connect<withCapabilities extends boolean = false>({
        chainId,
        isReconnecting,
        withCapabilities,
      }: {
        chainId?: number | undefined
        isReconnecting?: boolean | undefined
        withCapabilities?: withCapabilities | boolean | undefined
      } = {}) {
        const porthole = getPorthole()
        try {
          if (isReconnecting) {
            if (!eip155(await restored())) throw new ConnectorNotConnectedError()
          } else await porthole.connect({ namespace: 'eip155' })
        } catch (error) {
          throw rejected(error)
        }
        const accounts = await getAccounts()
        let currentChainId = await getChainId()
        if (chainId && chainId !== currentChainId) {
          const chain = await connector.switchChain({ chainId }).catch((error: unknown) => {
            if ((error as { code?: number }).code === UserRejectedRequestError.code) throw error
            return { id: currentChainId }
          })
          currentChainId = chain.id
        }
        return {
          accounts: (withCapabilities
            ? accounts.map((address) => ({ address, capabilities: {} }))
            : accounts) as never,
          chainId: currentChainId,
        }
      },

      async disconnect() {
        disconnecting = true
        try {
          await getPorthole().disconnect()
        } finally {
          disconnecting = false
        }
      },

      getAccounts,
      getChainId,

      async getProvider() {
        return provider()
      },

      async isAuthorized() {
        try {
          return !!eip155(await restored())
        } catch {
          return false
        }
      },

      async switchChain({ chainId }: { chainId: number }): Promise<Chain> {
        const chain = config.chains.find((c) => c.id === chainId)
        if (!chain) throw new SwitchChainError(new ChainNotConfiguredError())
        try {
          await getPorthole().switchNetwork(`eip155:${chainId}`)
        } catch (error) {
          const cause = rejected(error)
          throw cause instanceof UserRejectedRequestError ? cause : new SwitchChainError(cause)
        }
        const current = await getChainId()
        if (current !== chainId)
          throw new SwitchChainError(new Error(`The wallet stayed on chain ${current}`))
        emitChange({ chainId })
        return chain
      },

      onAccountsChanged(accounts: string[]) {
        // No accounts: the provider's `disconnect` event follows at once.
        if (accounts.length) emitChange({ accounts: accounts.map((a) => getAddress(a)) })
      },

      onChainChanged(chainId: string) {
        emitChange({ chainId: Number(chainId) })
      },

      async onConnect({ chainId }: { chainId: string }) {
        // Only when wagmi waits for one: a connection made in the modal itself (`open()`), or
        // a session restored after wagmi's reconnect gave up.
        if (!config.emitter.listenerCount('connect')) return
        const accounts = await getAccounts()
        if (accounts.length) config.emitter.emit('connect', { accounts, chainId: Number(chainId) })
      },

      onDisconnect(_error?: Error) {
        if (!disconnecting) config.emitter.emit('disconnect')
      },
    }
    return connector
  })
}

/** A viem chain as a Porthole network (only the fields the modal reads; no functions). */
function toNetwork(chain: Chain): Network {
  const explorer = chain.blockExplorers?.default
  return {
    id: chain.id,
    name: chain.name,
    nativeCurrency: { ...chain.nativeCurrency },
    rpcUrls: { default: { http: [...chain.rpcUrls.default.http] } },
    ...(explorer
      ? { blockExplorers: { default: { name: explorer.name, url: explorer.url } } }
      : {}),
    ...(chain.testnet === undefined ? {} : { testnet: chain.testnet }),
  }
}

/** The active EVM connection of a state, if any. */
function eip155(state: PortholeState) {
  return state.connections.find((c) => c.active && c.namespace === 'eip155')
}

/**
 * The modal has spoken (its state names a network; the SDK's own first state does not) and is
 * not restoring a session, or the instance failed.
 */
function settled(state: PortholeState): boolean {
  return state.error !== null || (state.caipNetworkId !== null && state.status !== 'connecting')
}

/** Resolves with the first state that passes `done` (the current one included), or the last at `ms`. */
function until(
  porthole: Porthole,
  done: (state: PortholeState) => boolean,
  ms: number,
): Promise<PortholeState> {
  return new Promise((resolve) => {
    const finish = (state: PortholeState) => {
      clearTimeout(timer)
      unsubscribe()
      resolve(state)
    }
    const timer = setTimeout(() => finish(porthole.getState()), ms)
    const unsubscribe = porthole.subscribe((state) => done(state) && finish(state))
    const now = porthole.getState()
    if (done(now)) finish(now)
  })
}

/** A refusal by the user (EIP-1193 4001) as wagmi expects it; anything else unchanged. */
function rejected(error: unknown): Error {
  return (error as { code?: number } | null)?.code === USER_REJECTED
    ? new UserRejectedRequestError(error as Error)
    : (error as Error)
}
