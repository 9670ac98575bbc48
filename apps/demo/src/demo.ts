/**
 * The demo dapp's own code: it uses `window.porthole` (created by the script tag) and talks
 * to the wallet through the EIP-1193 provider with viem, and through the Solana provider
 * (WalletConnect's Solana methods) with `@solana/web3.js`, as any dapp would.
 */

import { DEVNET_TOKENS } from '@porthole/shared/devnet'
import { base58, base64 } from '@scure/base'
import {
  createWalletClient,
  custom,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  parseEther,
  parseUnits,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

type PortholeState = {
  status: string
  address: string | null
  caipNetworkId: string | null
  connector: { name: string } | null
}
type Provider = { request(args: { method: string; params?: unknown }): Promise<unknown> }
type Porthole = {
  connect(options?: { namespace?: 'eip155' | 'solana' | 'bip122' }): Promise<{ address: string }>
  open(): Promise<void>
  disconnect(): Promise<void>
  switchNetwork(id: string): Promise<void>
  getState(): PortholeState
  subscribe(listener: (state: PortholeState) => void): () => void
  getProvider(namespace: 'eip155'): Parameters<typeof custom>[0]
  getProvider(namespace: 'solana'): Provider
}

const porthole = (window as unknown as { porthole: Porthole }).porthole
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const client = createWalletClient({ transport: custom(porthole.getProvider('eip155')) })

function render(state: PortholeState) {
  $('status').textContent = state.status
  $('address').textContent = state.address ?? '—'
  $('network').textContent = state.caipNetworkId ?? '—'
  $('connector').textContent = state.connector?.name ?? '—'
}

function report(target: string, action: () => Promise<unknown>) {
  return async () => {
    $(target).textContent = '…'
    try {
      $(target).textContent = String(await action())
    } catch (error) {
      $(target).textContent = `Error: ${(error as Error).message}`
    }
  }
}

render(porthole.getState())
porthole.subscribe(render)
$('connect').onclick = report(
  'status',
  async () => (await porthole.connect()).address && 'connected',
)
$('open').onclick = () => void porthole.open()
$('disconnect').onclick = () => void porthole.disconnect()
for (const button of document.querySelectorAll<HTMLButtonElement>('[data-switch]'))
  button.onclick = () =>
    void porthole
      .switchNetwork(button.dataset.switch as string)
      .catch((e: Error) => alert(e.message))
$('sign').onclick = report('signature', async () => {
  const [account] = await client.requestAddresses()
  if (!account) throw new Error('Not connected')
  return client.signMessage({ account, message: $<HTMLInputElement>('message').value })
})
$('send').onclick = report('tx', async () => {
  const [account] = await client.requestAddresses()
  if (!account) throw new Error('Not connected')
  return client.sendTransaction({
    account,
    chain: null,
    to: $<HTMLInputElement>('to').value as `0x${string}`,
    value: parseEther($<HTMLInputElement>('amount').value),
  })
})

// Solana: the provider speaks WalletConnect's Solana JSON-RPC methods; @solana/web3.js builds
// the transaction (loaded on the first send).
const solana = porthole.getProvider('solana')
const solanaAccount = async () => {
  const [account] = (await solana.request({ method: 'solana_requestAccounts' })) as {
    pubkey: string
  }[]
  if (!account) throw new Error('Not connected')
  return account.pubkey
}
$('solana-connect').onclick = report(
  'solana-account',
  async () => (await porthole.connect({ namespace: 'solana' })).address,
)
$('solana-sign').onclick = report('solana-signature', async () => {
  const pubkey = await solanaAccount()
  const message = base58.encode(
    new TextEncoder().encode($<HTMLInputElement>('solana-message').value),
  )
  const { signature } = (await solana.request({
    method: 'solana_signMessage',
    params: { message, pubkey },
  })) as { signature: string }
  return signature
})
$('solana-send').onclick = report('solana-tx', async () => {
  const pubkey = await solanaAccount()
  const { Connection, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } = await import(
    '@solana/web3.js'
  )
  const connection = new Connection($('solana').dataset.rpc as string, 'confirmed')
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash()
  const transaction = new Transaction({
    feePayer: new PublicKey(pubkey),
    blockhash,
    lastValidBlockHeight,
  }).add(
    SystemProgram.transfer({
      fromPubkey: new PublicKey(pubkey),
      toPubkey: new PublicKey($<HTMLInputElement>('solana-to').value),
      lamports: Math.round(Number($<HTMLInputElement>('solana-amount').value) * LAMPORTS_PER_SOL),
    }),
  )
  const wire = transaction.serialize({ requireAllSignatures: false, verifySignatures: false })
  const { signature } = (await solana.request({
    method: 'solana_signAndSendTransaction',
    params: { transaction: base64.encode(wire) },
  })) as { signature: string }
  await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight }, 'confirmed')
  return signature
})

// A smart session: the page's own key (kept for this tab) may send up to 10 pUSD to the receiver
// for an hour; each send is signed by that key, so the wallet asks nothing.
const [PUSD] = DEVNET_TOKENS
const SESSION_KEY = 'porthole-demo:session-key'
const sessionKey = () => {
  let key = sessionStorage.getItem(SESSION_KEY) as Hex | null
  if (!key) {
    key = generatePrivateKey()
    sessionStorage.setItem(SESSION_KEY, key)
  }
  return privateKeyToAccount(key)
}
const eip155 = porthole.getProvider('eip155') as unknown as Provider
let sessionContext: string | null = null
$('grant').onclick = report('session', async () => {
  const granted = (await eip155.request({
    method: 'wallet_grantPermissions',
    params: [
      {
        expiry: Math.floor(Date.now() / 1000) + 3600,
        signer: { type: 'account', data: { id: sessionKey().address } },
        permissions: [
          {
            type: 'erc20-token-transfer',
            data: { address: PUSD?.address, ticker: 'pUSD' },
            policies: [
              { type: 'token-allowance', data: { allowance: toHex(parseUnits('10', 6)) } },
              { type: 'recipient', data: { address: $<HTMLInputElement>('to').value } },
            ],
          },
        ],
      },
    ],
  })) as { permissionsContext: string }
  sessionContext = granted.permissionsContext
  return `Session granted: ${sessionContext}`
})
$('session-send').onclick = report('session', async () => {
  if (!sessionContext) throw new Error('Grant a session first')
  const [from] = (await eip155.request({ method: 'eth_accounts' })) as string[]
  const prepared = (await eip155.request({
    method: 'wallet_prepareCalls',
    params: [
      {
        from,
        calls: [
          {
            to: PUSD?.address,
            data: encodeFunctionData({
              abi: erc20Abi,
              functionName: 'transfer',
              args: [$<HTMLInputElement>('to').value as Hex, parseUnits('2', 6)],
            }),
          },
        ],
        capabilities: { permissions: { context: sessionContext } },
      },
    ],
  })) as { preparedCalls: unknown; signatureRequest: { hash: Hex }; context: string }
  const signature = await sessionKey().signMessage({
    message: { raw: prepared.signatureRequest.hash },
  })
  const { id } = (await eip155.request({
    method: 'wallet_sendPreparedCalls',
    params: [{ preparedCalls: prepared.preparedCalls, signature, context: prepared.context }],
  })) as { id: string }
  return `Sent with the session: ${id}`
})
