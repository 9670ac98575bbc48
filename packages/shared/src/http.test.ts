import { describe, expect, test } from 'vitest'
import { createHttpClient, HttpError } from './http.js'

function fakeFetch(status: number, body: unknown) {
  const calls: { url: string; init: RequestInit | undefined }[] = []
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init })
    return new Response(body === undefined ? null : JSON.stringify(body), { status })
  }
  return { calls, fetch: fetch as typeof globalThis.fetch }
}

describe('HTTP helper', () => {
  test('appends query params, the shared ones and a clientId', async () => {
    const { calls, fetch } = fakeFetch(200, { ok: true })
    const http = createHttpClient({
      baseUrl: 'http://api.test/',
      query: { projectId: 'p1', st: 'porthole' },
      clientId: 'c1',
      fetch,
    })
    await http.get('/getWallets', { page: 2, include: ['a', 'b'], search: undefined })
    const url = new URL(calls[0]!.url)
    expect(url.pathname).toBe('/getWallets')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      projectId: 'p1',
      st: 'porthole',
      page: '2',
      include: 'a,b',
      clientId: 'c1',
    })
  })

  test('sends a fresh request id with every call as rid', async () => {
    const { calls, fetch } = fakeFetch(200, {})
    let n = 0
    const http = createHttpClient({
      baseUrl: 'http://api.test',
      requestId: () => `trace1.${++n}`,
      fetch,
    })
    await http.get('/a')
    await http.post('/b', {})
    expect(calls.map((call) => new URL(call.url).searchParams.get('rid'))).toEqual([
      'trace1.1',
      'trace1.2',
    ])
    expect(http.url('/img')).not.toContain('rid=')
  })

  test('sends JSON bodies for POST, PUT and DELETE', async () => {
    const { calls, fetch } = fakeFetch(200, {})
    const http = createHttpClient({ baseUrl: 'http://api.test', fetch })
    await http.post('/e', { a: 1 })
    await http.put('/x', { b: 2 })
    await http.delete('/y')
    expect(calls.map((c) => c.init?.method)).toEqual(['POST', 'PUT', 'DELETE'])
    expect(calls[0]!.init?.body).toBe('{"a":1}')
  })

  test("any non-OK status throws 'HTTP status code: {status}'", async () => {
    const { fetch } = fakeFetch(429, { code: 'RATE_LIMITED' })
    const http = createHttpClient({ baseUrl: 'http://api.test', fetch })
    const error = await http.get('/x').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect(error).toMatchObject({
      message: 'HTTP status code: 429',
      status: 429,
      body: { code: 'RATE_LIMITED' },
    })
  })
})
