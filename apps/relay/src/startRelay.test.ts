import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateKeyPair, signJWT } from '@walletconnect/relay-auth'
import SignClient from '@walletconnect/sign-client'
import { recoverMessageAddress, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { type Relay, startRelay } from './index.js'

const relays: Relay[] = []
const sockets: WebSocket[] = []
const clients: { core: { relayer: { transportClose(): Promise<void> } } }[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate()
  for (const client of clients.splice(0)) await client.core.relayer.transportClose().catch(() => {})
  for (const relay of relays.splice(0)) await relay.close().catch(() => {})
})

async function relay(options: Parameters<typeof startRelay>[0] = {}) {
  const r = await startRelay({ port: 0, databaseUrl: ':memory:', ...options })
  relays.push(r)
  return r
}

const token = (aud: string, ttl = 3600, iat?: number) =>
  signJWT('a'.repeat(64), aud, ttl, generateKeyPair(), ...(iat === undefined ? [] : [iat]))

/** A raw socket with a promise per JSON-RPC answer and a list of pushed messages. */
async function rawClient(url: string, auth?: string) {
  const socket = new WebSocket(`${url}/?auth=${auth ?? (await token(url))}`)
  sockets.push(socket)
  const pushed: { topic: string; message: string; tag: number }[] = []
  const waiting = new Map<unknown, (x: Record<string, unknown>) => void>()
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data))
    if (frame.method === 'irn_subscription') {
      pushed.push(frame.params.data)
      socket.send(JSON.stringify({ id: frame.id, jsonrpc: '2.0', result: true }))
    } else waiting.get(frame.id)?.(frame)
  })
  await new Promise((ok, fail) => {
    socket.once('open', ok)
    socket.once('error', fail)
  })
  let next = 1
  const call = (method: string, params: unknown) =>
    new Promise<Record<string, unknown>>((done) => {
      const id = next++
      waiting.set(id, done)
      socket.send(JSON.stringify({ id, jsonrpc: '2.0', method, params }))
    })
  return { socket, pushed, call }
}

const TOPIC = 'ab'.repeat(32)

describe('the relay protocol (raw sockets)', () => {
  test('GET /metrics counts the clients connected now', async () => {
    const r = await relay()
    const scrape = async () => {
      const text = await (await fetch(`${r.url.replace(/^ws/, 'http')}/metrics`)).text()
      return Number(text.match(/^porthole_relay_connections (\d+)/m)?.[1])
    }
    expect(await scrape()).toBe(0)
    const [a] = [await rawClient(r.url), await rawClient(r.url)]
    expect(await scrape()).toBe(2)
    a.socket.terminate()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await scrape()).toBe(1)
  })

  test('a token with the wrong audience, an expired one or garbage gets HTTP 401', async () => {
    const r = await relay()
    const attempts = [
      await token('ws://somewhere-else:4400'),
      await token(r.url, 1, Math.floor(Date.now() / 1000) - 10),
      'not-a-jwt',
      '',
    ]
    for (const auth of attempts) {
      const status = await new Promise<number | string>((done) => {
        const socket = new WebSocket(`${r.url}/?auth=${auth}`)
        socket.on('unexpected-response', (_req, res) => done(res.statusCode ?? 0))
        socket.on('open', () => done('open'))
        socket.on('error', () => {})
      })
      expect(status).toBe(401)
    }
  })

  test('publish reaches other subscribers, never the publisher, and waits for late subscribers', async () => {
    const r = await relay()
    const a = await rawClient(r.url)
    const b = await rawClient(r.url)
    expect((await a.call('irn_subscribe', { topic: TOPIC })).result).toBeTruthy()
    expect(
      (await a.call('irn_publish', { topic: TOPIC, message: 'hello', ttl: 300, tag: 1 })).result,
    ).toBe(true)
    // b subscribes after the publish: the mailbox delivers it.
    await b.call('irn_subscribe', { topic: TOPIC })
    await expect.poll(() => b.pushed.map((m) => m.message)).toEqual(['hello'])
    await b.call('irn_publish', { topic: TOPIC, message: 'back', ttl: 300, tag: 2 })
    await expect.poll(() => a.pushed.map((m) => m.message)).toEqual(['back'])
    expect(b.pushed.map((m) => m.message)).toEqual(['hello'])
    expect(r.stats()).toMatchObject({ sockets: 2, subscriptions: 2, published: 2 })
  })

  test('bad frames get JSON-RPC errors and the socket stays usable', async () => {
    const r = await relay()
    const a = await rawClient(r.url)
    expect((await a.call('irn_subscribe', { topic: 'short' })).error).toMatchObject({
      code: -32602,
      message: 'Invalid params: topic must be 64 hexadecimal characters',
    })
    expect(
      (await a.call('irn_publish', { topic: TOPIC, message: '', ttl: 300 })).error,
    ).toMatchObject({ code: -32602 })
    expect((await a.call('irn_nope', {})).error).toMatchObject({ code: -32601 })
    expect((await a.call('irn_subscribe', { topic: TOPIC })).result).toBeTruthy()
  })

  test('messages survive a relay restart on the same database', async () => {
    const file = `file:${join(mkdtempSync(join(tmpdir(), 'relay-')), 'relay.db')}`
    const first = await relay({ databaseUrl: file })
    const a = await rawClient(first.url)
    await a.call('irn_publish', { topic: TOPIC, message: 'kept', ttl: 300, tag: 1 })
    const port = Number(new URL(first.url).port)
    await first.close()
    relays.splice(relays.indexOf(first), 1)
    const second = await relay({ databaseUrl: file, port })
    const b = await rawClient(second.url)
    await b.call('irn_subscribe', { topic: TOPIC })
    await expect.poll(() => b.pushed.map((m) => m.message)).toEqual(['kept'])
    expect(await second.stored()).toBe(1)
  })
})

