import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createTestApp, MODAL_ORIGIN, type TestApp } from '../../test/testApp.js'
import { MAX_BATCH_SIZE, MAX_SEPARATE_CALLS, proxyRpc } from './proxyRpc.js'
import { RpcMethodError } from './RpcMethodError.js'

type Call = { method: string; id: unknown; params?: unknown }

/** A fake chain node: answers eth_chainId and eth_blockNumber, records what it received. */
function fakeUpstream(mode: { value: 'ok' | 'slow' | 'garbage' | 'http500' }) {
  const received: unknown[] = []
  const server: Server = createServer(async (request: IncomingMessage, response) => {
    let text = ''
    for await (const chunk of request) text += chunk
    const body = JSON.parse(text)
    received.push(body)
    if (mode.value === 'slow') await new Promise((resolve) => setTimeout(resolve, 300))
    if (mode.value === 'garbage') return response.end('<html>')
    if (mode.value === 'http500') {
      response.statusCode = 500
      return response.end('{}')
    }
    const answer = (call: Call) =>
      call.method === 'eth_chainId'
        ? { jsonrpc: '2.0', id: call.id, result: '0x7a69' }
        : call.method === 'eth_blockNumber'
          ? { jsonrpc: '2.0', id: call.id, result: '0x10' }
          : { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'Method not found' } }
    response.setHeader('content-type', 'application/json')
    // Batches come back reversed: the proxy must match by id, not position.
    response.end(JSON.stringify(Array.isArray(body) ? body.map(answer).reverse() : answer(body)))
  })
  return { server, received }
}

const mode = { value: 'ok' as 'ok' | 'slow' | 'garbage' | 'http500' }
const upstream = fakeUpstream(mode)
let upstreamUrl: string
beforeAll(async () => {
  await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve))
  upstreamUrl = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => upstream.server.close(resolve))
})
afterEach(() => {
  mode.value = 'ok'
  upstream.received.length = 0
})

describe('proxyRpc', () => {
  const call = (
    body: unknown,
    options: { upstream?: string | undefined; timeoutMs?: number } = {},
  ) =>
    proxyRpc({
      body,
      upstream: 'upstream' in options ? options.upstream : upstreamUrl,
      timeoutMs: options.timeoutMs ?? 2000,
    })

  test('forwards an allowed method and keeps the caller id', async () => {
    expect(await call({ jsonrpc: '2.0', id: 'abc', method: 'eth_chainId' })).toEqual({
      status: 200,
      body: { jsonrpc: '2.0', id: 'abc', result: '0x7a69' },
    })
    expect(upstream.received).toEqual([{ jsonrpc: '2.0', id: 0, method: 'eth_chainId' }])
  })

  test('refuses a method that is not allowed without calling the upstream', async () => {
    for (const method of [
      'personal_sign',
      'eth_sendTransaction',
      'eth_accounts',
      'anvil_setBalance',
    ])
      expect(await call({ jsonrpc: '2.0', id: 9, method, params: [] })).toEqual({
        status: 200,
        body: {
          jsonrpc: '2.0',
          id: 9,
          error: { code: -32601, message: 'Requested RPC call is not allowed' },
        },
      })
    expect(upstream.received).toEqual([])
  })

  test('answers a mixed batch in order, forwarding the allowed part in one call', async () => {
    const { status, body } = await call([
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 2, method: 'eth_sign', params: [] },
      { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' },
      { nope: true },
      { jsonrpc: '2.0', method: 'eth_chainId' },
    ])
    expect(status).toBe(200)
    expect(body).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x7a69' },
      {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32601, message: 'Requested RPC call is not allowed' },
      },
      { jsonrpc: '2.0', id: 1, result: '0x10' },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } },
    ])
    expect(upstream.received).toHaveLength(1)
    expect(upstream.received[0]).toHaveLength(3)
  })

  test('passes upstream JSON-RPC errors through', async () => {
    expect(
      (await call({ jsonrpc: '2.0', id: 3, method: 'eth_getCode', params: ['0x0'] })).body,
    ).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32601, message: 'Method not found' },
    })
  })

  test('refuses empty and oversized batches', async () => {
    expect(await call([])).toMatchObject({ status: 400, body: { error: { code: -32600 } } })
    const batch = Array.from({ length: MAX_BATCH_SIZE + 1 }, (_, id) => ({
      jsonrpc: '2.0',
      id,
      method: 'eth_chainId',
    }))
    expect(await call(batch)).toMatchObject({ status: 400, body: { error: { code: -32600 } } })
    const full = await call(batch.slice(0, MAX_BATCH_SIZE))
    expect(full.status).toBe(200)
    expect(full.body).toHaveLength(MAX_BATCH_SIZE)
  })

  test('answers Unsupported chain when no upstream serves the chain', async () => {
    expect(
      await call({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, { upstream: undefined }),
    ).toEqual({
      status: 200,
      body: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Unsupported chain' } },
    })
  })

  test('maps an unreachable, slow or broken upstream to -32603 with 503/502', async () => {
    const request = { jsonrpc: '2.0', id: 5, method: 'eth_chainId' }
    expect(await call(request, { upstream: 'http://127.0.0.1:9' })).toEqual({
      status: 503,
      body: { jsonrpc: '2.0', id: 5, error: { code: -32603, message: 'Upstream RPC unavailable' } },
    })
    mode.value = 'slow'
    expect(await call(request, { timeoutMs: 50 })).toMatchObject({
      status: 503,
      body: { id: 5, error: { code: -32603, message: 'Upstream RPC timed out' } },
    })
    mode.value = 'garbage'
    expect(await call(request)).toMatchObject({
      status: 502,
      body: { id: 5, error: { code: -32603 } },
    })
    mode.value = 'http500'
    expect(await call(request)).toMatchObject({
      status: 502,
      body: { id: 5, error: { code: -32603 } },
    })
  })
})

