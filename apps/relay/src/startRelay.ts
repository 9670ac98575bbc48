/**
 * A WalletConnect v2 relay for loopback development and tests (production uses the public
 * WalletConnect relay network). Real, unmodified clients connect with `?auth=<JWT>`; messages
 * are pushed to subscribers (never echoed to the publisher) and kept in a mailbox until their
 * ttl ends, so a peer that is offline, or a relay restart, loses nothing.
 */
import { createHash, randomInt } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, resolve } from 'node:path'
import { endpoints, portOf } from '@porthole/shared'
import { Gauge, Registry } from 'prom-client'
import { type WebSocket, WebSocketServer } from 'ws'
import { checkToken } from './auth.js'
import { type Mailbox, openMailbox, type StoredMessage } from './mailbox.js'

/** Options of {@link startRelay}. */
export type StartRelayParameters = {
  /** Default the port of `endpoints().relay` (4400); 0 picks a free one. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** The URL clients are configured with; tokens must name it as `aud`. Default as bound. */
  publicUrl?: string
  /** Mailbox database; default `file:.data/relay.db`, `:memory:` for tests. */
  databaseUrl?: string
  /** Ping frames every this many ms (clients drop a socket silent for 35 s); default 20 000. */
  pingIntervalMs?: number
  /** Longest ttl a message may ask for, in seconds; default 30 days. */
  maxTtlSeconds?: number
  /** Logs each frame (debugging). */
  debug?: boolean
}

/** Counters of a running relay. */
export type RelayStats = {
  sockets: number
  subscriptions: number
  published: number
  delivered: number
}

/** A running relay. */
export type Relay = {
  url: string
  stats(): RelayStats
  /** Messages in the mailbox. */
  stored(): Promise<number>
  close(): Promise<void>
}

const TOPIC = /^[0-9a-f]{64}$/
const MAX_MESSAGE = 256 * 1024
const TAGS = { proposal: 1100, proposalResponse: 1101, settle: 1102 }

class ParamsError extends Error {}

type Publish = { topic: string; message: string; ttl: number; tag: number }

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x)

function topicOf(x: unknown, name = 'topic'): string {
  if (typeof x !== 'string' || !TOPIC.test(x))
    throw new ParamsError(`${name} must be 64 hexadecimal characters`)
  return x
}

function topicsOf(x: unknown): string[] {
  if (!Array.isArray(x) || x.length > 1000) throw new ParamsError('topics must be an array')
  return x.map((t) => topicOf(t))
}

function publishOf(x: unknown, maxTtl: number, fallbackTag = 0): Publish {
  if (!isObject(x)) throw new ParamsError('params must be an object')
  const { message, ttl = 300, tag = fallbackTag } = x
  if (typeof message !== 'string' || message.length === 0 || message.length > MAX_MESSAGE)
    throw new ParamsError('message must be a non-empty string of at most 256 KiB')
  if (!Number.isSafeInteger(ttl) || (ttl as number) < 1 || (ttl as number) > maxTtl)
    throw new ParamsError(`ttl must be an integer from 1 to ${maxTtl}`)
  if (!Number.isSafeInteger(tag) || (tag as number) < 0)
    throw new ParamsError('tag must be an integer')
  return { topic: topicOf(x.topic), message, ttl: ttl as number, tag: tag as number }
}

/** Subscription id of a topic (clients derive their own; any stable value will do). */
const subscriptionId = (topic: string) => createHash('sha256').update(topic).digest('hex')

/** A JSON-RPC id like the clients use (microsecond time with random digits). */
const newId = () => Date.now() * 1000 + randomInt(0, 1000)

/**
 * Starts the relay.
 *
 * @example
 * const relay = await startRelay({ port: 0, databaseUrl: ':memory:' })
 * // clients use relay.url as their relayUrl
 * await relay.close()
 */
