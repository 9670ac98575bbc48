/**
 * The blockchain data service's endpoints (spec §7 "Blockchain data service") as typed calls on
 * the API client bound at handshake (project id, sdk type and version ride on every call).
 * Each answer is parsed with the shared zod schema: an answer that does not parse throws
 * {@link BlockchainApiResponseError}; a non-OK status throws the HTTP helper's
 * 'HTTP status code: {status}' (`HttpError`).
 */
import { BaseError } from '@porthole/protocol'
import {
  BalanceResponse,
  FungiblePriceResponse,
  HistoryResponse,
  IdentityResponse,
  NftsResponse,
  SupportedChainsResponse,
} from '@porthole/shared'
import { getApiClient } from './client.js'

/**
 * An answer that does not have the shape of its endpoint; `details` names the first problem.
 *
 * @example
 * error.shortMessage // 'Unexpected response from GET /v1/supported-chains'
 */
export class BlockchainApiResponseError extends BaseError {
  override name = 'BlockchainApiResponseError' as const
  constructor(endpoint: string, details: string) {
    super(`Unexpected response from ${endpoint}`, { details })
  }
}

/** Errors of the calls here (besides the HTTP helper's `HttpError`). */
export type BlockchainApiErrorType = BlockchainApiResponseError

/** What this module needs of a zod schema. */
type Schema<value> = {
  safeParse: (
    value: unknown,
  ) =>
    | { success: true; data: value }
    | { success: false; error: { issues: readonly { path: PropertyKey[]; message: string }[] } }
}

/**
 * Parses an answer with its endpoint's schema; throws {@link BlockchainApiResponseError}.
 *
 * @example
 * const answer = parse(ConvertTokensResponse, "GET /v1/convert/tokens", body)
 */
export function parse<value>(schema: Schema<value>, endpoint: string, body: unknown): value {
  const result = schema.safeParse(body)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const where = issue?.path.length ? issue.path.map(String).join('.') : 'body'
  throw new BlockchainApiResponseError(endpoint, `${where}: ${issue?.message ?? 'invalid'}`)
}

const segment = (value: string) => encodeURIComponent(value)

/** The networks the service answers for. */
export type GetSupportedChainsReturnType = SupportedChainsResponse

/**
 * `GET /v1/supported-chains`.
 *
 * @example
 * const { http } = await getSupportedChains() // ['eip155:1', 'eip155:31337']
 */
export async function getSupportedChains(): Promise<GetSupportedChainsReturnType> {
  const path = '/v1/supported-chains'
  return parse(SupportedChainsResponse, `GET ${path}`, await getApiClient().get(path))
}

/** Options of {@link getIdentity}. */
export type GetIdentityParameters = {
  /** The connected account asking (spec §7 "sender"). */
  sender?: string | undefined
}

/** An account's name and avatar. */
export type GetIdentityReturnType = IdentityResponse

/**
 * `GET /v1/identity/{address}?sender=…`.
 *
 * @example
 * const { name, avatar } = await getIdentity('0xf39F…', { sender: '0xf39F…' })
 */
export async function getIdentity(
  address: string,
  parameters: GetIdentityParameters = {},
): Promise<GetIdentityReturnType> {
  const path = `/v1/identity/${segment(address)}`
  const body = await getApiClient().get(path, { sender: parameters.sender })
  return parse(IdentityResponse, `GET ${path}`, body)
}

/** Options of {@link getBalances}. */
export type GetBalancesParameters = {
  /** The network (CAIP-2). */
  chainId: string
  /** Skip the service's cache (e.g. right after a send). */
  forceUpdate?: boolean | undefined
}

/** The account's balances in USD. */
export type GetBalancesReturnType = BalanceResponse

/**
 * `GET /v1/account/{address}/balance?currency=usd&chainId=…&forceUpdate=…`.
 *
 * @example
 * const { balances } = await getBalances('0xf39F…', { chainId: 'eip155:31337' })
 */
export async function getBalances(
  address: string,
  parameters: GetBalancesParameters,
): Promise<GetBalancesReturnType> {
  const path = `/v1/account/${segment(address)}/balance`
  const body = await getApiClient().get(path, {
    currency: 'usd',
    chainId: parameters.chainId,
    forceUpdate: parameters.forceUpdate ? true : undefined,
  })
  return parse(BalanceResponse, `GET ${path}`, body)
}

/** Options of {@link getHistory}. */
export type GetHistoryParameters = {
  /** The `next` of the previous page. */
  cursor?: string | null | undefined
  /** The network (CAIP-2). */
  chainId?: string | undefined
}

/** One page of history, newest first, and the next cursor. */
export type GetHistoryReturnType = HistoryResponse

/**
 * `GET /v1/account/{account}/history?cursor=…&chainId=…`.
 *
 * @example
 * const { data, next } = await getHistory('0xf39F…', { chainId: 'eip155:31337' })
 */
export async function getHistory(
  account: string,
  parameters: GetHistoryParameters = {},
): Promise<GetHistoryReturnType> {
  const path = `/v1/account/${segment(account)}/history`
  const body = await getApiClient().get(path, {
    cursor: parameters.cursor ?? undefined,
    chainId: parameters.chainId,
  })
  return parse(HistoryResponse, `GET ${path}`, body)
}

/** Options of {@link getNfts}. */
export type GetNftsParameters = {
  chainId?: string | undefined
  cursor?: string | null | undefined
}

/** One page of NFTs (spam flagged) and the next cursor. */
export type GetNftsReturnType = NftsResponse

/**
 * `GET /v1/account/{address}/nfts?chainId=…&cursor=…` (Porthole's endpoint for the NFTs tab).
 *
 * @example
 * const { data } = await getNfts('0xf39F…', { chainId: 'eip155:31337' })
 */
export async function getNfts(
  address: string,
  parameters: GetNftsParameters = {},
): Promise<GetNftsReturnType> {
  const path = `/v1/account/${segment(address)}/nfts`
  const body = await getApiClient().get(path, {
    chainId: parameters.chainId,
    cursor: parameters.cursor ?? undefined,
  })
  return parse(NftsResponse, `GET ${path}`, body)
}

/** Prices of the tokens asked for. */
export type GetPricesReturnType = FungiblePriceResponse

/**
 * `POST /v1/fungible/price` with `{ projectId, currency: 'usd', addresses }` (CAIP-10
 * addresses); the project id is the one the client was bound to.
 *
 * @example
 * const { fungibles } = await getPrices(['eip155:31337:0x5FbD…'])
 */
export async function getPrices(addresses: readonly string[]): Promise<GetPricesReturnType> {
  const http = getApiClient()
  const path = '/v1/fungible/price'
  const projectId = new URL(http.url('/')).searchParams.get('projectId') ?? ''
  const body = await http.post(path, { projectId, currency: 'usd', addresses })
  return parse(FungiblePriceResponse, `POST ${path}`, body)
}