describe('POST /v1 (chain RPC proxy)', () => {
  let t: TestApp
  afterEach(async () => {
    await t?.close()
  })

  test('routes by chainId (CAIP-2, decimal or hex) to the configured upstream', async () => {
    t = await createTestApp({ upstreams: { 'eip155:31337': upstreamUrl } })
    for (const chainId of ['eip155:31337', '31337', '0x7a69']) {
      const response = await t.post(`/v1?chainId=${chainId}`, {
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_chainId',
      })
      expect(response.status, chainId).toBe(200)
      expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' })
    }
  })

  test('refuses a not-allowed method and an unknown chain with JSON-RPC errors', async () => {
    t = await createTestApp({ upstreams: { 'eip155:31337': upstreamUrl } })
    const refused = await t.post('/v1?chainId=31337', {
      jsonrpc: '2.0',
      id: 4,
      method: 'eth_sendTransaction',
      params: [{}],
    })
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32601, message: 'Requested RPC call is not allowed' },
    })
    for (const chainId of ['eip155:1', 'banana', ''])
      expect(
        await (
          await t.post(`/v1?chainId=${chainId}`, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' })
        ).json(),
      ).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32602, message: 'Unsupported chain' },
      })
    expect(upstream.received).toEqual([])
  })

  test('needs a project, JSON, and answers a parse error as JSON-RPC -32700', async () => {
    t = await createTestApp({ upstreams: { 'eip155:31337': upstreamUrl } })
    const noProject = await t.app.request('/v1?chainId=31337', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(noProject.status).toBe(400)
    expect((await t.post('/v1?chainId=31337', '{', {})).status).toBe(400)
    expect(await (await t.post('/v1?chainId=31337', '{', {})).json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    })
    expect((await t.post('/v1?chainId=31337', '{}', { 'content-type': 'text/plain' })).status).toBe(
      415,
    )
  })

  test('answers 503 with -32603 when the upstream is down, readable by the frame', async () => {
    t = await createTestApp({ upstreams: { 'eip155:31337': 'http://127.0.0.1:9' } })
    const response = await t.post(
      '/v1?chainId=31337',
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
      { origin: MODAL_ORIGIN },
    )
    expect(response.status).toBe(503)
    expect(response.headers.get('access-control-allow-origin')).toBe(MODAL_ORIGIN)
    expect(await response.json()).toMatchObject({ id: 1, error: { code: -32603 } })
  })
})

