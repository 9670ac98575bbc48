/**
 * Solana reads and the native transfer the Send view builds, over the API's RPC proxy
 * (`/v1?chainId=solana:…`). `@solana/web3.js` loads with the first Solana send, never with the
 * modal.
 */
import { runtime } from '../runtime.js'
import { store } from '../store/store.js'
import { proxyRpcUrl } from './transport.js'

let id = 0

/**
 * One JSON-RPC call to a Solana network through the API's proxy.
 *
 * @example
 * const { value } = await solanaRpc('solana:5eyk…', 'getLatestBlockhash', [])
 */
export async function solanaRpc<T>(
  caipNetworkId: string,
  method: string,
  params: unknown[],
): Promise<T> {
  const url = proxyRpcUrl({
    apiUrl: runtime.apiUrl,
    caipNetworkId,
    projectId: store.getState().config.projectId,
  })
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
  })
  const body = (await response.json()) as { result?: T; error?: { message?: string } }
  if (body.error || !response.ok)
    throw new Error(body.error?.message ?? `Solana RPC ${method} failed (${response.status})`)
  return body.result as T
}

/**
 * A native SOL transfer, unsigned, serialized for `solana_signAndSendTransaction` (base64).
 *
 * @example
 * const transaction = await buildSolTransfer({ caipNetworkId, from, to, lamports: 1_000_000n })
 */
export async function buildSolTransfer(parameters: {
  caipNetworkId: string
  from: string
  to: string
  lamports: bigint
}): Promise<string> {
  const { PublicKey, SystemProgram, Transaction } = await import('@solana/web3.js')
  const { value } = await solanaRpc<{ value: { blockhash: string; lastValidBlockHeight: number } }>(
    parameters.caipNetworkId,
    'getLatestBlockhash',
    [{ commitment: 'confirmed' }],
  )
  const feePayer = new PublicKey(parameters.from)
  const transaction = new Transaction({
    feePayer,
    blockhash: value.blockhash,
    lastValidBlockHeight: value.lastValidBlockHeight,
  }).add(
    SystemProgram.transfer({
      fromPubkey: feePayer,
      toPubkey: new PublicKey(parameters.to),
      lamports: parameters.lamports,
    }),
  )
  const bytes = transaction.serialize({ requireAllSignatures: false, verifySignatures: false })
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/**
 * Waits (polling, at most `timeoutMs`) until a signature is confirmed; false on timeout.
 *
 * @example
 * await waitForSignature('solana:…', signature)
 */
export async function waitForSignature(
  caipNetworkId: string,
  signature: string,
  timeoutMs = 60_000,
): Promise<boolean> {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    const { value } = await solanaRpc<{ value: ({ confirmationStatus?: string } | null)[] }>(
      caipNetworkId,
      'getSignatureStatuses',
      [[signature]],
    ).catch(() => ({ value: [] }))
    if (value[0]?.confirmationStatus) return true
    await new Promise((done) => setTimeout(done, 500))
  }
  return false
}
