/**
 * The demo dapp's own code: it uses `window.porthole` (created by the script tag) and talks
 * to the wallet through the EIP-1193 provider with viem, as any dapp would.
 */
import { createWalletClient, custom, parseEther } from 'viem'

type PortholeState = {
  status: string
  address: string | null
  caipNetworkId: string | null
  connector: { name: string } | null
}
type Porthole = {
  connect(): Promise<{ address: string }>
  open(): Promise<void>
  disconnect(): Promise<void>
  switchNetwork(id: string): Promise<void>
  getState(): PortholeState
  subscribe(listener: (state: PortholeState) => void): () => void
  getProvider(namespace: 'eip155'): Parameters<typeof custom>[0]
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
