import { afterEach, describe, expect, test, vi } from 'vitest'
import { z } from 'zod'
import * as Channel from './Channel.js'
import { MAX_MESSAGE_SIZE, NS, VERSION } from './constants.js'
import {
  DisconnectedError,
  InvalidParamsError,
  MethodNotFoundError,
  ResourceUnavailableError,
  UnrecognizedChainError,
  UserRejectedRequestError,
} from './errors.js'
import type { InferContract } from './types.js'
import { fromContract } from './validators.js'

const Schema = {
  requests: {
    echo: { params: z.object({ text: z.string() }), result: z.string() },
    fail: { params: z.object({ code: z.number() }), result: z.null() },
    wait: { params: z.object({}), result: z.null() },
  },
  events: { note: z.object({ text: z.string() }) },
} as const
type Api = InferContract<typeof Schema>
type None = { requests: Record<string, never>; events: Record<string, never> }

const channels: Channel.Channel<never, never>[] = []
afterEach(() => {
  for (const c of channels.splice(0)) c.close()
  vi.useRealTimers()
})

/** A client (sends Api) and a server (handles Api) on one MessageChannel. */
function pair(handlers: Channel.Handlers<Api> = {}) {
  const { port1, port2 } = new MessageChannel()
  const server = Channel.create<None, Api>({
    port: port2,
    validator: fromContract(Schema),
    handlers,
  })
  const client = Channel.create<Api, None>({
    port: port1,
    validator: fromContract({ requests: {}, events: {} }),
  })
  channels.push(server as never, client as never)
  return { client, server, port1, port2 }
}

/** A server channel plus the raw port that talks to it, to send hand-made messages. */
function raw(handlers: Channel.Handlers<Api>) {
  const { port1, port2 } = new MessageChannel()
  const server = Channel.create<None, Api>({
    port: port2,
    validator: fromContract(Schema),
    handlers,
  })
  channels.push(server as never)
  const replies: unknown[] = []
  port1.onmessage = (event) => replies.push(JSON.parse(event.data as string))
  const send = (message: unknown) =>
    port1.postMessage(typeof message === 'string' ? message : JSON.stringify(message))
  return { server, send, replies, port1 }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20))
const req = (id: number, method: string, params: unknown) => ({
  ns: NS,
  v: VERSION,
  kind: 'req',
  id,
  method,
  params,
})

