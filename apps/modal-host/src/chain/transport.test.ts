/// <reference types="node" />
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Network } from '@porthole/shared'
import { createClient } from 'viem'
import { getBlockNumber } from 'viem/actions'
import { afterEach, describe, expect, test } from 'vitest'
import {
  clearChainClients,
  createNetworkTransport,
  getChainClient,
  proxyRpcUrl,
  RANK_OPTIONS,
} from './transport.js'

type RpcCall = { id: number; method: string }
type Behaviour = (call: RpcCall) => {
  delay?: number
  status?: number
  result?: unknown
  error?: { code: number; message: string }
}

/** A real JSON-RPC server on a free port: records every call and answers by `behaviour`. */
async function rpcServer(behaviour: Behaviour) {
  const calls: { method: string; url: string }[] = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', async () => {
      const parsed = JSON.parse(body) as RpcCall | RpcCall[]
      const batch = Array.isArray(parsed) ? parsed : [parsed]
      for (const call of batch) calls.push({ method: call.method, url: req.url ?? '' })
      const answers = batch.map((call) => ({ call, answer: behaviour(call) }))
      const delay = Math.max(0, ...answers.map(({ answer }) => answer.delay ?? 0))
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay))
      const status = answers.find(({ answer }) => answer.status)?.answer.status ?? 200
      const replies = answers.map(({ call, answer }) =>
        answer.error
          ? { jsonrpc: '2.0', id: call.id, error: answer.error }
          : { jsonrpc: '2.0', id: call.id, result: answer.result ?? null },
      )
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(Array.isArray(parsed) ? replies : replies[0]))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  servers.push(server)
  return {
    url,
    calls,
    /** The non-ping calls this server received. */
    work: () => calls.filter((c) => c.method !== 'eth_chainId'),
  }
}

const servers: ReturnType<typeof createServer>[] = []
afterEach(async () => {
  clearChainClients()
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** Answers like a healthy node whose block number identifies it. */
const healthy =
  (block: number, delay = 0): Behaviour =>
  (call) =>
    call.method === 'eth_chainId'
      ? { result: '0x7a69', delay }
      : { result: `0x${block.toString(16)}`, delay }

function network(rpc: string[]): Network {
  return {
    id: 31337,
    chainNamespace: 'eip155',
    caipNetworkId: 'eip155:31337',
    name: 'Porthole Devnet',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: rpc } },
    testnet: true,
    assets: { imageId: 'eip155:31337' },
  }
}

function clientFor(
  apiUrl: string,
  rpc: string[],
  rank: Parameters<typeof createNetworkTransport>[0]['rank'],
) {
  const transport = createNetworkTransport({
    network: network(rpc),
    apiUrl,
    projectId: 'proj',
    rank,
  })
  return createClient({ transport })
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until `condition` holds (polling), failing after 5 s. */
async function until(condition: () => boolean) {
  const deadline = Date.now() + 5000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached')
    await sleep(10)
  }
}

/** How many ranking pings a server received. */
const pings = (server: { calls: { method: string }[] }) =>
  server.calls.filter((c) => c.method === 'eth_chainId').length

describe('the default transport is the API RPC proxy (spec §7)', () => {
  test('proxy URL carries chainId (CAIP-2), projectId, st and sv', () => {
    const url = new URL(
      proxyRpcUrl({
        apiUrl: 'http://127.0.0.1:4300/',
        caipNetworkId: 'eip155:8453',
        projectId: 'p1',
      }),
    )
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:4300/v1')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      chainId: 'eip155:8453',
      projectId: 'p1',
      st: 'porthole',
      sv: '0.1.0',
    })
  })

  test('a request goes to the proxy first, then nowhere else', async () => {
    const api = await rpcServer(healthy(1))
    const own = await rpcServer(healthy(2))
    const client = clientFor(api.url, [own.url], false)
    expect(await getBlockNumber(client, { cacheTime: 0 })).toBe(1n)
    expect(api.work()).toEqual([
      {
        method: 'eth_blockNumber',
        url: '/v1?chainId=eip155%3A31337&projectId=proj&st=porthole&sv=0.1.0',
      },
    ])
    expect(own.calls).toEqual([])
  })

  test('the ranking uses the spec’s weights, samples and interval', () => {
    expect(RANK_OPTIONS).toEqual({
      interval: 4000,
      sampleCount: 10,
      weights: { latency: 0.3, stability: 0.7 },
    })
  })
})

