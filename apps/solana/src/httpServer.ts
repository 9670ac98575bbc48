/**
 * JSON-RPC 2.0 over HTTP, as a validator's RPC port serves it: `POST /` with one request or a
 * batch, `GET /health`. Any origin may call it (CORS `*`): it is a local development chain.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Chain } from './chain.js'
import { toJson } from './internal/json.js'
import { handleRpc } from './rpc/handleRpc.js'

/** Largest request body. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024

/** Options of {@link createRpcServer}. */
export type CreateRpcServerParameters = {
  chain: Chain
  /** Sees unexpected errors (answered as -32603 Internal error). */
  onError?: (error: unknown) => void
}

/**
 * An HTTP server (not yet listening) answering the chain's JSON-RPC.
 *
 * @example
 * const server = createRpcServer({ chain })
 * server.listen(8899, '127.0.0.1')
 */
export function createRpcServer({ chain, onError }: CreateRpcServerParameters): Server {
  return createServer((request, response) => {
    cors(request, response)
    if (request.method === 'OPTIONS') return void response.writeHead(204).end()
    if (request.method === 'GET' && request.url?.split('?')[0] === '/health')
      return void response.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
    if (request.method !== 'POST')
      return void response.writeHead(405, { allow: 'POST, GET, OPTIONS' }).end()
    readBody(request).then(
      (text) => {
        if (text === undefined) return void response.writeHead(413).end()
        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          return json(response, {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32700, message: 'Parse error' },
          })
        }
        const answer = handleRpc(chain, body, onError)
        if (answer === undefined) return void response.writeHead(204).end()
        json(response, answer)
      },
      () => response.destroy(),
    )
  })
}

function cors(request: IncomingMessage, response: ServerResponse): void {
  response.setHeader('access-control-allow-origin', '*')
  response.setHeader('access-control-allow-methods', 'POST, GET, OPTIONS')
  response.setHeader(
    'access-control-allow-headers',
    request.headers['access-control-request-headers'] ?? 'content-type, solana-client',
  )
  response.setHeader('access-control-max-age', '86400')
  if (request.headers['access-control-request-private-network'] === 'true')
    response.setHeader('access-control-allow-private-network', 'true')
}

function json(response: ServerResponse, value: unknown): void {
  const body = toJson(value)
  response
    .writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    })
    .end(body)
}

/** The body as text, or `undefined` when it is larger than {@link MAX_BODY_BYTES}. */
async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  // Read to the end even when too large, so the 413 reaches the client.
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size <= MAX_BODY_BYTES) chunks.push(chunk)
  }
  return size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')
}