describe('Channel', () => {
  test('a reply pairs with its request by id', async () => {
    const { client } = pair({
      echo: async ({ text }) => {
        await new Promise((r) => setTimeout(r, text === 'slow' ? 30 : 1))
        return text.toUpperCase()
      },
    })
    const [slow, fast] = await Promise.all([
      client.request('echo', { text: 'slow' }),
      client.request('echo', { text: 'fast' }),
    ])
    expect(slow).toBe('SLOW')
    expect(fast).toBe('FAST')
  })

  test('error replies rebuild typed errors with their EIP-1193 codes', async () => {
    const { client } = pair({
      fail: ({ code }) => {
        throw Object.assign(new Error(code === 4001 ? 'Modal closed' : 'nope'), { code })
      },
    })
    const rejected = await client.request('fail', { code: 4001 }).catch((e: unknown) => e)
    expect(rejected).toBeInstanceOf(UserRejectedRequestError)
    expect(rejected).toMatchObject({ code: 4001, message: 'Modal closed' })
    const unknownChain = await client.request('fail', { code: 4902 }).catch((e: unknown) => e)
    expect(unknownChain).toBeInstanceOf(UnrecognizedChainError)
  })

  test('events reach listeners with validated data', async () => {
    const { port1, port2 } = new MessageChannel()
    const receiver = Channel.create<None, Api>({ port: port2, validator: fromContract(Schema) })
    const sender = Channel.create<Api, None>({
      port: port1,
      validator: fromContract({ requests: {}, events: {} }),
    })
    channels.push(receiver as never, sender as never)
    const seen: unknown[] = []
    const off = receiver.on('note', (data) => seen.push(data))
    sender.emit('note', { text: 'hi' })
    sender.emit('note', { text: 5 } as never)
    await settle()
    off()
    sender.emit('note', { text: 'after off' })
    await settle()
    expect(seen).toEqual([{ text: 'hi' }])
  })

  test('an unknown method gets -32601 and invalid params -32602', async () => {
    const { client } = pair({ echo: ({ text }) => text })
    await expect(client.request('wait', {})).rejects.toBeInstanceOf(MethodNotFoundError)
    await expect(client.request('echo', { text: 1 } as never)).rejects.toBeInstanceOf(
      InvalidParamsError,
    )
  })

  test('rejects malformed, oversized, non-text and replayed messages without throwing', async () => {
    const handler = vi.fn(({ text }: { text: string }) => text)
    const { send, replies } = raw({ echo: handler })
    send('not json at all {')
    send({ ns: NS, v: VERSION, kind: 'req', id: 'x', method: 'echo' })
    send({ ns: 'other', v: VERSION, kind: 'req', id: 1, method: 'echo', params: { text: 'a' } })
    send({ ...req(1, 'echo', { text: 'a' }), kind: 'bogus' })
    send({ ...req(2, 'echo', { text: 'a' }), method: '' })
    send(`"${'x'.repeat(MAX_MESSAGE_SIZE)}"`)
    send(req(5, 'echo', { text: 'first' }))
    send(req(5, 'echo', { text: 'replayed' }))
    send(req(3, 'echo', { text: 'older' }))
    // Port messages arrive in order: once the answer to 5 is in, every earlier message was read.
    await vi.waitFor(() => expect(replies).toHaveLength(1))
    await settle()
    expect(handler).toHaveBeenCalledTimes(1)
    expect(replies).toEqual([{ ns: NS, v: VERSION, kind: 'res', id: 5, result: 'first' }])
  })

  test('a structured-clone object (not JSON text) is dropped', async () => {
    const handler = vi.fn(({ text }: { text: string }) => text)
    const { port1, replies } = raw({ echo: handler })
    port1.postMessage(req(1, 'echo', { text: 'object' }))
    await settle()
    expect(handler).not.toHaveBeenCalled()
    expect(replies).toEqual([])
  })

  test('a timeout rejects with a clear error and cancels the remote handler', async () => {
    let aborted = false
    const { client } = pair({
      wait: (_params, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true
            resolve(null)
          })
        }),
    })
    const error = await client.request('wait', {}, { timeout: 30 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResourceUnavailableError)
    expect((error as Error).message).toBe('Request timed out after 30 ms: wait')
    await settle()
    expect(aborted).toBe(true)
  })

  test('cancel rejects immediately', async () => {
    const { client } = pair({ wait: () => new Promise(() => {}) })
    const controller = new AbortController()
    const started = performance.now()
    const pending = client.request('wait', {}, { signal: controller.signal })
    controller.abort()
    const error = await pending.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UserRejectedRequestError)
    expect((error as Error).message).toBe('Request was aborted')
    expect(performance.now() - started).toBeLessThan(1000)
  })

  test('closing rejects pending requests with 4900', async () => {
    const { client } = pair({ wait: () => new Promise(() => {}) })
    const pending = client.request('wait', {})
    client.close()
    await expect(pending).rejects.toBeInstanceOf(DisconnectedError)
    await expect(client.request('wait', {})).rejects.toMatchObject({ code: 4900 })
  })

  test('a request waiting on the user fails with 4900 when the other side stops answering pings', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'setTimeout'] })
    const { port1 } = new MessageChannel()
    // port2 is never read: nothing will ever answer.
    const client = Channel.create<Api, None>({
      port: port1,
      validator: fromContract({ requests: {}, events: {} }),
    })
    channels.push(client as never)
    const pending = client.request('wait', {}).catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(10_100)
    expect(await pending).toBeInstanceOf(DisconnectedError)
    expect(client.closed).toBe(true)
  })

  test('ping resolves when the other side answers', async () => {
    const { client } = pair()
    await expect(client.ping()).resolves.toBeUndefined()
  })
})
