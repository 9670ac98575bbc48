import type { Context, Hono, MiddlewareHandler } from 'hono'
import { maxUint256 } from 'viem'
import { z } from 'zod'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import { limitBody } from '../http/limitBody.js'
import { parseInput, readJson } from '../http/parseInput.js'
import { resolveRemoteFeatures } from '../projects/features.js'
import { type SwapAccount, SwapError, type SwapProvider } from './SwapProvider.js'

/**
 * The spec's swap slippage tolerance in percent (§9), used when a build request names none.
 *
 * @example
 * await post('/v1/convert/build-transaction', { …, eip155: { slippage: SWAP_SLIPPAGE } })
 */
export const SWAP_SLIPPAGE = 1

/**
 * The largest slippage a build request may ask for, in percent.
 *
 * @example
 * parseInput(BuildTransactionBody, { …, eip155: { slippage: MAX_SLIPPAGE + 1 } }) // throws 400
 */
export const MAX_SLIPPAGE = 50

const Id = z.string().max(200)
const OptionalId = Id.optional()
const Amount = z.string().max(100)

/**
 * Query of `GET /v1/convert/tokens` and `/v1/convert/gas-price`.
 *
 * @example
 * parseInput(ChainQuery, { chainId: 'eip155:31337' })
 */
export const ChainQuery = z.object({ chainId: z.string().max(64) })

/**
 * Query of `GET /v1/convert/quotes` (amount in base units; ids CAIP-10; gasPrice in wei).
 *
 * @example
 * parseInput(QuotesQuery, { amount: '1000000', from, to, userAddress })
 */
export const QuotesQuery = z.object({
  amount: Amount,
  userAddress: Id,
  from: Id,
  to: Id,
  gasPrice: z
    .string()
    .regex(/^\d{1,30}$/, 'a whole number of wei')
    .optional(),
})

/**
 * Body of `POST /v1/convert/build-transaction`; `eip155.slippage` is a percentage
 * (0 < slippage ≤ 50, default the spec's 1).
 *
 * @example
 * parseInput(BuildTransactionBody, { amount: '1', from, to, userAddress, eip155: { slippage: 1 } })
 */
export const BuildTransactionBody = z.object({
  projectId: z.string().max(64).optional(),
  amount: Amount,
  eip155: z
    .object({
      slippage: z
        .union([
          z.number(),
          z
            .string()
            .regex(/^\d{1,3}(\.\d{1,4})?$/)
            .transform(Number),
        ])
        .refine(
          (value) => value > 0 && value <= MAX_SLIPPAGE,
          `a percentage above 0 and at most ${MAX_SLIPPAGE}`,
        ),
    })
    .default({ slippage: SWAP_SLIPPAGE }),
  from: Id,
  to: Id,
  userAddress: Id,
  disableEstimate: z.boolean().default(false),
})

/**
 * Query of `GET /v1/convert/allowance`.
 *
 * @example
 * parseInput(AllowanceQuery, { tokenAddress, userAddress })
 */
export const AllowanceQuery = z.object({ tokenAddress: Id, userAddress: Id })

/**
 * Query of `GET /v1/convert/build-approve` (`amount` left out: unlimited).
 *
 * @example
 * parseInput(BuildApproveQuery, { userAddress, from, to })
 */
export const BuildApproveQuery = z.object({
  userAddress: Id,
  from: Id,
  to: OptionalId,
  amount: Amount.optional(),
})

/** Options of {@link convertRoutes}. */
export type ConvertRoutesOptions = {
  provider: SwapProvider
  /** The swap networks (CAIP-2); others get 'Network not supported for Swaps'. */
  networks: readonly string[]
}

