/**
 * Starts the local Solana chain: the ledger with its genesis accounts, JSON-RPC over HTTP on
 * `port` and the PubSub WebSocket on `port + 1` (where `@solana/web3.js` looks for it).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SOLANA_LOCALNET_CAIP, SOLANA_LOCALNET_GENESIS } from '@porthole/shared'
import { createChain } from './chain.js'
import { seedGenesis } from './genesis.js'
import { createRpcServer } from './httpServer.js'
import { serveSubscriptions } from './wsServer.js'

/** Options of {@link startSolana}. */
export type StartSolanaParameters = {
  /** HTTP port (default 8899); the WebSocket takes the next one. 0: a free pair. */
  port?: number
  /** Interface to listen on (default 127.0.0.1). */
  host?: string
  /** No log line per transaction. */
  silent?: boolean
  /** Milliseconds per empty slot (default 400, a cluster's pace); 0: slots advance only with transactions. */
  slotMs?: number
}

/** A running chain. */
export type StartSolanaReturnType = {
  /** The JSON-RPC URL (`http://127.0.0.1:8899`). */
  url: string
  /** The PubSub URL (`ws://127.0.0.1:8900`). */
  wsUrl: string
  /** `SOLANA_LOCALNET_GENESIS`. */
  genesisHash: string
  /** `SOLANA_LOCALNET_CAIP`. */
  caipNetworkId: string
  /** Closes both ports and stops the slot clock. */
  stop(): Promise<void>
}

/**
 * Thrown when the HTTP port or the next one (the WebSocket's) is taken.
 *
 * @example
 * if (error instanceof SolanaPortInUseError) console.error(error.message)
 */
export class SolanaPortInUseError extends Error {
  override name = 'SolanaPortInUseError' as const
}

/**
 * Starts a fresh chain: the test accounts hold 100 SOL and 1,000 pUSD each.
 *
 * @example
 * const solana = await startSolana({ port: 0, silent: true })
 * await new Connection(solana.url).getGenesisHash() // SOLANA_LOCALNET_GENESIS
 * await solana.stop()
 */
export async function startSolana({
  port = 8899,
  host = '127.0.0.1',
  silent = false,
  slotMs = 400,
}: StartSolanaParameters = {}): Promise<StartSolanaReturnType> {
  const log = silent ? undefined : (line: string) => console.log(line)
  const chain = createChain({ slotMs, log })
  seedGenesis(chain)
  const http = createRpcServer({
    chain,
    onError: (error) => console.error('[solana] unexpected error', error),
  })
  const ws = createServer((_request, response) => response.writeHead(426).end())
  const subscriptions = serveSubscriptions({ chain, server: ws })
  let rpcPort: number
  try {
    rpcPort = await listenPair(http, ws, port, host)
  } catch (error) {
    await subscriptions.close()
    chain.stop()
    throw error
  }
  const urlHost = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${urlHost}:${rpcPort}`,
    wsUrl: `ws://${urlHost}:${rpcPort + 1}`,
    genesisHash: SOLANA_LOCALNET_GENESIS,
    caipNetworkId: SOLANA_LOCALNET_CAIP,
    async stop() {
      chain.stop()
      await subscriptions.close()
      await Promise.all([close(http), close(ws)])
    },
  }
}

/** Listens on `port` and `port + 1`; with port 0, retries until a free pair is found. */
async function listenPair(http: Server, ws: Server, port: number, host: string): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      await listen(http, port, host)
    } catch (error) {
      throw inUse(error, port)
    }
    const rpcPort = (http.address() as AddressInfo).port
    try {
      await listen(ws, rpcPort + 1, host)
      return rpcPort
    } catch (error) {
      await close(http)
      if (port !== 0) throw inUse(error, rpcPort + 1)
    }
  }
  throw new SolanaPortInUseError('no free pair of ports (RPC and RPC + 1) found')
}

function inUse(error: unknown, port: number): unknown {
  return (error as { code?: string }).code === 'EADDRINUSE'
    ? new SolanaPortInUseError(`port ${port} is in use`, { cause: error })
    : error
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error)
    server.once('error', onError)
    server.listen(port, host, () => {
      server.off('error', onError)
      resolve()
    })
  })
}

function close(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve()
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}
