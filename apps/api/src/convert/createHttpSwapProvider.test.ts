import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest'
import { freePort } from '../../test/freePort.js'
import { createTestApp } from '../../test/testApp.js'
import { createHttpSwapProvider } from './createHttpSwapProvider.js'
import { SwapError } from './SwapProvider.js'

const ETH = 'eip155:8453:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const USDC = 'eip155:8453:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const USER = 'eip155:8453:0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const account = (id: string) => {
  const [namespace, reference, address] = id.split(':') as [string, string, string]
  return { chainId: `${namespace}:${reference}`, address }
}

/** A fake provider: answers each path from `answers`, records what it was sent. */
type Seen = { method: string; path: string; query: Record<string, string>; body: unknown }
const seen: Seen[] = []
let answers: Record<string, { status: number; body: unknown }> = {}
let server: Server
let url: string

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString()
  return text ? JSON.parse(text) : undefined
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const parsed = new URL(request.url ?? '/', 'http://fake')
    seen.push({
      method: request.method ?? '',
      path: parsed.pathname,
      query: Object.fromEntries(parsed.searchParams),
      body: await readBody(request),
    })
    const answer = answers[parsed.pathname] ?? { status: 404, body: { code: 'NOT_FOUND' } }
    response.writeHead(answer.status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(answer.body))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/swap/?projectId=provider-key`
})
afterAll(() => new Promise((done) => server?.close(done)))
afterEach(() => {
  seen.length = 0
  answers = {}
  vi.unstubAllEnvs()
})

const ok = (body: unknown) => ({ status: 200, body })

test('forwards every call with the provider’s own project and validates the answers', async () => {
  answers = {
    '/swap/v1/convert/tokens': ok({
      tokens: [
        { name: 'Ether', symbol: 'ETH', address: ETH, decimals: 18, logoUri: 'https://i/eth' },
      ],
    }),
    '/swap/v1/convert/quotes': ok({
      quotes: [{ fromAmount: '1000', fromAccount: ETH, toAmount: '3', toAccount: USDC }],
    }),
    '/swap/v1/convert/build-transaction': ok({
      tx: {
        from: USER,
        to: 'eip155:8453:0x1111111254EEB25477B68fb85Ed929f73A960582',
        data: '0x12aa3caf',
        amount: '1000',
        eip155: { gas: '200000', gasPrice: '1000000' },
      },
    }),
    '/swap/v1/convert/allowance': ok({ allowance: '5' }),
    '/swap/v1/convert/build-approve': ok({
      tx: {
        from: USER,
        to: USDC,
        data: '0x095ea7b3',
        value: '0',
        eip155: { gas: '50000', gasPrice: '1000000' },
      },
    }),
    '/swap/v1/convert/gas-price': ok({ standard: '1', fast: '2', instant: '3' }),
  }
  const swap = createHttpSwapProvider({ url })
  const chainId = 'eip155:8453'
  expect((await swap.tokens({ chainId, imageQuery: '?projectId=caller' })).tokens[0]!.symbol).toBe(
    'ETH',
  )
  expect(
    (
      await swap.quotes({
        chainId,
        from: account(ETH),
        to: account(USDC),
        user: account(USER),
        amount: 1000n,
        gasPrice: 7n,
      })
    ).quotes[0]!.toAmount,
  ).toBe('3')
  expect(
    (
      await swap.buildTransaction({
        chainId,
        from: account(ETH),
        to: account(USDC),
        user: account(USER),
        amount: 1000n,
        slippage: 1,
        disableEstimate: true,
      })
    ).tx.amount,
  ).toBe('1000')
  expect(await swap.allowance({ chainId, token: account(USDC), user: account(USER) })).toEqual({
    allowance: '5',
  })
  expect(
    (
      await swap.buildApprove({
        chainId,
        from: account(USDC),
        to: undefined,
        user: account(USER),
        amount: undefined,
      })
    ).tx.to,
  ).toBe(USDC)
  expect(await swap.gasPrice({ chainId })).toEqual({ standard: '1', fast: '2', instant: '3' })

  expect(seen).toEqual([
    {
      method: 'GET',
      path: '/swap/v1/convert/tokens',
      query: { chainId, projectId: 'provider-key' },
      body: undefined,
    },
    {
      method: 'GET',
      path: '/swap/v1/convert/quotes',
      query: {
        amount: '1000',
        userAddress: USER,
        from: ETH,
        to: USDC,
        gasPrice: '7',
        projectId: 'provider-key',
      },
      body: undefined,
    },
    {
      method: 'POST',
      path: '/swap/v1/convert/build-transaction',
      query: { projectId: 'provider-key' },
      body: {
        projectId: 'provider-key',
        amount: '1000',
        eip155: { slippage: 1 },
        from: ETH,
        to: USDC,
        userAddress: USER,
        disableEstimate: true,
      },
    },
    {
      method: 'GET',
      path: '/swap/v1/convert/allowance',
      query: { tokenAddress: USDC, userAddress: USER, projectId: 'provider-key' },
      body: undefined,
    },
    {
      method: 'GET',
      path: '/swap/v1/convert/build-approve',
      query: { userAddress: USER, from: USDC, projectId: 'provider-key' },
      body: undefined,
    },
    {
      method: 'GET',
      path: '/swap/v1/convert/gas-price',
      query: { chainId, projectId: 'provider-key' },
      body: undefined,
    },
  ])
})

test('the provider’s 400s are passed on; other failures and odd answers are SWAP_UNAVAILABLE', async () => {
  const swap = createHttpSwapProvider({ url })
  const chainId = 'eip155:8453'
  const gas = () => swap.gasPrice({ chainId })
  const failure = async () => {
    const error = await gas().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SwapError)
    return { code: (error as SwapError).code, message: (error as SwapError).message }
  }
  answers['/swap/v1/convert/gas-price'] = {
    status: 400,
    body: { code: 'INSUFFICIENT_LIQUIDITY', message: 'Insufficient liquidity', details: 'pool' },
  }
  expect(await failure()).toEqual({
    code: 'INSUFFICIENT_LIQUIDITY',
    message: 'swap provider: Insufficient liquidity: pool',
  })
  answers['/swap/v1/convert/gas-price'] = { status: 400, body: { error: 'bad chain' } }
  expect((await failure()).code).toBe('INVALID_REQUEST')
  answers['/swap/v1/convert/gas-price'] = { status: 502, body: {} }
  expect(await failure()).toEqual({
    code: 'SWAP_UNAVAILABLE',
    message: 'swap provider: HTTP status code: 502',
  })
  answers['/swap/v1/convert/gas-price'] = ok({ standard: 1 })
  expect((await failure()).code).toBe('SWAP_UNAVAILABLE')
  const closed = createHttpSwapProvider({ url: `http://127.0.0.1:${await freePort()}` })
  await expect(closed.gasPrice({ chainId })).rejects.toMatchObject({ code: 'SWAP_UNAVAILABLE' })
})