const CAIP10 = /^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,32}):([-.%a-zA-Z0-9]{1,128})$/
const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * The swap endpoints (spec §7), every route behind `guard` (rate limit, project):
 * - `GET /v1/convert/tokens?chainId` → `{ tokens: [{ name, symbol, address, decimals, logoUri }] }`;
 * - `GET /v1/convert/quotes?amount&userAddress&from&to&gasPrice` → `{ quotes: [{ fromAmount,
 *   fromAccount, toAmount, toAccount, priceImpact, fee, gas, gasPrice, networkFeeUsd, route }] }`;
 * - `POST /v1/convert/build-transaction` `{ projectId, amount, eip155: { slippage }, from, to,
 *   userAddress, disableEstimate }` → `{ tx: { from, to, data, amount, eip155: { gas, gasPrice } } }`;
 * - `GET /v1/convert/allowance?tokenAddress&userAddress` → `{ allowance }`;
 * - `GET /v1/convert/build-approve?userAddress&from&to&amount` → `{ tx: { from, to, data, value,
 *   eip155: { gas, gasPrice } } }`;
 * - `GET /v1/convert/gas-price?chainId` → `{ standard, fast, instant }`.
 * Ids are CAIP-10 (`eip155:<id>:0x…`, the native token `…:0xeeee…eeee`), amounts base units.
 * Errors (400 unless said): `INVALID_REQUEST` (malformed input), `SWAP_NETWORK_NOT_SUPPORTED`
 * ('Network not supported for Swaps'), `GAS_PRICE_NETWORK_NOT_SUPPORTED` ('Network not supported
 * for Gas Price'), `NETWORK_MISMATCH`, `INVALID_AMOUNT`, `UNKNOWN_TOKEN`, `INSUFFICIENT_LIQUIDITY`,
 * `SWAP_WOULD_FAIL`, 503 `SWAP_NOT_CONFIGURED` and `SWAP_UNAVAILABLE`.
 *
 * @example
 * convertRoutes(app, guard, { provider: createLocalSwapProvider(…), networks: config.networks })
 */
export function convertRoutes(
  app: Hono<AppEnv>,
  guard: readonly MiddlewareHandler<AppEnv>[],
  { provider, networks }: ConvertRoutesOptions,
): void {
  // The project's remote features decide, as for the on-ramp: the modal hides Swap when they
  // turn it off, and the API refuses the calls too (403 SWAPS_DISABLED).
  const enabled: MiddlewareHandler<AppEnv> = async (c, next) => {
    const swaps = resolveRemoteFeatures(c.var.project.features).swaps
    if (swaps === false || !swaps.length) throw new ApiError('SWAPS_DISABLED')
    await next()
  }
  app.use('/v1/convert/*', ...guard, enabled)
  const supported = new Set(networks)

  /** A CAIP-2 `chainId` on the swap list, or the given error. */
  const chainOf = (
    value: string,
    unsupported: 'SWAP_NETWORK_NOT_SUPPORTED' | 'GAS_PRICE_NETWORK_NOT_SUPPORTED',
  ) => {
    if (!CAIP2.test(value))
      throw new ApiError('INVALID_REQUEST', {
        details: `chainId: ${value.slice(0, 80)} is not a CAIP-2 id (eip155:<chain id>)`,
      })
    if (!supported.has(value))
      throw new ApiError(unsupported, { details: `${value} is not a swap network` })
    return value
  }

  /** Parses CAIP-10 ids (`field` names them in errors); all must be on one swap network. */
  const accountsOf = <Field extends string>(fields: Record<Field, string>) => {
    const parsed = {} as Record<Field, SwapAccount>
    const entries = Object.entries(fields) as [Field, string][]
    for (const [field, value] of entries) {
      const match = CAIP10.exec(value)
      if (!match)
        throw new ApiError('INVALID_REQUEST', {
          details: `${field}: ${value.slice(0, 80)} is not a CAIP-10 id (eip155:<chain id>:0x<40 hex digits>)`,
        })
      parsed[field] = { chainId: `${match[1]}:${match[2]}`, address: match[3]! }
    }
    for (const [field] of entries) {
      const { chainId, address } = parsed[field]
      if (!chainId.startsWith('eip155:') || !supported.has(chainId))
        throw new ApiError('SWAP_NETWORK_NOT_SUPPORTED', {
          details: `${field}: ${chainId} is not a swap network`,
        })
      if (!EVM_ADDRESS.test(address))
        throw new ApiError('INVALID_REQUEST', {
          details: `${field}: ${address.slice(0, 80)} is not an EVM address (0x and 40 hex digits)`,
        })
    }
    const [first, ...rest] = entries.map(([field]) => [field, parsed[field].chainId] as const)
    for (const [field, chainId] of rest)
      if (first && chainId !== first[1])
        throw new ApiError('NETWORK_MISMATCH', {
          details: `${first[0]} is on ${first[1]}, ${field} on ${chainId}`,
        })
    return { chainId: first?.[1] ?? '', accounts: parsed }
  }

  const amountOf = (value: string, { zero = false } = {}) => {
    if (!/^\d+$/.test(value))
      throw new ApiError('INVALID_AMOUNT', {
        details: `amount: ${value.slice(0, 80) || '(empty)'} is not a whole number of base units`,
      })
    const amount = BigInt(value)
    if (amount === 0n && !zero)
      throw new ApiError('INVALID_AMOUNT', { details: 'amount: must be more than 0' })
    if (amount > maxUint256)
      throw new ApiError('INVALID_AMOUNT', { details: 'amount: more than a uint256 holds' })
    return amount
  }

  const distinct = (from: SwapAccount, to: SwapAccount) => {
    if (from.address.toLowerCase() === to.address.toLowerCase())
      throw new ApiError('INVALID_REQUEST', { details: 'from and to are the same token' })
  }

  app.get('/v1/convert/tokens', async (c) => {
    const { chainId } = parseInput(ChainQuery, c.req.query())
    return c.json(
      await wrap(() =>
        provider.tokens({
          chainId: chainOf(chainId, 'SWAP_NETWORK_NOT_SUPPORTED'),
          imageQuery: imageQuery(c),
        }),
      ),
    )
  })

  app.get('/v1/convert/quotes', async (c) => {
    const query = parseInput(QuotesQuery, c.req.query())
    const { chainId, accounts } = accountsOf({
      from: query.from,
      to: query.to,
      userAddress: query.userAddress,
    })
    distinct(accounts.from, accounts.to)
    const amount = amountOf(query.amount)
    return c.json(
      await wrap(() =>
        provider.quotes({
          chainId,
          from: accounts.from,
          to: accounts.to,
          user: accounts.userAddress,
          amount,
          gasPrice: query.gasPrice === undefined ? undefined : BigInt(query.gasPrice),
        }),
      ),
    )
  })

  app.post('/v1/convert/build-transaction', limitBody(4096), async (c) => {
    const body = parseInput(BuildTransactionBody, await readJson(c.req.raw))
    const { chainId, accounts } = accountsOf({
      from: body.from,
      to: body.to,
      userAddress: body.userAddress,
    })
    distinct(accounts.from, accounts.to)
    const amount = amountOf(body.amount)
    return c.json(
      await wrap(() =>
        provider.buildTransaction({
          chainId,
          from: accounts.from,
          to: accounts.to,
          user: accounts.userAddress,
          amount,
          slippage: body.eip155.slippage,
          disableEstimate: body.disableEstimate,
        }),
      ),
    )
  })

  app.get('/v1/convert/allowance', async (c) => {
    const query = parseInput(AllowanceQuery, c.req.query())
    const { chainId, accounts } = accountsOf({
      tokenAddress: query.tokenAddress,
      userAddress: query.userAddress,
    })
    return c.json(
      await wrap(() =>
        provider.allowance({ chainId, token: accounts.tokenAddress, user: accounts.userAddress }),
      ),
    )
  })

  app.get('/v1/convert/build-approve', async (c) => {
    const query = parseInput(BuildApproveQuery, c.req.query())
    // Without `to`, `from` stands in for it (it passes the same checks).
    const { chainId, accounts } = accountsOf({
      from: query.from,
      userAddress: query.userAddress,
      to: query.to ?? query.from,
    })
    const amount = query.amount === undefined ? undefined : amountOf(query.amount, { zero: true })
    return c.json(
      await wrap(() =>
        provider.buildApprove({
          chainId,
          from: accounts.from,
          to: query.to === undefined ? undefined : accounts.to,
          user: accounts.userAddress,
          amount,
        }),
      ),
    )
  })

  app.get('/v1/convert/gas-price', async (c) => {
    const { chainId } = parseInput(ChainQuery, c.req.query())
    return c.json(
      await wrap(() =>
        provider.gasPrice({ chainId: chainOf(chainId, 'GAS_PRICE_NETWORK_NOT_SUPPORTED') }),
      ),
    )
  })
}

/** Runs a provider call; its `SwapError`s become the API errors of their codes. */
async function wrap<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (error instanceof SwapError)
      throw new ApiError(error.code, { details: error.message, cause: error })
    throw error
  }
}

function imageQuery(c: Context<AppEnv>): string {
  const params = new URLSearchParams({ projectId: c.var.project.id })
  if (c.var.sdk.type) params.set('st', c.var.sdk.type)
  if (c.var.sdk.version) params.set('sv', c.var.sdk.version)
  return `?${params}`
}
