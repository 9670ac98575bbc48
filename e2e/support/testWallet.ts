/**
 * A WalletConnect wallet built on the official wallet SDK (`@reown/walletkit` on
 * `@walletconnect/core`), running in the test process against the local relay. It signs with
 * a devnet key and sends transactions to the devnet, and each request can be approved or
 * rejected.
 */
import { ed25519 } from '@noble/curves/ed25519'
import { endpoints, SOLANA_LOCALNET_CAIP } from '@porthole/shared'
import { WalletKit, type WalletKitTypes } from '@reown/walletkit'
import { base58 } from '@scure/base'
import { Keypair, Connection as SolanaConnection, VersionedTransaction } from '@solana/web3.js'
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
  /** An ed25519 seed (hex): the wallet also holds a Solana account on the local chain. */
  solanaSeed?: string
  /** Namespaces it approves (default: eip155, plus solana with a seed). */
  namespaces?: ('eip155' | 'solana')[]
  solanaRpc?: string
}) {
  const {
    privateKey,
    relayUrl = endpoints().relay,
    chains = [31337, 31338],
    rpc = { 31337: endpoints().devnet, 31338: endpoints().devnetB },
    name = 'Porthole Test Wallet',
    solanaSeed,
    solanaRpc = endpoints().solana,
  } = options
  const solana = solanaSeed ? Keypair.fromSeed(Buffer.from(solanaSeed, 'hex')) : undefined
  const approve = options.namespaces ?? (solana ? ['eip155', 'solana'] : ['eip155'])
  let account = privateKeyToAccount(privateKey)
  let mode: 'approve' | 'reject' = 'approve'
  /** What `wallet_getAssets` answers (ERC-7811); undefined: no asset discovery reported. */
  let assets: Record<string, unknown> | undefined
  const requests: { method: string; params: unknown; chainId: string }[] = []
  /** Every session proposal as the wallet received it (proposer metadata, Verify context). */
  const proposals: WalletKitTypes.SessionProposal[] = []
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

  /** WalletConnect's Solana methods, signed with the Solana key. */
  const signSolana = async (method: string, params: Record<string, unknown>): Promise<unknown> => {
    if (!solana) throw Object.assign(new Error('No Solana account'), { code: 4200 })
    if (method === 'solana_signMessage') {
      const message = base58.decode(params.message as string)
      return { signature: base58.encode(ed25519.sign(message, solana.secretKey.slice(0, 32))) }
    }
    const decode = (b64: string) => VersionedTransaction.deserialize(Buffer.from(b64, 'base64'))
    if (method === 'solana_signTransaction') {
      const tx = decode(params.transaction as string)
      tx.sign([solana])
      return {
        signature: base58.encode(tx.signatures[0] as Uint8Array),
        transaction: Buffer.from(tx.serialize()).toString('base64'),
      }
    }
    if (method === 'solana_signAndSendTransaction') {
      const tx = decode(params.transaction as string)
      tx.sign([solana])
      const signature = await new SolanaConnection(solanaRpc, 'confirmed').sendRawTransaction(
        tx.serialize(),
      )
      return { signature }
    }
    throw Object.assign(new Error(`Unsupported method ${method}`), { code: 4200 })
  }

  const onProposal = async (proposal: WalletKitTypes.SessionProposal) => {
    proposals.push(proposal)
    const { id, params } = proposal
    const supported: Record<
      string,
      { chains: string[]; methods: string[]; events: string[]; accounts: string[] }
    > = {}
    if (approve.includes('solana') && solana)
      supported.solana = {
        chains: [SOLANA_LOCALNET_CAIP],
        methods: ['solana_signMessage', 'solana_signTransaction', 'solana_signAndSendTransaction'],
        events: [],
        accounts: [`${SOLANA_LOCALNET_CAIP}:${solana.publicKey.toBase58()}`],
      }
    const namespaces = buildApprovedNamespaces({
      proposal: params,
      supportedNamespaces: {
        ...supported,
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
    if (!approve.includes('eip155')) delete namespaces.eip155
    if (mode === 'reject') await kit.rejectSession({ id, reason: getSdkError('USER_REJECTED') })
    else await kit.approveSession({ id, namespaces })
  }
  type JsonRpcResponse = Parameters<typeof kit.respondSessionRequest>[0]['response']
  /**
   * Answers a request, unless the wallet ended its session meanwhile (a request that arrived
   * just before a disconnect): like a real wallet, it then answers nothing (the dapp saw the
   * session end). Any other failure to answer is thrown.
   */
  const respond = async (topic: string, response: JsonRpcResponse) => {
    if (!kit.getActiveSessions()[topic]) return
    try {
      await kit.respondSessionRequest({ topic, response })
    } catch (error) {
      if (kit.getActiveSessions()[topic]) throw error
    }
  }
  const onRequest = async ({ id, topic, params }: WalletKitTypes.SessionRequest) => {
    const { method, params: args } = params.request
    requests.push({ method, params: args, chainId: params.chainId })
    const chainId = Number(params.chainId.split(':')[1]) || 0
    if (mode === 'reject') {
      await respond(topic, {
        id,
        jsonrpc: '2.0',
        error: { code: 4001, message: 'User rejected the request.' },
      })
      return
    }
    let response: JsonRpcResponse
    try {
      const result = params.chainId.startsWith('solana:')
        ? await signSolana(method, args as Record<string, unknown>)
        : await sign(method, args as unknown[], chainId)
      response = { id, jsonrpc: '2.0', result }
    } catch (error) {
      const { code = -32000, message } = error as { code?: number; message: string }
      response = { id, jsonrpc: '2.0', error: { code, message } }
    }
    await respond(topic, response)
  }
  kit.on('session_proposal', onProposal)
  kit.on('session_request', onRequest)

  const session = () => Object.values(kit.getActiveSessions())[0]

  return {
    address: () => account.address,
    solanaAddress: () => solana?.publicKey.toBase58(),
    requests,
    proposals,
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
