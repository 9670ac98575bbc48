import type { Context, Hono, MiddlewareHandler } from 'hono'
import { z } from 'zod'
import {
  type ChainData,
  ChainUnavailableError,
  type IdentityResolver,
} from '../chaindata/ChainData.js'
import { InvalidCursorError } from '../chaindata/history.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import { parseInput, readJson } from '../http/parseInput.js'
import { parseBitcoinAccount } from './bitcoinAccount.js'
import { chainOf } from './rpc.js'
import { parseSolanaAccount } from './solanaAccount.js'

/**
 * Largest page of history and NFTs; the default page is 50.
 *
 * @example
 * parseInput(PageQuery, { limit: String(MAX_PAGE_SIZE) }).limit // 100
 */
export const MAX_PAGE_SIZE = 100

const EVM_ADDRESS = /^(0x)?[0-9a-fA-F]{40}$/

/** A path address: an EVM address (spec §5: 40 hex, optional 0x), lower-cased with 0x. */
const AddressParam = z
  .string()
  .regex(EVM_ADDRESS, 'not an EVM address (40 hex digits, optional 0x)')
  .transform((value) => `0x${value.replace(/^0x/, '')}`.toLowerCase())

const ChainIdParam = z.string().max(64).optional()
const Cursor = z.string().max(300).optional()
const Limit = z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50)
const Bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1')

/**
 * Query of `GET /v1/account/{address}/balance`.
 *
 * @example
 * parseInput(BalanceQuery, { chainId: 'eip155:1', forceUpdate: 'true' }) // { currency: 'usd', chainId: 'eip155:1', forceUpdate: true }
 */
export const BalanceQuery = z.object({
  currency: z
    .string()
    .max(10)
    .default('usd')
    .transform((value) => value.toLowerCase()),
  chainId: ChainIdParam,
  forceUpdate: Bool,
})

/**
 * Query of `GET /v1/account/{account}/history` and `/nfts`.
 *
 * @example
 * parseInput(PageQuery, {}) // { limit: 50 }
 */
export const PageQuery = z.object({ chainId: ChainIdParam, cursor: Cursor, limit: Limit })

/**
 * Body of `POST /v1/fungible/price`.
 *
 * @example
 * parseInput(FungiblePriceBody, { currency: 'usd', addresses: ['eip155:1:0xA0b8…'] })
 */
export const FungiblePriceBody = z.object({
  projectId: z.string().max(64).optional(),
  currency: z
    .string()
    .max(10)
    .default('usd')
    .transform((value) => value.toLowerCase()),
  addresses: z
    .array(
      z
        .string()
        .max(120)
        .regex(
          /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}:0x[0-9a-fA-F]{40}$/,
          'not a CAIP-10 EVM address',
        ),
    )
    .min(1)
    .max(100),
})

/** Options of {@link chainDataRoutes}. */
export type ChainDataRoutesOptions = {
  chainData: ChainData
  identity: IdentityResolver
  /** Currencies balances and prices may be asked in (lower case). */
  currencies: readonly string[]
}

/**
 * The blockchain data service (spec §7), every route behind `guard` (rate limit, project):
 * - `GET /v1/supported-chains` → `{ http, ws }`;
 * - `GET /v1/identity/{address}?sender` → `{ name, avatar }`;
 * - `GET /v1/account/{address}/balance?currency&chainId&forceUpdate` → `{ balances }` (`address`
 *   an EVM address, or a Bitcoin account `bip122:<ref>:<address>`: its BTC balance, or a Solana
 *   account `solana:<ref>:<address>`: its SOL and SPL tokens; a bare address with the
 *   network's `chainId` too);
 * - `GET /v1/account/{account}/history?cursor&chainId&limit` → `{ data, next }` (`account` an
 *   address or a CAIP-10 id);
 * - `GET /v1/account/{address}/nfts?chainId&cursor&limit` → `{ data, next }`;
 * - `POST /v1/fungible/price` `{ projectId, currency, addresses }` → `{ fungibles }`.
 * Without `chainId` the account routes cover every supported chain. Errors: 400
 * `INVALID_REQUEST` (malformed input), 400 `UNSUPPORTED_CHAIN`, 503 `CHAIN_UNAVAILABLE`.
 *
 * @example
 * chainDataRoutes(app, guard, { chainData, identity: resolveIdentity, currencies: ['usd'] })
 */
