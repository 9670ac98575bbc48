/**
 * Porthole Dev Wallet: a real, minimal browser wallet for development and tests. It announces
 * itself with EIP-6963, holds one devnet key, signs with viem, sends raw transactions to the
 * devnet, and asks before every request (a prompt, or a mode set by a test). Never use it
 * with a real key.
 *
 * Configure before the script runs: `window.portholeDevWalletConfig = { privateKey, mode,
 * chains: { '0x7a69': 'http://127.0.0.1:8545' } }`; steer it later through
 * `window.portholeDevWallet` (`setMode`, `switchAccount`, `switchChain`, `disconnect`).
 */
import { type Hex, hexToString, isHex, numberToHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import * as DevWalletKit from './devWalletKit.ts'

type Config = {
  privateKey?: Hex
  privateKeys?: Hex[]
  mode?: DevWalletKit.Mode
  chains?: Record<string, string>
}
type Listener = (...args: unknown[]) => void

const ANVIL_KEYS: Hex[] = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
]

const config: Config =
  (window as unknown as { portholeDevWalletConfig?: Config }).portholeDevWalletConfig ?? {}
const keys = config.privateKeys ?? (config.privateKey ? [config.privateKey] : ANVIL_KEYS)
const STORE = 'porthole-dev-wallet'
const saved = JSON.parse(localStorage.getItem(STORE) ?? '{}') as {
  permitted?: boolean
  chainId?: string
  chains?: Record<string, string>
  account?: number
}
const chains: Record<string, string> = {
  '0x7a69': 'http://127.0.0.1:8545',
  '0x1': 'https://eth.merkle.io',
  ...config.chains,
  ...saved.chains,
}
let mode: DevWalletKit.Mode = config.mode ?? 'prompt'
let permitted = saved.permitted ?? false
let chainId = saved.chainId && chains[saved.chainId] ? saved.chainId : '0x7a69'
let accountIndex = saved.account ?? 0
const account = () => privateKeyToAccount(keys[accountIndex] ?? (keys[0] as Hex))
const listeners = new Map<string, Set<Listener>>()

const save = () =>
  localStorage.setItem(STORE, JSON.stringify({ permitted, chainId, chains, account: accountIndex }))
const emit = (event: string, ...args: unknown[]) => {
  for (const listener of listeners.get(event) ?? []) listener(...args)
}
// Like an extension, one wallet for every tab of the site: a connection granted in another tab
// is granted here too.
addEventListener('storage', (event) => {
  if (event.key !== STORE || event.newValue === null) return
  const next = JSON.parse(event.newValue) as typeof saved
  if (next.permitted === true && !permitted) {
    permitted = true
    emit('accountsChanged', [account().address])
  }
})
const error = DevWalletKit.error
const approve = (what: string) =>
  DevWalletKit.approve({
    mode,
    name: 'Porthole Dev Wallet',
    what,
    confirm: (text) => window.confirm(text),
  })

let rpcId = 1
async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
  const url = chains[chainId]
  if (!url) throw error(4901, 'Chain disconnected')
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: rpcId++, method, params }),
  })
  const body = (await response.json()) as { result?: T; error?: { code: number; message: string } }
  if (body.error) throw error(body.error.code, body.error.message)
  return body.result as T
}

function requireAccount(): void {
  if (!permitted) throw error(4100, 'Unauthorized')
}

type Tx = { from?: Hex; to?: Hex; value?: Hex; data?: Hex; gas?: Hex }

async function sendTransaction(tx: Tx): Promise<Hex> {
  requireAccount()
  const from = account().address
  await approve(
    `Send ${BigInt(tx.value ?? '0x0')} wei to ${tx.to ?? '(contract creation)'} on chain ${Number(chainId)}?`,
  )
  const [nonce, gas, block, tip] = await Promise.all([
    rpc<Hex>('eth_getTransactionCount', [from, 'pending']),
    tx.gas ?? rpc<Hex>('eth_estimateGas', [{ ...tx, from }]),
    rpc<{ baseFeePerGas: Hex }>('eth_getBlockByNumber', ['latest', false]),
    rpc<Hex>('eth_maxPriorityFeePerGas').catch(() => '0x3b9aca00' as Hex),
  ])
  const maxPriorityFeePerGas = BigInt(tip)
  const signed = await account().signTransaction({
    type: 'eip1559',
    chainId: Number(chainId),
    nonce: Number(nonce),
    gas: BigInt(gas),
    maxPriorityFeePerGas,
    maxFeePerGas: BigInt(block.baseFeePerGas) * 2n + maxPriorityFeePerGas,
    ...(tx.to ? { to: tx.to } : {}),
    value: BigInt(tx.value ?? '0x0'),
    ...(tx.data ? { data: tx.data } : {}),
  })
  return rpc<Hex>('eth_sendRawTransaction', [signed])
}

