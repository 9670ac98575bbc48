/**
 * The sign-out's call to the API (issue 25 audit: a failed logout was swallowed): against a real
 * HTTP server that refuses, hangs or is gone, the wallet tries three times, keeps its credential,
 * remembers the sign-out as owed and says it failed; a 401 (no session left) is done.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import * as Api from './api.js'

type Behaviour = 'refuse' | 'hang' | 'gone' | 'ok' | 'unauthenticated'

/** Node's own fetch: the test's stub answers the sign-in and hands every other call to it. */
const realFetch = fetch
let server: Server | undefined
const calls: { authorization: string | undefined }[] = []
const storage = new Map<string, string>()

/** An API whose `/auth/v1/logout` answers as `behaviour` (later ones for later calls). */
async function api(...behaviours: Behaviour[]): Promise<string> {
  server = createServer((request, response) => {
    const behaviour = behaviours[Math.min(calls.length, behaviours.length - 1)]
    calls.push({ authorization: request.headers.authorization })
    if (behaviour === 'hang') return
    if (behaviour === 'gone') return request.socket.destroy()
    if (behaviour === 'ok') return response.writeHead(204).end()
    const status = behaviour === 'refuse' ? 503 : 401
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ code: 'X', message: 'no' }))
  })
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return `http://127.0.0.1:${port}`
}

/** Signs in against `url` (the answer's bearer token is what logout sends). */
async function signedIn(url: string): Promise<void> {
  Api.configureApi({
    apiUrl: url,
    modalUrl: url,
    walletUrl: url,
    recoveryUrl: url,
    projectId: 'shop',
  })
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: URL | string, init?: RequestInit) => {
      const path = new URL(String(input)).pathname
      if (path === '/auth/v1/email/verify')
        return new Response(
          JSON.stringify({ token: 'tok-1', user: { id: 'u' }, recovery: 'automatic' }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        )
      return realFetch(input, init)
    }),
  )
  await Api.verifyEmail('a@example.com', 'device', '123456')
}

beforeEach(() => {
  calls.length = 0
  storage.clear()
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => storage.set(key, String(value)),
    removeItem: (key: string) => storage.delete(key),
  })
})
afterEach(async () => {
  vi.unstubAllGlobals()
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
  server?.closeAllConnections()
  server = undefined
})

describe('logout', () => {
  test('the API refuses (503): three tries, LogoutFailedError, the sign-out owed; the next try that lands clears it', async () => {
    const url = await api('refuse', 'refuse', 'refuse', 'ok')
    await signedIn(url)
    await expect(Api.logout()).rejects.toThrow(Api.LogoutFailedError)
    expect(calls).toHaveLength(3)
    expect(Api.hasPendingLogout()).toBe(true)
    // The credential was kept: the retry still names the session.
    await Api.logout()
    expect(calls).toHaveLength(4)
    expect(calls.every((call) => call.authorization === 'Bearer tok-1')).toBe(true)
    expect(Api.hasPendingLogout()).toBe(false)
  })

  test('the API is gone (connection dropped) or hangs: the failure is thrown within 3 s', async () => {
    await signedIn(await api('gone'))
    await expect(Api.logout()).rejects.toThrow(
      'The sign-out did not reach the server: your session may still be active',
    )
    expect(calls).toHaveLength(3)
    await new Promise((resolve) => server?.close(resolve))
    server?.closeAllConnections()
    calls.length = 0
    await signedIn(await api('hang'))
    const started = performance.now()
    await expect(Api.logout()).rejects.toThrow(Api.LogoutFailedError)
    const took = performance.now() - started
    expect(calls).toHaveLength(3)
    expect(took).toBeLessThan(3000)
  })

  test('a 401 means no session is left: done, nothing owed; a success on the second try is done too', async () => {
    await signedIn(await api('unauthenticated'))
    await Api.logout()
    expect(calls).toHaveLength(1)
    expect(Api.hasPendingLogout()).toBe(false)
    await new Promise((resolve) => server?.close(resolve))
    calls.length = 0
    await signedIn(await api('refuse', 'ok'))
    await Api.logout()
    expect(calls).toHaveLength(2)
    expect(Api.hasPendingLogout()).toBe(false)
  })

  test('a new sign-in drops an owed sign-out (the user chose to sign in again)', async () => {
    await signedIn(await api('refuse'))
    await expect(Api.logout()).rejects.toThrow(Api.LogoutFailedError)
    expect(Api.hasPendingLogout()).toBe(true)
    await Api.verifyEmail('a@example.com', 'device', '123456')
    expect(Api.hasPendingLogout()).toBe(false)
  })
})
