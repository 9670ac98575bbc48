/**
 * The PubSub WebSocket of the chain (a validator serves it on the RPC port + 1):
 * `signatureSubscribe` (one notification when the transaction lands, then the subscription
 * ends), `accountSubscribe` (after each transaction naming the account) and `slotSubscribe`,
 * each with its `…Unsubscribe`.
 */
import type { Server } from 'node:http'
import { type WebSocket, WebSocketServer } from 'ws'
import { type AccountState, type Chain, type LandedTransaction, SYSTEM_PROGRAM } from './chain.js'
import { toJson } from './internal/json.js'
import { type AccountEncoding, accountEncoding, accountJson } from './rpc/accountJson.js'
import { addressAt, configAt, isSignature, JsonRpcError } from './rpc/params.js'

const CLOSE_WAIT_MS = 250

const CLOSED: AccountState = {
  lamports: 0n,
  data: new Uint8Array(),
  owner: SYSTEM_PROGRAM,
  executable: false,
}

type Subscription =
  | { kind: 'signature'; signature: string }
  | { kind: 'account'; address: string; encoding: AccountEncoding }
  | { kind: 'slot' }

/** A running PubSub endpoint. */
export type Subscriptions = {
  /** Closes every socket (code 1000) and stops listening to the chain (not the HTTP server). */
  close(): Promise<void>
}

/**
 * Serves subscriptions on `server` (an HTTP server the caller listens and closes).
 *
 * @example
 * const pubsub = serveSubscriptions({ chain, server: createServer() })
 */
export function serveSubscriptions({
  chain,
  server,
}: {
  chain: Chain
  server: Server
}): Subscriptions {
  const wss = new WebSocketServer({ server })
  // ws re-emits the HTTP server's errors on itself; a port in use is the caller's to handle
  // (startSolana's listen rejects and retries), not an uncaught exception.
  wss.on('error', () => {})
  const sockets = new Map<WebSocket, Map<number, Subscription>>()
  let nextId = 0

  const notify = (socket: WebSocket, method: string, subscription: number, result: unknown) =>
    socket.send(toJson({ jsonrpc: '2.0', method, params: { result, subscription } }))

  const signatureResult = (landed: LandedTransaction) => ({
    context: { slot: landed.slot },
    value: { err: landed.err },
  })

  const subscribe = (socket: WebSocket, method: string, params: readonly unknown[]): unknown => {
    const subscriptions = sockets.get(socket)!
    const unsubscribe = (kind: Subscription['kind']) => {
      const id = params[0]
      if (typeof id !== 'number' || subscriptions.get(id)?.kind !== kind)
        throw new JsonRpcError(-32602, 'Invalid subscription id.')
      subscriptions.delete(id)
      return true
    }
    switch (method) {
      case 'signatureSubscribe': {
        const signature = params[0]
        if (!isSignature(signature)) throw new JsonRpcError(-32602, 'Invalid param: Invalid')
        const id = nextId++
        const landed = chain.transaction(signature)
        // Already landed: answer first, then the one notification.
        if (landed)
          queueMicrotask(() => notify(socket, 'signatureNotification', id, signatureResult(landed)))
        else subscriptions.set(id, { kind: 'signature', signature })
        return id
      }
      case 'accountSubscribe': {
        const address = addressAt(params, 0)
        const encoding = accountEncoding(configAt(params, 1))
        const id = nextId++
        subscriptions.set(id, { kind: 'account', address, encoding })
        return id
      }
      case 'slotSubscribe': {
        const id = nextId++
        subscriptions.set(id, { kind: 'slot' })
        return id
      }
      case 'signatureUnsubscribe':
        return unsubscribe('signature')
      case 'accountUnsubscribe':
        return unsubscribe('account')
      case 'slotUnsubscribe':
        return unsubscribe('slot')
      default:
        throw new JsonRpcError(-32601, 'Method not found')
    }
  }

  wss.on('connection', (socket) => {
    sockets.set(socket, new Map())
    socket.on('close', () => sockets.delete(socket))
    socket.on('message', (raw) => {
      let request: { id?: unknown; method?: unknown; params?: unknown }
      try {
        request = JSON.parse(raw.toString())
      } catch {
        return socket.send(
          toJson({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }),
        )
      }
      const { id, method, params } = request ?? {}
      // Notifications (web3.js sends a `ping` every few seconds) get no answer.
      if (id === undefined) return
      try {
        if (typeof method !== 'string') throw new JsonRpcError(-32600, 'Invalid request')
        const result = subscribe(socket, method, Array.isArray(params) ? params : [])
        socket.send(toJson({ jsonrpc: '2.0', id, result }))
      } catch (error) {
        const { code, message } =
          error instanceof JsonRpcError ? error : { code: -32603, message: 'Internal error' }
        socket.send(toJson({ jsonrpc: '2.0', id, error: { code, message } }))
      }
    })
  })

  const stopTransactions = chain.onTransaction((landed) => {
    const touched = new Set(landed.accountKeys)
    for (const [socket, subscriptions] of sockets)
      for (const [id, subscription] of subscriptions) {
        if (
          subscription.kind === 'signature' &&
          subscription.signature === landed.decoded.signature
        ) {
          subscriptions.delete(id)
          notify(socket, 'signatureNotification', id, signatureResult(landed))
        }
        if (subscription.kind === 'account' && touched.has(subscription.address))
          notify(socket, 'accountNotification', id, {
            context: { slot: landed.slot },
            // A closed account is reported empty, owned by the System program.
            value: accountJson(
              chain,
              chain.getAccount(subscription.address) ?? CLOSED,
              subscription.encoding,
              {},
            ),
          })
      }
  })
  const stopSlots = chain.onSlot((slot) => {
    for (const [socket, subscriptions] of sockets)
      for (const [id, subscription] of subscriptions)
        if (subscription.kind === 'slot')
          notify(socket, 'slotNotification', id, { parent: slot - 1, root: slot, slot })
  })

  return {
    async close() {
      stopTransactions()
      stopSlots()
      // Code 1000: clients (rpc-websockets in web3.js) then do not reconnect.
      await Promise.all(
        [...sockets.keys()].map(
          (socket) =>
            new Promise<void>((resolve) => {
              const timer = setTimeout(() => socket.terminate(), CLOSE_WAIT_MS)
              socket.once('close', () => {
                clearTimeout(timer)
                resolve()
              })
              socket.close(1000, 'chain stopped')
            }),
        ),
      )
      wss.close()
    },
  }
}