describe('fallback (spec §7)', () => {
  test('a failing proxy falls through to the network’s own RPC', async () => {
    const api = await rpcServer(() => ({ status: 500 }))
    const own = await rpcServer(healthy(2))
    const client = clientFor(api.url, [own.url], false)
    expect(await getBlockNumber(client, { cacheTime: 0 })).toBe(2n)
    expect(api.work().length).toBe(1)
    expect(own.work().length).toBe(1)
  })

  test('an internal JSON-RPC error also falls through', async () => {
    const api = await rpcServer(() => ({ error: { code: -32603, message: 'upstream down' } }))
    const own = await rpcServer(healthy(2))
    expect(await getBlockNumber(clientFor(api.url, [own.url], false), { cacheTime: 0 })).toBe(2n)
  })

  test.each([
    [4001, 'User rejected'],
    [4200, 'Unsupported method'],
  ])('error %i is rethrown without trying the next transport', async (code, message) => {
    const api = await rpcServer(() => ({ error: { code, message } }))
    const own = await rpcServer(healthy(2))
    const client = clientFor(api.url, [own.url], false)
    await expect(getBlockNumber(client, { cacheTime: 0 })).rejects.toMatchObject({ code })
    expect(api.work().length).toBe(1)
    expect(own.calls).toEqual([])
  })
})

describe('ranking by latency and stability (spec §7)', () => {
  test('a slow proxy is overtaken by a fast RPC', async () => {
    const api = await rpcServer(healthy(1, 250))
    const own = await rpcServer(healthy(2))
    const client = clientFor(api.url, [own.url], { interval: 20 })
    // Before the first sample completes, the order is the configured one.
    expect(await getBlockNumber(client, { cacheTime: 0 })).toBe(1n)
    // A second ping means the first round of samples was scored and the order applied.
    await until(() => pings(api) >= 2)
    const before = api.work().length
    expect(await getBlockNumber(client, { cacheTime: 0 })).toBe(2n)
    expect(api.work().length).toBe(before)
  })

  test('a fast but failing transport is ranked last: stability weighs more', async () => {
    const api = await rpcServer((call) =>
      call.method === 'eth_chainId' ? { status: 503 } : { result: '0x1' },
    )
    const own = await rpcServer(healthy(2, 40))
    const client = clientFor(api.url, [own.url], { interval: 20 })
    await until(() => pings(own) >= 2)
    expect(await getBlockNumber(client, { cacheTime: 0 })).toBe(2n)
    expect(api.work()).toEqual([])
  })

  test('without ranking the configured order holds', async () => {
    const api = await rpcServer(healthy(1, 150))
    const own = await rpcServer(healthy(2))
    const client = clientFor(api.url, [own.url], false)
    await sleep(300)
    expect(await getBlockNumber(client, { cacheTime: 0 })).toBe(1n)
    expect(pings(api)).toBe(0)
  })
})

describe('clients per network', () => {
  test('one cached client per network, API and project', async () => {
    const api = await rpcServer(healthy(7))
    const devnet = network([])
    const a = getChainClient({ network: devnet, apiUrl: api.url, projectId: 'p', rank: false })
    expect(getChainClient({ network: devnet, apiUrl: api.url, projectId: 'p' })).toBe(a)
    expect(getChainClient({ network: devnet, apiUrl: api.url, projectId: 'other' })).not.toBe(a)
    const b = getChainClient({
      network: { ...devnet, id: 31338, caipNetworkId: 'eip155:31338' },
      apiUrl: api.url,
      projectId: 'p',
    })
    expect(b).not.toBe(a)
    expect(b.chain?.id).toBe(31338)
    expect(await getBlockNumber(a, { cacheTime: 0 })).toBe(7n)
    expect(api.work()[0]?.url).toContain('chainId=eip155%3A31337')
  })

  test('a non-EVM network has no chain client', () => {
    const solana: Network = {
      ...network([]),
      id: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      chainNamespace: 'solana',
      caipNetworkId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    }
    expect(() =>
      getChainClient({ network: solana, apiUrl: 'http://127.0.0.1:1', projectId: 'p' }),
    ).toThrow('Unsupported chain namespace')
  })
})