/** In-memory storage for a client (each its own, so two clients never share a Core). */
function memoryStorage() {
  const map = new Map<string, unknown>()
  return {
    getKeys: async () => [...map.keys()],
    getEntries: async () => [...map.entries()] as [string, unknown][],
    getItem: async (key: string) => map.get(key) as never,
    setItem: async (key: string, value: unknown) => {
      map.set(key, value)
    },
    removeItem: async (key: string) => {
      map.delete(key)
    },
  }
}

async function signClient(relayUrl: string, name: string) {
  const client = await SignClient.init({
    projectId: 'f'.repeat(32),
    relayUrl,
    metadata: { name, description: name, url: 'http://localhost', icons: [] },
    storage: memoryStorage() as never,
    customStoragePrefix: `${name}-${Math.random().toString(36).slice(2)}`,
    telemetryEnabled: false,
    logger: 'silent',
  })
  clients.push(client as never)
  return client
}

/** A dapp and a wallet paired through `relayUrl`, the wallet answering personal_sign. */
async function pairedPeers(relayUrl: string) {
  const dapp = await signClient(relayUrl, 'dapp')
  const wallet = await signClient(relayUrl, 'wallet')
  const account = privateKeyToAccount(generatePrivateKey())
  wallet.on('session_proposal', async ({ id }) => {
    await wallet.approve({
      id,
      namespaces: {
        eip155: {
          accounts: [`eip155:31337:${account.address}`],
          methods: ['personal_sign'],
          events: [],
          chains: ['eip155:31337'],
        },
      },
    })
  })
  wallet.on('session_request', async ({ id, topic, params }) => {
    const [message] = params.request.params as [`0x${string}`]
    const result = await account.signMessage({ message: { raw: message } })
    await wallet.respond({ topic, response: { id, jsonrpc: '2.0', result } })
  })
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: {
      eip155: { methods: ['personal_sign'], chains: ['eip155:31337'], events: [] },
    },
  })
  await wallet.pair({ uri: uri as string })
  const session = await approval()
  const sign = async (text: string) =>
    recoverMessageAddress({
      message: text,
      signature: await dapp.request<`0x${string}`>({
        topic: session.topic,
        chainId: 'eip155:31337',
        request: { method: 'personal_sign', params: [toHex(text), account.address] },
      }),
    })
  return { dapp, wallet, account, sign }
}

describe('real WalletConnect clients', () => {
  test('a relay restart mid-session loses nothing: the clients reconnect and resubscribe', async () => {
    const file = `file:${join(mkdtempSync(join(tmpdir(), 'relay-')), 'relay.db')}`
    const first = await relay({ databaseUrl: file })
    const peers = await pairedPeers(first.url)
    expect(await peers.sign('before')).toBe(peers.account.address)
    const port = Number(new URL(first.url).port)
    await first.close()
    relays.splice(relays.indexOf(first), 1)
    await relay({ databaseUrl: file, port })
    expect(await peers.sign('after')).toBe(peers.account.address)
  }, 90_000)

  test('a wallet that was offline receives the request when it comes back', async () => {
    const r = await relay()
    const peers = await pairedPeers(r.url)
    const relayer = peers.wallet.core.relayer
    await relayer.transportClose()
    const pending = peers.sign('while away')
    await new Promise((done) => setTimeout(done, 500))
    await relayer.transportOpen()
    expect(await pending).toBe(peers.account.address)
  }, 90_000)

  test('pair, approve, personal_sign and a rejection round-trip through the relay', async () => {
    const r = await relay()
    const dapp = await signClient(r.url, 'dapp')
    const wallet = await signClient(r.url, 'wallet')
    const account = privateKeyToAccount(generatePrivateKey())
    wallet.on('session_proposal', async ({ id }) => {
      await wallet.approve({
        id,
        namespaces: {
          eip155: {
            accounts: [`eip155:31337:${account.address}`],
            methods: ['personal_sign', 'eth_sendTransaction'],
            events: ['accountsChanged', 'chainChanged'],
            chains: ['eip155:31337'],
          },
        },
      })
    })
    wallet.on('session_request', async ({ id, topic, params }) => {
      const [message] = params.request.params as [`0x${string}`]
      const response =
        message === toHex('no')
          ? { id, jsonrpc: '2.0', error: { code: 4001, message: 'User rejected.' } }
          : { id, jsonrpc: '2.0', result: await account.signMessage({ message: { raw: message } }) }
      await wallet.respond({ topic, response: response as never })
    })
    const { uri, approval } = await dapp.connect({
      optionalNamespaces: {
        eip155: { methods: ['personal_sign'], chains: ['eip155:31337'], events: [] },
      },
    })
    await wallet.pair({ uri: uri as string })
    const session = await approval()
    expect(session.namespaces.eip155?.accounts).toEqual([`eip155:31337:${account.address}`])

    const signature = await dapp.request<`0x${string}`>({
      topic: session.topic,
      chainId: 'eip155:31337',
      request: { method: 'personal_sign', params: [toHex('hi'), account.address] },
    })
    expect(await recoverMessageAddress({ message: 'hi', signature })).toBe(account.address)
    await expect(
      dapp.request({
        topic: session.topic,
        chainId: 'eip155:31337',
        request: { method: 'personal_sign', params: [toHex('no'), account.address] },
      }),
    ).rejects.toMatchObject({ code: 4001 })
  }, 60_000)
})
