/**
 * The production stack's control endpoint, on loopback only (default http://127.0.0.1:4390):
 * what runs where, and the faults the load test injects into a stack it did not start itself.
 *
 * - `GET /state` → {@link ProdStackState}
 * - `POST /replicas/<id>/kill[?hold=1]` → SIGKILL (started again after 1 s unless `hold`)
 * - `POST /replicas/<id>/start` → starts a held replica; answers once it is ready
 * - `POST /postgres/restart?downMs=3000`, `POST /redis/restart?downMs=3000` → fast stop,
 *   down `downMs`, start; answers once it answers again
 */
import { createServer, type Server } from 'node:http'
import { listenHostOf, portOf } from '@porthole/shared'
import type { ProdStack, ProdStackState } from './prod.js'

/**
 * Serves the control endpoint of `stack` on `url` (a loopback address).
 *
 * @example
 * const control = await startProdControl(stack, 'http://127.0.0.1:4390')
 * await control.close()
 */
export async function startProdControl(
  stack: ProdStack,
  url: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const host = listenHostOf(url)
  if (!/^(127\.|localhost$|::1$)/.test(host))
    throw new Error(`The control endpoint must be on loopback, not ${host}`)
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body)
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      res.end(text)
    }
    // A browser page must not drive it: no cross-origin requests, and no other host name
    // (DNS rebinding).
    if (req.headers.origin) return send(403, { error: 'no cross-origin requests' })
    if (req.headers.host !== new URL(url).host)
      return send(403, { error: `use ${new URL(url).host}` })
    const target = new URL(req.url ?? '/', 'http://control.invalid')
    const downMs = Math.min(Math.max(Number(target.searchParams.get('downMs') ?? 3000), 0), 30_000)
    const run = (action: () => Promise<unknown>) =>
      action().then(
        (result) => send(200, result ?? { ok: true }),
        (error: unknown) => send(500, { error: (error as Error).message }),
      )
    const replica = /^\/replicas\/([a-z0-9-]+)\/(kill|start)$/.exec(target.pathname)
    if (req.method === 'GET' && target.pathname === '/state')
      return send(200, stack.state() satisfies ProdStackState)
    if (req.method === 'POST' && replica) {
      const [, id, action] = replica as unknown as [string, string, 'kill' | 'start']
      return run(async () => {
        const pid = stack.replicas.find((r) => r.id === id)?.process.pid()
        if (action === 'kill')
          await stack.killReplica(id, { hold: target.searchParams.get('hold') === '1' })
        else await stack.startReplica(id)
        return { id, action, pid }
      })
    }
    if (req.method === 'POST' && target.pathname === '/postgres/restart')
      return run(async () => {
        const started = Date.now()
        await stack.restartPostgres(downMs)
        return { downMs, tookMs: Date.now() - started }
      })
    if (req.method === 'POST' && target.pathname === '/redis/restart')
      return run(async () => {
        const started = Date.now()
        await stack.restartRedis(downMs)
        return { downMs, tookMs: Date.now() - started }
      })
    send(404, { error: 'not found' })
  })
  await new Promise<void>((ready, fail) => {
    server.once('error', fail)
    server.listen(portOf(url), host, () => ready())
  })
  return {
    url,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done())
        server.closeAllConnections()
      }),
  }
}
