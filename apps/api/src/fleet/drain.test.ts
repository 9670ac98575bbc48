/**
 * A replica going away (SIGTERM in `main.ts`: `close({ drainMs: 10_000 })`) finishes what it
 * was doing: a request in flight gets its answer, a new connection is refused so the load
 * balancer sends it elsewhere, and on PostgreSQL the indexer lock passes to another replica.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { createTestDatabase } from '../../test/databases.js'
import { type StartApiReturnType, startApi } from '../server.js'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A chain RPC that takes `delayMs` to answer `eth_blockNumber`. */
async function slowRpc(delayMs: number): Promise<string> {
  const server: Server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      const { id } = JSON.parse(body) as { id: number }
      setTimeout(() => {
        response.setHeader('content-type', 'application/json')
        response.end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x2a' }))
      }, delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  )
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function api(rpcUrl: string): Promise<StartApiReturnType> {
  const started = await startApi({
    port: 0,
    databaseUrl: ':memory:',
    rateLimit: false,
    upstreams: { 'eip155:31337': rpcUrl },
    bundlers: {},
    auth: { smtpUrl: 'smtp://127.0.0.1:1', shareKey: Buffer.alloc(32, 7).toString('base64') },
  })
  return started
}

const blockNumber = (url: string) =>
  fetch(`${url}/v1?chainId=eip155:31337&projectId=porthole-demo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  })

test('a draining replica answers the request in flight and refuses new connections', async () => {
  const server = await api(await slowRpc(600))
  const inFlight = blockNumber(server.url)
  await new Promise((resolve) => setTimeout(resolve, 150))
  const closing = server.close({ drainMs: 5000 })
  const response = await inFlight
  expect(response.status).toBe(200)
  expect(await response.json()).toMatchObject({ result: '0x2a' })
  await expect(fetch(`${server.url}/healthz`)).rejects.toThrow()
  await closing
})

test('without a drain the same request is cut off (what the drain prevents)', async () => {
  const server = await api(await slowRpc(600))
  const inFlight = blockNumber(server.url)
  await new Promise((resolve) => setTimeout(resolve, 150))
  await server.close()
  await expect(inFlight).rejects.toThrow()
})

test('on PostgreSQL one of two replicas indexes, and the other takes over when it stops', async () => {
  const target = await createTestDatabase('postgres')
  cleanups.push(() => target.cleanup())
  const rpcUrl = await slowRpc(0)
  const replica = () =>
    startApi({
      port: 0,
      databaseUrl: target.url,
      seedDemo: false,
      indexer: true,
      leaderRetryMs: 100,
      rateLimit: false,
      upstreams: { 'eip155:31337': rpcUrl },
      bundlers: {},
      chainData: {
        chains: [{ chainId: 'eip155:31337', rpcUrl, startBlock: 'latest', confirmations: 0 }],
      },
      auth: { smtpUrl: 'smtp://127.0.0.1:1', shareKey: Buffer.alloc(32, 7).toString('base64') },
    })
  const [a, b] = [await replica(), await replica()]
  let bClosed = false
  cleanups.push(async () => {
    if (!bClosed) await b.close()
  })
  const deadline = Date.now() + 10_000
  while (!a.leader && !b.leader && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50))
  expect([a.leader, b.leader].filter(Boolean)).toHaveLength(1)
  const [leader, follower] = a.leader ? [a, b] : [b, a]
  expect(leader.indexer).toBeDefined()
  expect(follower.indexer).toBeUndefined()
  const scrape = async (replica: StartApiReturnType) =>
    (await (await fetch(`${replica.url}/metrics`)).text()).match(
      /^porthole_indexer_leader\{[^}]*\} (\d)/m,
    )?.[1]
  expect([await scrape(leader), await scrape(follower)]).toEqual(['1', '0'])
  await leader.close({ drainMs: 1000 })
  if (leader === b) bClosed = true
  while (!follower.leader && Date.now() < deadline + 5000)
    await new Promise((resolve) => setTimeout(resolve, 50))
  expect(follower.leader).toBe(true)
  expect(follower.indexer).toBeDefined()
  await follower.close()
  if (follower === b) bClosed = true
})
