/**
 * A request to the connected wallet, whichever connector holds it: the embedded wallet frame,
 * the WalletConnect session, or the injected wallet in the host page (through the SDK, which
 * lets the modal call only the few methods it needs).
 */
import { DisconnectedError } from '@porthole/protocol'
import { hostRequest } from '../host/bridge.js'
import { store } from '../store/store.js'
import { embeddedRequest } from './auth.js'
import { walletConnectRequest } from './walletconnect.js'

/**
 * Sends `method` to the connected wallet; its errors (4001 and others) propagate.
 *
 * @example
 * const hash = await connectorRequest('eth_sendTransaction', [{ from, to, value, data: '0x' }])
 */
export function connectorRequest(method: string, params?: unknown[]): Promise<unknown> {
  const { connection } = store.getState()
  if (connection.status !== 'connected' || !connection.connector)
    return Promise.reject(new DisconnectedError('Not connected'))
  const { connector } = connection
  if (connector.type === 'AUTH') return embeddedRequest(method, params)
  if (connector.type === 'WALLET_CONNECT') return walletConnectRequest(method, params)
  if (!connector.uuid) return Promise.reject(new DisconnectedError('Wallet not found'))
  return hostRequest('injectedRequest', {
    uuid: connector.uuid,
    method,
    ...(params === undefined ? {} : { params }),
  })
}