async function request({
  method,
  params = [],
}: {
  method: string
  params?: unknown
}): Promise<unknown> {
  const p = (Array.isArray(params) ? params : [params]) as never[]
  switch (method) {
    case 'eth_requestAccounts':
      if (!permitted) {
        await approve(`Connect ${location.origin} to ${account().address}?`)
        permitted = true
        save()
        emit('accountsChanged', [account().address])
      }
      return [account().address]
    case 'eth_accounts':
      return permitted ? [account().address] : []
    case 'eth_chainId':
      return chainId
    case 'net_version':
      return String(Number(chainId))
    case 'wallet_switchEthereumChain': {
      const target = String((p[0] as { chainId?: string } | undefined)?.chainId ?? '').toLowerCase()
      if (!chains[target]) throw error(4902, `Unrecognized chain ID "${target}".`)
      if (target !== chainId) {
        await approve(`Switch to chain ${Number(target)}?`)
        chainId = target
        save()
        emit('chainChanged', chainId)
      }
      return null
    }
    case 'wallet_addEthereumChain': {
      const chain = p[0] as { chainId?: string; rpcUrls?: string[]; chainName?: string } | undefined
      const target = String(chain?.chainId ?? '').toLowerCase()
      const url = chain?.rpcUrls?.[0]
      if (!isHex(target) || !url) throw error(-32602, 'Invalid chain parameters')
      await approve(`Add network ${chain?.chainName ?? target} (${url})?`)
      chains[target] = url
      chainId = target
      save()
      emit('chainChanged', chainId)
      return null
    }
    case 'personal_sign': {
      requireAccount()
      const message = p[0] as unknown as string
      const text = isHex(message) ? hexToString(message) : message
      await approve(`Sign this message?\n\n${text}`)
      return account().signMessage({ message: isHex(message) ? { raw: message } : message })
    }
    case 'eth_signTypedData_v4': {
      requireAccount()
      const data = JSON.parse(p[1] as unknown as string)
      await approve(`Sign typed data (${data.primaryType})?`)
      const { EIP712Domain: _domain, ...types } = data.types
      return account().signTypedData({
        domain: data.domain,
        types,
        primaryType: data.primaryType,
        message: data.message,
      })
    }
    case 'eth_sendTransaction':
      return sendTransaction(p[0] as unknown as Tx)
    case 'wallet_revokePermissions':
      permitted = false
      save()
      emit('accountsChanged', [])
      return null
    default:
      return rpc(method, p)
  }
}

const provider = {
  isPortholeDevWallet: true,
  request,
  on(event: string, listener: Listener) {
    const set = listeners.get(event) ?? new Set()
    listeners.set(event, set.add(listener))
    return provider
  },
  removeListener(event: string, listener: Listener) {
    listeners.get(event)?.delete(listener)
    return provider
  },
}

const info = Object.freeze({
  uuid: crypto.randomUUID(),
  name: 'Porthole Dev Wallet',
  icon: "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='8' fill='%23f97316'/><path d='M9 11h14v10H9z' fill='none' stroke='white' stroke-width='2.5'/></svg>",
  rdns: 'dev.porthole.wallet',
})
const announce = () =>
  window.dispatchEvent(
    new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
  )
window.addEventListener('eip6963:requestProvider', announce)
announce()

/** Test and demo controls. */
;(window as unknown as Record<string, unknown>).portholeDevWallet = {
  provider,
  setMode: (next: DevWalletKit.Mode) => {
    mode = next
  },
  get address() {
    return account().address
  },
  switchAccount(index: number) {
    accountIndex = index
    save()
    if (permitted) emit('accountsChanged', [account().address])
  },
  switchChain(id: number) {
    chainId = numberToHex(id)
    save()
    emit('chainChanged', chainId)
  },
  disconnect() {
    permitted = false
    save()
    emit('accountsChanged', [])
  },
}
