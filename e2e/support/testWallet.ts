/**
 * A WalletConnect wallet built on the official wallet SDK (`@reown/walletkit` on
 * `@walletconnect/core`), running in the test process against the local relay. It signs with
 * a devnet key and sends transactions to the devnet, and each request can be approved or
 * rejected.
 */
import { WalletKit, type WalletKitTypes } from '@reown/walletkit'
import { Core } from '@walletconnect/core'
import { buildApprovedNamespaces, getSdkError } from '@walletconnect/utils'
import { createWalletClient, type Hex, http, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/** In-memory storage: each wallet its own, nothing on disk. */
function memoryStorage() {
  const map = new Map<string, unknown>()
  return {
    getKeys: async () => [...map.keys()],
    getEntries: async () => [...map.entries()] as [string, unknown][],
    getItem: async (key: string) => map.get(key) as never,
    setItem: async (key: string, value: unknown) => {
      map.set(key, value)
    },
    removeItem: async (key: string) => {
      map.delete(key)
    },
  }
}

export type TestWallet = Awaited<ReturnType<typeof startTestWallet>>

/**
 * Starts a wallet holding `privateKey` on the given chains.
 *
 * @example
 * const wallet = await startTestWallet({ privateKey, relayUrl: 'ws://127.0.0.1:4400' })
 * await wallet.pair(uri)
 */
export async function startTestWallet(options: {
  privateKey: Hex
  relayUrl?: string
  chains?: number[]
  rpc?: Record<number, string>
  name?: string
}) {
  const {
    privateKey,
    relayUrl = 'ws://127.0.0.1:4400',
    chains = [31337, 31338],
    rpc = { 31337: 'http://127.0.0.1:8545', 31338: 'http://127.0.0.1:8546' },
    name = 'Porthole Test Wallet',
  } = options
  let account = privateKeyToAccount(privateKey)
  let mode: 'approve' | 'reject' = 'approve'
  /** What `wallet_getAssets` answers (ERC-7811); undefined: no asset discovery reported. */
  let assets: Record<string, unknown> | undefined
  const requests: { method: string; params: unknown; chainId: string }[] = []
  const core = new Core({
    projectId: 'e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0',
    relayUrl,
    storage: memoryStorage() as never,
    customStoragePrefix: `${name}-${Math.random().toString(36).slice(2)}`,
    logger: 'silent',
  })
  const kit = await WalletKit.init({
    core: core as never,
    metadata: { name, description: 'e2e wallet', url: 'http://localhost', icons: [] },
    signConfig: { disableRequestQueue: true },
  } as never)

  const sign = async (method: string, params: unknown[], chainId: number): Promise<unknown> => {
    if (method === 'personal_sign')
      return account.signMessage({ message: { raw: params[0] as Hex } })
    if (method === 'eth_signTypedData_v4')
      return account.signTypedData(JSON.parse(params[1] as string))
    if (method === 'eth_sendTransaction') {
      const tx = params[0] as { to: Hex; value?: Hex; data?: Hex }
      const client = createWalletClient({ account, transport: http(rpc[chainId]) })
      return client.sendTransaction({
        chain: null,
        to: tx.to,
        ...(tx.value ? { value: BigInt(tx.value) } : {}),
        ...(tx.data ? { data: tx.data } : {}),
      })
    }
    if (method === 'wallet_switchEthereumChain') return null
    if (method === 'wallet_getCapabilities')
      return assets
        ? Object.fromEntries(chains.map((c) => [toHex(c), { assetDiscovery: { supported: true } }]))
        : {}
    if (method === 'wallet_getAssets' && assets) return assets
    throw Object.assign(new Error(`Unsupported method ${method}`), { code: 4200 })
  }

  const onProposal = async ({ id, params }: WalletKitTypes.SessionProposal) => {
    const namespaces = buildApprovedNamespaces({
      proposal: params,
      supportedNamespaces: {
        eip155: {
          chains: chains.map((c) => `eip155:${c}`),
          methods: [
            'personal_sign',
            'eth_signTypedData_v4',
            'eth_sendTransaction',
            'wallet_switchEthereumChain',
            'wallet_getCapabilities',
            'wallet_getAssets',
          ],
          events: ['accountsChanged', 'chainChanged'],
          accounts: chains.map((c) => `eip155:${c}:${account.address}`),
        },
      },
    })
    if (mode === 'reject') await kit.rejectSession({ id, reason: getSdkError('USER_REJECTED') })
    else await kit.approveSession({ id, namespaces })
  }
  const onRequest = async ({ id, topic, params }: WalletKitTypes.SessionRequest) => {
    const { method, params: args } = params.request
    requests.push({ method, params: args, chainId: params.chainId })
    const chainId = Number(params.chainId.split(':')[1])
    if (mode === 'reject') {
      await kit.respondSessionRequest({
        topic,
        response: {
          id,
          jsonrpc: '2.0',
          error: { code: 4001, message: 'User rejected the request.' },
        },
      })
      return
    }
    try {
      const result = await sign(method, args as unknown[], chainId)
      await kit.respondSessionRequest({ topic, response: { id, jsonrpc: '2.0', result } })
    } catch (error) {
      const { code = -32000, message } = error as { code?: number; message: string }
      await kit.respondSessionRequest({
        topic,
        response: { id, jsonrpc: '2.0', error: { code, message } },
      })
    }
  }
  kit.on('session_proposal', onProposal)
  kit.on('session_request', onRequest)

  const session = () => Object.values(kit.getActiveSessions())[0]

  return {
    address: () => account.address,
    requests,
    setMode: (next: 'approve' | 'reject') => {
      mode = next
    },
    /** Reports asset discovery and answers `wallet_getAssets` with `next` (undefined: neither). */
    setAssets: (next: Record<string, unknown> | undefined) => {
      assets = next
    },
    pair: (uri: string) => kit.pair({ uri }),
    session,
    /** Emits chainChanged (and updates the session's chain). */
    async switchChain(chainId: number) {
      const s = session()
      if (!s) throw new Error('No session')
      await kit.emitSessionEvent({
        topic: s.topic,
        event: { name: 'chainChanged', data: chainId },
        chainId: `eip155:${chainId}`,
      })
    },
    /** Switches to another key: updates the session's accounts and emits accountsChanged. */
    async switchAccount(next: Hex) {
      const s = session()
      if (!s) throw new Error('No session')
      account = privateKeyToAccount(next)
      const accounts = chains.map((c) => `eip155:${c}:${account.address}`)
      await kit.updateSession({
        topic: s.topic,
        namespaces: { ...s.namespaces, eip155: { ...s.namespaces.eip155!, accounts } },
      })
      await kit.emitSessionEvent({
        topic: s.topic,
        event: { name: 'accountsChanged', data: [account.address] },
        chainId: `eip155:${chains[0]}`,
      })
    },
    async disconnect() {
      const s = session()
      if (s)
        await kit.disconnectSession({ topic: s.topic, reason: getSdkError('USER_DISCONNECTED') })
    },
    async close() {
      kit.off('session_proposal', onProposal)
      kit.off('session_request', onRequest)
      await core.relayer.transportClose().catch(() => {})
    },
    toHex,
  }
}
