/// <reference types="node" />
/**
 * A real HTTP server for the modal's client tests: it records every request and answers each
 * as the test says.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A request as the server saw it (a JSON body parsed). */
export type Received = {
  method: string
  path: string
  query: Record<string, string>
  body: unknown
}

/** A recording server on 127.0.0.1. */
export type RecordingServer = { url: string; received: Received[]; close(): Promise<void> }

/**
 * Starts the server; `answer` picks each response (a JSON `body`, or none).
 *
 * @example
 * const api = await startRecordingServer(() => ({ status: 200, body: { ok: true } }))
 */
export async function startRecordingServer(
  answer: (request: Received) => { status: number; body?: unknown },
): Promise<RecordingServer> {
  const received: Received[] = []
  const server = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk) => {
      text += chunk
    })
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x')
      const request = {
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body: text ? JSON.parse(text) : undefined,
      }
      received.push(request)
      const { status, body } = answer(request)
      if (body === undefined) {
        res.writeHead(status)
        res.end()
      } else {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(body))
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