test('PORTHOLE_SWAP_PROVIDER_URL puts the provider behind the API’s /v1/convert routes', async () => {
  vi.stubEnv('PORTHOLE_SWAP_PROVIDER_URL', url)
  answers['/swap/v1/convert/gas-price'] = ok({ standard: '10', fast: '20', instant: '30' })
  const app = await createTestApp({})
  try {
    const response = await app.get('/v1/convert/gas-price?chainId=eip155:8453')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ standard: '10', fast: '20', instant: '30' })
    // The swap list is still the API's: the provider is not asked about other networks.
    const refused = await app.get('/v1/convert/gas-price?chainId=eip155:5')
    expect(refused.status).toBe(400)
    expect(seen).toHaveLength(1)
    answers['/swap/v1/convert/quotes'] = {
      status: 400,
      body: { code: 'UNKNOWN_TOKEN', message: 'Unknown token' },
    }
    const unknown = await app.get(
      `/v1/convert/quotes?amount=1&from=${ETH}&to=${USDC}&userAddress=${USER}`,
    )
    expect(unknown.status).toBe(400)
    expect(await unknown.json()).toEqual({
      code: 'UNKNOWN_TOKEN',
      message: 'Unknown token',
      details: 'swap provider: Unknown token',
    })
  } finally {
    await app.close()
  }
})
