/**
 * The name registry's endpoints (spec §7 `/v1/profile/*`) as typed calls on the API client
 * bound at handshake. Answers are parsed with the shared schemas (an answer that does not parse
 * throws `BlockchainApiResponseError`); a non-OK status throws the HTTP helper's `HttpError`,
 * whose `body.reasons[0].description` says why (see {@link nameApiReason}).
 */
import {
  HttpError,
  NameAccount,
  NameSuggestionsResponse,
  nameErrorReason,
  type RegisterNameRequest,
  RegisterNameResponse,
  ReverseNamesResponse,
} from '@porthole/shared'
import { BlockchainApiResponseError } from './blockchain.js'
import { getApiClient } from './client.js'

function parse<value>(
  schema: { safeParse(value: unknown): { success: true; data: value } | { success: false } },
  endpoint: string,
  body: unknown,
): value {
  const result = schema.safeParse(body)
  if (result.success) return result.data
  throw new BlockchainApiResponseError(endpoint, 'not the registry answer')
}

const segment = (value: string) => encodeURIComponent(value)

/**
 * `GET /v1/profile/account/{name}?apiVersion=2`: the name's addresses by coin type, or null when
 * no account has it (404).
 *
 * @example
 * const account = await getNameAccount('alice.porthole.id')
 */
export async function getNameAccount(name: string): Promise<NameAccount | null> {
  const path = `/v1/profile/account/${segment(name)}`
  try {
    return parse(NameAccount, `GET ${path}`, await getApiClient().get(path, { apiVersion: 2 }))
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return null
    throw error
  }
}

/**
 * `GET /v1/profile/reverse/{address}?apiVersion=2`: the account's names, its primary one first.
 *
 * @example
 * const [primary] = await getAccountNames('0xf39F…')
 */
export async function getAccountNames(address: string): Promise<ReverseNamesResponse> {
  const path = `/v1/profile/reverse/${segment(address)}`
  return parse(
    ReverseNamesResponse,
    `GET ${path}`,
    await getApiClient().get(path, { apiVersion: 2 }),
  )
}

/**
 * `GET /v1/profile/suggestions/{name}`: the name asked for (with the registry's suffix) and
 * whether it is taken, then free alternatives.
 *
 * @example
 * const { suggestions } = await getNameSuggestions('alice')
 * suggestions[0] // { name: 'alice.porthole.id', registered: false }
 */
export async function getNameSuggestions(name: string): Promise<NameSuggestionsResponse> {
  const path = `/v1/profile/suggestions/${segment(name)}`
  return parse(NameSuggestionsResponse, `GET ${path}`, await getApiClient().get(path))
}

/**
 * `POST /v1/profile/account` `{ coin_type, address, message, signature }`.
 *
 * @example
 * const { account } = await postNameRegistration({ coin_type, address, message, signature })
 */
export async function postNameRegistration(
  body: RegisterNameRequest,
): Promise<RegisterNameResponse> {
  const path = '/v1/profile/account'
  return parse(RegisterNameResponse, `POST ${path}`, await getApiClient().post(path, body))
}

/**
 * The registry's reason for refusing a call (its first reason's description), or undefined.
 *
 * @example
 * nameApiReason(error) ?? `Error registering name ${name}`
 */
export function nameApiReason(error: unknown): string | undefined {
  return error instanceof HttpError ? nameErrorReason(error.body) : undefined
}