describe('proxyRpc with a bundler and methods of its own', () => {
  // A fake bundler: like alto, one request per HTTP request (a batch is refused).
  const bundled: unknown[] = []
  const bundler = createServer(async (request, response) => {
    let text = ''
    for await (const chunk of request) text += chunk
    const body = JSON.parse(text)
    bundled.push(body)
    response.setHeader('content-type', 'application/json')
    if (Array.isArray(body))
      return response.end(
        JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32602, message: 'no batch' } }),
      )
    response.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: `bundled ${body.method}` }))
  })
  let bundlerUrl: string
  beforeAll(async () => {
    await new Promise<void>((resolve) => bundler.listen(0, '127.0.0.1', resolve))
    bundlerUrl = `http://127.0.0.1:${(bundler.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise((resolve) => bundler.close(resolve)))
  afterEach(() => {
    bundled.length = 0
  })
  const localMethods = {
    pm_getPaymasterStubData: async (params: unknown) => ({ echoed: params }),
    pm_getPaymasterData: async () => {
      throw new RpcMethodError(-32002, 'Gas sponsorship is off for this project', { why: 'off' })
    },
  }

  test('sends ERC-4337 methods to the bundler one by one, the rest upstream in one call', async () => {
    const { status, body } = await proxyRpc({
      body: [
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 2, method: 'eth_sendUserOperation', params: [{}, '0x1'] },
        { jsonrpc: '2.0', id: 3, method: 'pm_getPaymasterStubData', params: ['op'] },
        { jsonrpc: '2.0', id: 4, method: 'eth_supportedEntryPoints' },
        { jsonrpc: '2.0', id: 5, method: 'pm_getPaymasterData', params: [] },
        { jsonrpc: '2.0', id: 6, method: 'eth_blockNumber' },
        { jsonrpc: '2.0', id: 7, method: 'personal_sign', params: [] },
      ],
      upstream: upstreamUrl,
      bundler: bundlerUrl,
      localMethods,
      timeoutMs: 2000,
    })
    expect(status).toBe(200)
    expect(body).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x7a69' },
      { jsonrpc: '2.0', id: 2, result: 'bundled eth_sendUserOperation' },
      { jsonrpc: '2.0', id: 3, result: { echoed: ['op'] } },
      { jsonrpc: '2.0', id: 4, result: 'bundled eth_supportedEntryPoints' },
      {
        jsonrpc: '2.0',
        id: 5,
        error: {
          code: -32002,
          message: 'Gas sponsorship is off for this project',
          data: { why: 'off' },
        },
      },
      { jsonrpc: '2.0', id: 6, result: '0x10' },
      {
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32601, message: 'Requested RPC call is not allowed' },
      },
    ])
    expect(bundled).toHaveLength(2)
    expect(bundled.every((request) => !Array.isArray(request))).toBe(true)
    expect(upstream.received).toHaveLength(1)
    expect((upstream.received[0] as { method: string }[]).map((r) => r.method)).toEqual([
      'eth_chainId',
      'eth_blockNumber',
    ])
  })

  test('without a bundler, ERC-4337 methods go to the chain upstream as before', async () => {
    const { body } = await proxyRpc({
      body: { jsonrpc: '2.0', id: 9, method: 'eth_supportedEntryPoints' },
      upstream: upstreamUrl,
      timeoutMs: 2000,
    })
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32601, message: 'Method not found' },
    })
    expect(bundled).toEqual([])
    expect(upstream.received).toHaveLength(1)
  })

  test('one batch reaches the bundler and the paymaster at most MAX_SEPARATE_CALLS times (was 1000 bundler requests for one request)', async () => {
    let paymasterCalls = 0
    const { status, body } = await proxyRpc({
      body: [
        { jsonrpc: '2.0', id: 'first', method: 'eth_chainId' },
        ...Array.from({ length: 995 }, (_, i) => ({
          jsonrpc: '2.0',
          id: i,
          method: 'eth_estimateUserOperationGas',
          params: [{}, '0x1'],
        })),
        ...Array.from({ length: 4 }, (_, i) => ({
          jsonrpc: '2.0',
          id: `pm${i}`,
          method: 'pm_getPaymasterStubData',
          params: [],
        })),
      ],
      upstream: upstreamUrl,
      bundler: bundlerUrl,
      localMethods: {
        pm_getPaymasterStubData: async () => {
          paymasterCalls++
          return 'stub'
        },
      },
      timeoutMs: 2000,
    })
    expect(status).toBe(200)
    expect(bundled.length + paymasterCalls).toBe(MAX_SEPARATE_CALLS)
    const answers = body as { id: unknown; result?: unknown; error?: { code: number } }[]
    expect(answers).toHaveLength(1000)
    expect(answers[0]).toEqual({ jsonrpc: '2.0', id: 'first', result: '0x7a69' })
    // The rest are answered in place, each with the limit's error.
    const refused = answers.filter((answer) => answer.error?.code === -32005)
    expect(refused).toHaveLength(1000 - 1 - MAX_SEPARATE_CALLS)
    expect(answers.at(-1)).toMatchObject({ id: 'pm3', error: { code: -32005 } })
  })

  test('a bundler that is down fails its calls alone, with 503', async () => {
    const { status, body } = await proxyRpc({
      body: [
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 2, method: 'eth_getUserOperationReceipt', params: ['0x00'] },
      ],
      upstream: upstreamUrl,
      bundler: 'http://127.0.0.1:9',
      timeoutMs: 2000,
    })
    expect(status).toBe(503)
    expect(body).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x7a69' },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'Upstream RPC unavailable' } },
    ])
  })
})
