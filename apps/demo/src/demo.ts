/**
 * The demo dapp's own code: it uses `window.porthole` (created by the script tag) and talks
 * to the wallet through the EIP-1193 provider with viem, and through the Solana provider
 * (WalletConnect's Solana methods) with `@solana/web3.js`, as any dapp would.
 */
import { base58, base64 } from '@scure/base'
import { createWalletClient, custom, parseEther } from 'viem'

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
