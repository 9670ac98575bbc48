/**
 * EIP-5792 calls through the modal, for the connections it holds (WalletConnect, the embedded
 * wallet): the batch is checked before any wallet sees it, and a wallet that does not know the
 * methods answers 4200 by name (`@porthole/protocol/calls`).
 */
import { callsError, checkCalls } from '@porthole/protocol/calls'

/**
 * Sends an EIP-5792 request to the active wallet: `wallet_sendCalls` is checked first, and a
 * wallet that does not know the method answers 4200 naming itself.
 *
 * @example
 * await callsRequest('wallet_sendCalls', params, active, connectorRequest)
 */
export async function callsRequest<namespace>(
  method: string,
  params: unknown,
  active: { namespace: namespace; connector: { name: string } },
  send: (method: string, params: unknown, namespace: namespace) => Promise<unknown>,
): Promise<unknown> {
  if (method === 'wallet_sendCalls') checkCalls(params)
  try {
    return await send(method, params, active.namespace)
  } catch (error) {
    throw callsError(error, method, active.connector.name)
  }
}