export function chainDataRoutes(
  app: Hono<AppEnv>,
  guard: readonly MiddlewareHandler<AppEnv>[],
  { chainData, identity, currencies }: ChainDataRoutesOptions,
): void {
  for (const path of [
    '/v1/supported-chains',
    '/v1/identity/*',
    '/v1/account/*',
    '/v1/fungible/price',
  ])
    app.use(path, ...guard)

  /** The CAIP-2 ids asked for: `chainId` (checked) or every supported chain. */
  const chainsFor = async (chainId: string | undefined, implied?: string): Promise<string[]> => {
    const { http } = await wrap(() => chainData.supportedChains())
    const asked = chainId ?? implied
    if (asked === undefined) return [...http]
    const caip2 = chainOf(asked)
    if (!caip2)
      throw new ApiError('INVALID_REQUEST', {
        details: `chainId: ${asked} is not a chain id (eip155:<n> or <n>)`,
      })
    if (implied !== undefined && chainId !== undefined && chainOf(implied) !== caip2)
      throw new ApiError('INVALID_REQUEST', {
        details: `chainId: ${chainId} differs from the account's chain ${implied}`,
      })
    if (!http.includes(caip2)) throw unsupported(caip2, http)
    return [caip2]
  }
  const checkCurrency = (currency: string) => {
    if (!currencies.includes(currency))
      throw new ApiError('INVALID_REQUEST', {
        details: `currency: ${currency} is not supported (${currencies.join(', ')})`,
      })
  }

  app.get('/v1/supported-chains', async (c) =>
    c.json(await wrap(() => chainData.supportedChains())),
  )

  app.get('/v1/identity/:address', async (c) => {
    const address = parseInput(AddressParam, c.req.param('address'))
    parseInput(z.object({ sender: AddressParam.optional() }), { sender: c.req.query('sender') })
    return c.json(await identity(address))
  })

  app.get('/v1/account/:address/balance', async (c) => {
    const query = parseInput(BalanceQuery, c.req.query())
    // A Bitcoin account (`bip122:<ref>:<address>`, or an address with a bip122 `chainId`), else EVM.
    const bitcoin = parseBitcoinAccount(c.req.param('address'), query.chainId)
    // A Solana account (`solana:<ref>:<address>`, or an address with a solana `chainId`).
    const solana = bitcoin ? undefined : parseSolanaAccount(c.req.param('address'), query.chainId)
    const address = bitcoin?.address ?? solana?.address ?? parseAddress(c.req.param('address'))
    checkCurrency(query.currency)
    const namespace = bitcoin ? 'bip122' : solana ? 'solana' : 'eip155'
    const implied = bitcoin?.chainId ?? solana?.chainId
    const chainIds = (await chainsFor(query.chainId, implied)).filter((id) =>
      id.startsWith(`${namespace}:`),
    )
    if (query.chainId && chainIds.length === 0)
      throw new ApiError('INVALID_REQUEST', {
        details: `chainId: ${query.chainId} is not a chain of a ${namespace} account`,
      })
    return c.json(
      await wrap(() =>
        chainData.balances({
          address,
          chainIds,
          currency: query.currency,
          forceUpdate: query.forceUpdate,
          imageQuery: imageQuery(c),
        }),
      ),
    )
  })

  app.get('/v1/account/:account/history', async (c) => {
    const { address, chainId } = parseAccount(c.req.param('account'))
    const query = parseInput(PageQuery, c.req.query())
    const chainIds = await chainsFor(query.chainId, chainId)
    return c.json(
      await wrap(() =>
        chainData.history({
          address,
          chainIds,
          cursor: query.cursor || undefined,
          limit: query.limit,
          imageQuery: imageQuery(c),
        }),
      ),
    )
  })

  app.get('/v1/account/:address/nfts', async (c) => {
    const { address, chainId } = parseAccount(c.req.param('address'))
    const query = parseInput(PageQuery, c.req.query())
    const chainIds = await chainsFor(query.chainId, chainId)
    return c.json(
      await wrap(() =>
        chainData.nfts({
          address,
          chainIds,
          cursor: query.cursor || undefined,
          limit: query.limit,
          imageQuery: imageQuery(c),
        }),
      ),
    )
  })

  app.post('/v1/fungible/price', async (c) => {
    const body = parseInput(FungiblePriceBody, await readJson(c.req.raw))
    checkCurrency(body.currency)
    const { http } = await wrap(() => chainData.supportedChains())
    for (const id of body.addresses) {
      const chain = id.split(':').slice(0, 2).join(':')
      if (!http.includes(chain)) throw unsupported(chain, http)
    }
    return c.json(
      await wrap(() =>
        chainData.fungiblePrices({
          currency: body.currency,
          addresses: body.addresses,
          imageQuery: imageQuery(c),
        }),
      ),
    )
  })
}

/** `?projectId&st&sv` of the caller, for image URLs on this API. */
function imageQuery(c: Context<AppEnv>): string {
  const params = new URLSearchParams({ projectId: c.var.project.id })
  if (c.var.sdk.type) params.set('st', c.var.sdk.type)
  if (c.var.sdk.version) params.set('sv', c.var.sdk.version)
  return `?${params}`
}

function parseAddress(value: string): string {
  const parsed = AddressParam.safeParse(value)
  if (!parsed.success)
    throw new ApiError('INVALID_REQUEST', {
      details: `address: ${value.slice(0, 100)} is not an EVM address (40 hex digits, optional 0x)`,
    })
  return parsed.data
}

/** An address or a CAIP-10 id (`eip155:1:0x…`): the address and the chain it names. */
function parseAccount(value: string): { address: string; chainId: string | undefined } {
  const parts = value.split(':')
  if (parts.length === 1) return { address: parseAddress(value), chainId: undefined }
  const [namespace, reference, address] = parts
  if (parts.length !== 3 || !namespace || !reference || !address)
    throw new ApiError('INVALID_REQUEST', {
      details: `account: Invalid CAIP-10 address: ${value.slice(0, 120)}`,
    })
  if (namespace !== 'eip155')
    throw new ApiError('UNSUPPORTED_CHAIN', {
      details: `${namespace}:${reference.slice(0, 64)} is not supported (EVM chains only)`,
    })
  return { address: parseAddress(address), chainId: `${namespace}:${reference}` }
}

function unsupported(chain: string, supported: readonly string[]): ApiError {
  return new ApiError('UNSUPPORTED_CHAIN', {
    details: `${chain} is not supported (supported: ${supported.join(', ') || 'none'})`,
  })
}

/** Maps data-service failures to API errors. */
async function wrap<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    if (error instanceof InvalidCursorError)
      throw new ApiError('INVALID_REQUEST', { details: error.message })
    if (error instanceof ChainUnavailableError)
      throw new ApiError('CHAIN_UNAVAILABLE', { details: error.message, cause: error })
    throw error
  }
}
