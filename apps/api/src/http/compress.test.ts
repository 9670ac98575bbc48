import { type IncomingHttpHeaders, request } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { DEMO_PROJECT_ID } from '@porthole/shared'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../test/databases.js'
import { type StartApiReturnType, startApi } from '../server.js'
import { pendingText } from './compress.js'

type RawResponse = { status: number; headers: IncomingHttpHeaders; body: Buffer }

/** Over real HTTP, nothing decoded (fetch would decompress on its own). */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        )
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

const decode = (response: RawResponse): unknown => {
  const encoding = response.headers['content-encoding']
  const body =
    encoding === 'br'
      ? brotliDecompressSync(response.body)
      : encoding === 'gzip'
        ? gunzipSync(response.body)
        : response.body
  return JSON.parse(body.toString())
}

describe('JSON responses are compressed', () => {
  let api: StartApiReturnType
  let target: TestDatabase
  beforeAll(async () => {
    target = await createTestDatabase('sqlite')
    api = await startApi({ port: 0, databaseUrl: target.url, rateLimit: false })
  })
  afterAll(async () => {
    await api?.close()
    await target?.cleanup()
  })

  test('/getWallets comes back brotli or gzip per Accept-Encoding, decoding to the same JSON', async () => {
    const url = `${api.url}/getWallets?projectId=${DEMO_PROJECT_ID}`
    const plain = await raw(url)
    expect(plain.status).toBe(200)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.length).toBeGreaterThan(10_000)
    const json = decode(plain)

    const br = await raw(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } })
    expect(br.status).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toMatch(/accept-encoding/i)
    expect(br.headers['content-type']).toMatch(/^application\/json/)
    expect(Number(br.headers['content-length'])).toBe(br.body.length)
    expect(decode(br)).toEqual(json)
    expect(br.body.length).toBeLessThan(plain.body.length / 4)

    const gzip = await raw(url, { headers: { 'accept-encoding': 'gzip' } })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(Number(gzip.headers['content-length'])).toBe(gzip.body.length)
    expect(decode(gzip)).toEqual(json)
    expect(gzip.body.length).toBeLessThan(plain.body.length / 4)
    // Security headers are kept.
    expect(gzip.headers['x-content-type-options']).toBe('nosniff')
  })

  test('a small body is sent as it is', async () => {
    const health = await raw(`${api.url}/health`, { headers: { 'accept-encoding': 'br' } })
    expect(health.headers['content-encoding']).toBeUndefined()
    expect(decode(health)).toEqual({ ok: true })
    expect(Number(health.headers['content-length'])).toBe(health.body.length)
  })

  test('the server’s JSON answers are read as the string they were made with, not as a stream', () => {
    // The running server's Response (node-server's lightweight one): if a release of it moves
    // the string, this fails and compression falls back to reading bodies (slower, same bytes).
    const text = JSON.stringify({ balances: [] })
    expect(
      pendingText(new Response(text, { headers: { 'content-type': 'application/json' } })),
    ).toBe(text)
    expect(pendingText(new Response(new Uint8Array([123, 125])))).toBeUndefined()
  })

  test('a chain RPC batch answer decodes to the same JSON-RPC responses', async () => {
    // Refused methods are answered here, so no chain is needed for a large answer.
    const batch = Array.from({ length: 50 }, (_, id) => ({
      jsonrpc: '2.0',
      id,
      method: 'personal_sign',
    }))
    const post = (headers: Record<string, string>) =>
      raw(`${api.url}/v1?chainId=eip155:31337&projectId=${DEMO_PROJECT_ID}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(batch),
      })
    const plain = await post({})
    const br = await post({ 'accept-encoding': 'br' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(decode(br)).toEqual(decode(plain))
    expect(decode(br)).toHaveLength(50)
  })
})
