/**
 * Send (spec §4 Send, §7 wallet transfers): choose a token, an amount and a receiver, preview,
 * then the connected wallet signs and sends. On success the send state resets, balances are
 * refreshed (the native balance always after a native send, spec §4) and the modal goes to
 * Account; SEND_INITIATED and SEND_SUCCESS are tracked (spec §7).
 */
import type { BalanceEntry } from '@porthole/shared'
import { chainClient, waitForTransactionReceipt } from '../chain/client.js'
import { locale } from '../i18n/en.js'
import { isNameLike } from '../rules/names.js'
import { type PrepareSendReturnType, prepareSend } from '../rules/send.js'
import { initialSendState } from '../store/sendState.js'
import { store } from '../store/store.js'
import { track } from './analytics.js'
import * as Balance from './balance.js'
import { connectorRequest } from './connection.js'
import * as Modal from './modal.js'
import { resolvedProfile, resolveNameAddress } from './names.js'
import { refreshTokens } from './tokens.js'

/** Sets a field of the send state. */
function update(fields: Partial<ReturnType<typeof store.getState>['send']>): void {
  store.setState((s) => ({ send: { ...s.send, ...fields } }))
}

/**
 * Chooses the token to send (from the Tokens tab's balances).
 *
 * @example
 * setSendToken(entry)
 */
export function setSendToken(token: BalanceEntry): void {
  update({ token })
}

/** Sets the amount as typed. */
export function setSendAmount(amount: string): void {
  update({ sendTokenAmount: amount })
}

/** Sets the receiver as typed (an address, or a name resolved at the preview). */
export function setSendReceiver(receiver: string): void {
  update({ receiverAddress: receiver, receiverProfileName: null, receiverProfileImageUrl: null })
}

/** Clears the send state (spec §4: also on a network switch). */
export function resetSend(): void {
  store.setState({ send: initialSendState })
}

/**
 * Checks the send state by every rule and builds its transaction; throws the spec's errors
 * ('An amount and receiver address are required', 'A token is required', 'Unsupported chain',
 * and the amount and receiver checks). A receiver typed as a name is looked up in the name
 * registry on the active network; its name and avatar become the receiver's profile.
 *
 * @example
 * const { request } = await previewSend()
 */
export async function previewSend(): Promise<PrepareSendReturnType> {
  const { connection, send } = store.getState()
  const receiver = send.receiverAddress ?? ''
  const prepared = await prepareSend({
    caipNetworkId: connection.caipNetworkId,
    token: send.token,
    amount: send.sendTokenAmount,
    // As the user typed it: '1,5' is 1.5 in German.
    locale: locale(),
    receiver,
    from: (connection.address ?? '0x') as `0x${string}`,
    resolveName: isNameLike(receiver) ? resolveNameAddress : undefined,
  })
  // The receiver's profile (spec §3 Send state), unless the receiver changed meanwhile.
  const profile = prepared.receiver.name ? resolvedProfile(prepared.receiver.name) : undefined
  if (store.getState().send.receiverAddress === send.receiverAddress)
    update({
      receiverProfileName: profile?.name ?? null,
      receiverProfileImageUrl: profile?.attributes.avatar ?? null,
    })
  return prepared
}

/**
 * Sends: the wallet asks the user, then the transaction is broadcast. Resolves with its hash;
 * wallet errors (4001 when refused) propagate and the state is kept for another try.
 *
 * @example
 * const hash = await sendTokens()
 */
export async function sendTokens(): Promise<string> {
  const { connection, send, config } = store.getState()
  const properties = {
    network: connection.caipNetworkId ?? '',
    token: send.token?.symbol ?? '',
    amount: send.sendTokenAmount ?? '',
  }
  update({ loading: true })
  track('SEND_INITIATED', properties)
  try {
    const prepared = await previewSend()
    if (prepared.namespace === 'solana') return await sendSol(prepared, properties)
    const hash = String(await connectorRequest('eth_sendTransaction', [prepared.request]))
    track('SEND_SUCCESS', properties)
    resetSend()
    store.setState({ history: [{ view: 'Account' }] })
    // Balances change once the transaction is in a block; on a devnet that is at once.
    const network = config.networks.find((n) => n.caipNetworkId === properties.network)
    const settled = network
      ? waitForTransactionReceipt(chainClient(network), {
          hash: hash as `0x${string}`,
          timeout: 120_000,
        }).catch(() => {})
      : Promise.resolve()
    void settled.then(() => {
      if (prepared.kind === 'native') void Balance.refresh({ force: true })
      void refreshTokens({ force: true })
    })
    return hash
  } catch (error) {
    update({ loading: false })
    track('SEND_ERROR', { ...properties, message: (error as Error).message ?? '' })
    if (store.getState().open) Modal.shake()
    throw error
  }
}

/** Spec §4's Solana branch: a native transfer, signed and sent by the wallet. */
async function sendSol(
  prepared: Extract<PrepareSendReturnType, { namespace: 'solana' }>,
  properties: { network: string; token: string; amount: string },
): Promise<string> {
  const { connection } = store.getState()
  const { buildSolTransfer, waitForSignature } = await import('../chain/solana.js')
  const transaction = await buildSolTransfer({
    caipNetworkId: properties.network,
    from: connection.address ?? '',
    to: prepared.receiver.address,
    lamports: prepared.amount,
  })
  const answer = (await connectorRequest(
    'solana_signAndSendTransaction',
    { transaction },
    'solana',
  )) as { signature?: unknown }
  if (typeof answer?.signature !== 'string') throw new Error('The wallet returned no signature')
  track('SEND_SUCCESS', properties)
  resetSend()
  store.setState({ history: [{ view: 'Account' }] })
  void waitForSignature(properties.network, answer.signature).then(() => {
    void Balance.refresh({ force: true })
    void refreshTokens({ force: true })
  })
  return answer.signature
}