export async function startRelay(parameters: StartRelayParameters = {}): Promise<Relay> {
  const {
    port = portOf(endpoints().relay),
    host = '127.0.0.1',
    databaseUrl = 'file:.data/relay.db',
    pingIntervalMs = 20_000,
    maxTtlSeconds = 30 * 24 * 3600,
    debug = false,
  } = parameters
  if (databaseUrl.startsWith('file:'))
    mkdirSync(dirname(resolve(databaseUrl.slice(5))), { recursive: true })
  const mailbox: Mailbox = await openMailbox(databaseUrl)
  const subscribers = new Map<string, Set<WebSocket>>()
  const topicsOfSocket = new Map<WebSocket, Set<string>>()
  const counters = { published: 0, delivered: 0 }
  let audiences: string[] = []

  const push = (socket: WebSocket, message: StoredMessage) => {
    if (socket.readyState !== socket.OPEN) return
    socket.send(
      JSON.stringify({
        id: newId(),
        jsonrpc: '2.0',
        method: 'irn_subscription',
        params: { id: subscriptionId(message.topic), data: message },
      }),
    )
    counters.delivered++
  }

  // Handlers do their in-memory work before their first await, so frames take effect in the
  // order they arrive while their database writes are committed together.
  const subscribe = async (socket: WebSocket, topic: string) => {
    const set = subscribers.get(topic) ?? new Set<WebSocket>()
    subscribers.set(topic, set)
    set.add(socket)
    topicsOfSocket.get(socket)?.add(topic)
    // Whatever waited for this topic is delivered now (clients drop duplicates); what is
    // published after this moment is pushed as it comes.
    const upTo = mailbox.lastSeq()
    for (const message of await mailbox.forTopic(topic, { upTo })) push(socket, message)
    return subscriptionId(topic)
  }

  const unsubscribe = (socket: WebSocket, topic: string) => {
    subscribers.get(topic)?.delete(socket)
    if (subscribers.get(topic)?.size === 0) subscribers.delete(topic)
    topicsOfSocket.get(socket)?.delete(topic)
  }

  /** Pushes to the topic's other subscribers at once; resolves when the mailbox has it. */
  const publish = (from: WebSocket, { topic, message, ttl, tag }: Publish) => {
    const stored: StoredMessage = { topic, message, publishedAt: Date.now(), tag }
    counters.published++
    for (const socket of subscribers.get(topic) ?? []) if (socket !== from) push(socket, stored)
    return mailbox.put(stored, ttl)
  }

  const methods: Record<string, (socket: WebSocket, params: unknown) => Promise<unknown>> = {
    irn_subscribe: (socket, p) => subscribe(socket, topicOf(isObject(p) ? p.topic : undefined)),
    irn_batchSubscribe: async (socket, p) => {
      const topics = topicsOf(isObject(p) ? p.topics : undefined)
      return Promise.all(topics.map((topic) => subscribe(socket, topic)))
    },
    irn_unsubscribe: async (socket, p) => {
      unsubscribe(socket, topicOf(isObject(p) ? p.topic : undefined))
      return true
    },
    irn_batchUnsubscribe: async (socket, p) => {
      const list = isObject(p) ? p.subscriptions : undefined
      if (!Array.isArray(list)) throw new ParamsError('subscriptions must be an array')
      for (const item of list) unsubscribe(socket, topicOf(isObject(item) ? item.topic : undefined))
      return true
    },
    irn_publish: async (socket, p) => {
      await publish(socket, publishOf(p, maxTtlSeconds))
      return true
    },
    irn_batchPublish: async (socket, p) => {
      const list = isObject(p) ? p.messages : undefined
      if (!Array.isArray(list)) throw new ParamsError('messages must be an array')
      const messages = list.map((m) => publishOf(m, maxTtlSeconds))
      await Promise.all(messages.map((message) => publish(socket, message)))
      return true
    },
    irn_fetchMessages: async (_socket, p) => ({
      messages: await mailbox.forTopic(topicOf(isObject(p) ? p.topic : undefined)),
      hasMore: false,
    }),
    irn_batchFetchMessages: async (_socket, p) => {
      const topics = topicsOf(isObject(p) ? p.topics : undefined)
      const messages = (await Promise.all(topics.map((t) => mailbox.forTopic(t)))).flat()
      return { messages, hasMore: false }
    },
    // The dapp proposes: it listens on the pairing topic, where the proposal is posted.
    wc_proposeSession: async (socket, p) => {
      if (!isObject(p)) throw new ParamsError('params must be an object')
      const topic = topicOf(p.pairingTopic, 'pairingTopic')
      const proposal = publishOf(
        { topic, message: p.sessionProposal, ttl: p.ttl, tag: TAGS.proposal },
        maxTtlSeconds,
      )
      await Promise.all([subscribe(socket, topic), publish(socket, proposal)])
      return true
    },
    // The wallet approves: the answer goes to the pairing topic, the settlement to the new
    // session topic (stored: the dapp subscribes only after reading the answer).
    wc_approveSession: async (socket, p) => {
      if (!isObject(p)) throw new ParamsError('params must be an object')
      const pairingTopic = topicOf(p.pairingTopic, 'pairingTopic')
      const sessionTopic = topicOf(p.sessionTopic, 'sessionTopic')
      const response = publishOf(
        {
          topic: pairingTopic,
          message: p.sessionProposalResponse,
          ttl: p.ttl,
          tag: TAGS.proposalResponse,
        },
        maxTtlSeconds,
      )
      const settle = publishOf(
        { topic: sessionTopic, message: p.sessionSettlementRequest, ttl: p.ttl, tag: TAGS.settle },
        maxTtlSeconds,
      )
      await Promise.all([
        subscribe(socket, sessionTopic),
        publish(socket, response),
        publish(socket, settle),
      ])
      return true
    },
  }

  const answer = (socket: WebSocket, id: unknown, body: Record<string, unknown>) => {
    if (socket.readyState === socket.OPEN)
      socket.send(JSON.stringify({ id, jsonrpc: '2.0', ...body }))
  }

  const onFrame = async (socket: WebSocket, raw: string) => {
    let frame: unknown
    try {
      frame = JSON.parse(raw)
    } catch {
      return answer(socket, null, { error: { code: -32700, message: 'Parse error' } })
    }
    if (debug) console.log('[relay] <-', raw.slice(0, 300))
    if (!isObject(frame) || frame.jsonrpc !== '2.0')
      return answer(socket, null, { error: { code: -32600, message: 'Invalid request' } })
    const { id, method, params } = frame
    if (method === undefined) return // an ack of a pushed message
    if (typeof method !== 'string' || !(typeof id === 'number' || typeof id === 'string'))
      return answer(socket, id ?? null, { error: { code: -32600, message: 'Invalid request' } })
    const handler = Object.hasOwn(methods, method) ? methods[method] : undefined
    if (!handler)
      return answer(socket, id, { error: { code: -32601, message: `Method not found: ${method}` } })
    try {
      answer(socket, id, { result: await handler(socket, params) })
    } catch (error) {
      if (error instanceof ParamsError)
        return answer(socket, id, {
          error: { code: -32602, message: `Invalid params: ${error.message}` },
        })
      console.error('[relay]', error)
      answer(socket, id, { error: { code: -32603, message: 'Internal error' } })
    }
  }

  const metrics = new Registry()
  new Gauge({
    name: 'porthole_relay_connections',
    help: 'WebSocket clients connected to this relay now.',
    registers: [metrics],
    collect() {
      this.set(topicsOfSocket.size)
    },
  })
  new Gauge({
    name: 'porthole_relay_topics',
    help: 'Topics with at least one subscriber.',
    registers: [metrics],
    collect() {
      this.set(new Set([...topicsOfSocket.values()].flatMap((topics) => [...topics])).size)
    },
  })
  const server = createServer((req, res) => {
    // Prometheus scrape (keep it off the public network, like the API's).
    if (req.method === 'GET' && req.url === '/metrics') {
      void metrics.metrics().then((text) => {
        res.writeHead(200, { 'content-type': metrics.contentType })
        res.end(text)
      })
      return
    }
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end('Porthole local WalletConnect relay (development and tests only)\n')
  })
  const wss = new WebSocketServer({ noServer: true, maxPayload: 2 * MAX_MESSAGE })
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'ws://relay')
    void checkToken(url.searchParams.get('auth'), audiences).then((reason) => {
      if (reason) {
        socket.end(
          `HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${reason}\n`,
        )
        return
      }
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws))
    })
  })
  wss.on('connection', (socket: WebSocket) => {
    topicsOfSocket.set(socket, new Set())
    let missed = 0
    socket.on('pong', () => {
      missed = 0
    })
    const pinger = setInterval(() => {
      if (++missed > 2) return socket.terminate()
      socket.ping()
    }, pingIntervalMs)
    // Not queued: each frame's effects happen in arrival order (see `subscribe`), and a slow
    // commit does not hold up the frames behind it.
    socket.on('message', (data) => void onFrame(socket, data.toString()).catch(() => {}))
    socket.on('close', () => {
      clearInterval(pinger)
      for (const topic of topicsOfSocket.get(socket) ?? []) unsubscribe(socket, topic)
      topicsOfSocket.delete(socket)
    })
    socket.on('error', () => socket.terminate())
  })

  await new Promise<void>((ok, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      void mailbox.close()
      fail(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} is in use: the relay cannot start`)
          : error,
      )
    })
    server.listen(port, host, () => ok())
  })
  const bound = (server.address() as AddressInfo).port
  const url = `ws://${host.includes(':') ? `[${host}]` : host}:${bound}`
  audiences = [...new Set([url, (parameters.publicUrl ?? url).replace(/\/+$/, '')])]

  return {
    url: parameters.publicUrl?.replace(/\/+$/, '') ?? url,
    stats: () => ({
      sockets: topicsOfSocket.size,
      subscriptions: [...subscribers.values()].reduce((n, s) => n + s.size, 0),
      ...counters,
    }),
    stored: () => mailbox.count(),
    close: async () => {
      for (const socket of wss.clients) socket.terminate()
      wss.close()
      await new Promise<void>((done) => {
        server.close(() => done())
        server.closeAllConnections()
      })
      await mailbox.close()
    },
  }
}
