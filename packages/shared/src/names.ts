/**
 * Names (spec §5 "Name validation", §7 `/v1/profile/*`): the name rule, ENSIP-11 coin types,
 * the registration message, and the registry's answers as zod schemas shared by the API (which
 * answers in these shapes) and the modal (which parses what it receives).
 *
 * A name is a label (letters, digits and hyphens, at least 4 characters) followed by the
 * registry's suffix, `.porthole.id` unless the API is configured otherwise.
 */
import { BaseError } from '@porthole/protocol'
import * as z from 'zod/mini'

/** The suffix every name carries unless the API is configured with another. */
export const DEFAULT_NAME_SUFFIX = '.porthole.id'

/**
 * The name rule's bounds. The spec sets the minimum; the maximum is the longest DNS label,
 * since a name is a label under the suffix's domain.
 */
export const NAME_LENGTH = { min: 4, max: 63 } as const

/** How old a registration message may be (seconds): older ones are refused. */
export const NAME_MESSAGE_MAX_AGE_S = 600

/** Why a label breaks the name rule. */
export type NameProblem = 'tooShort' | 'tooLong' | 'invalidCharacters'

/**
 * What is wrong with a label (the part before the suffix), or null when it follows the rule:
 * letters, digits and hyphens only, at least 4 characters (spec §5), at most 63.
 *
 * @example
 * nameProblem('alice') // null
 * nameProblem('bob') // 'tooShort'
 * nameProblem('al_ice') // 'invalidCharacters'
 */
export function nameProblem(label: string): NameProblem | null {
  if (!/^[a-zA-Z0-9-]*$/.test(label)) return 'invalidCharacters'
  if (label.length < NAME_LENGTH.min) return 'tooShort'
  if (label.length > NAME_LENGTH.max) return 'tooLong'
  return null
}

/**
 * Whether a label follows the name rule.
 *
 * @example
 * isValidName('alice-1') // true
 */
export function isValidName(label: string): boolean {
  return nameProblem(label) === null
}

/**
 * The label of a full name under `suffix` (lower-cased), or null when the name does not end
 * with it or the rest is empty.
 *
 * @example
 * nameLabel('Alice.porthole.id', '.porthole.id') // 'alice'
 * nameLabel('alice.eth', '.porthole.id') // null
 */
export function nameLabel(name: string, suffix: string): string | null {
  const lower = name.toLowerCase()
  const tail = suffix.toLowerCase()
  if (!lower.endsWith(tail) || lower.length === tail.length) return null
  return lower.slice(0, -tail.length)
}

/** The coin type ENSIP-11 gives Ethereum mainnet (SLIP-44's 60). */
export const ETH_COIN_TYPE = 60

/** ENSIP-11's coin type of chain id 0: an address valid on every EVM chain (ENSIP-19 default). */
export const DEFAULT_EVM_COIN_TYPE = 0x80000000

/**
 * The ENSIP-11 coin type of an EVM chain: `(0x80000000 | chainId) >>> 0`. The chain id must be
 * below 2^31 ('Invalid chainId', spec §5).
 *
 * @example
 * evmCoinType(31337) // 2147514985
 */
export function evmCoinType(chainId: number): number {
  if (!Number.isInteger(chainId) || chainId < 0 || chainId >= 0x80000000)
    throw new BaseError('Invalid chainId', { details: String(chainId) })
  return (0x80000000 | chainId) >>> 0
}

/**
 * The EVM chain id of a coin type (ENSIP-11; 60 is mainnet), or null for a coin type that is
 * not an EVM chain's.
 *
 * @example
 * coinTypeChainId(2147514985) // 31337
 * coinTypeChainId(501) // null (Solana)
 */
export function coinTypeChainId(coinType: number): number | null {
  if (coinType === ETH_COIN_TYPE) return 1
  if (!Number.isInteger(coinType) || coinType < 0x80000000 || coinType > 0xffffffff) return null
  return coinType - 0x80000000
}

/** The registration message (spec §7): the name, empty attributes, a timestamp in seconds. */
export const NameMessage = z.strictObject({
  name: z.string(),
  attributes: z.strictObject({}),
  timestamp: z.number().check(z.int(), z.nonnegative()),
})
export type NameMessage = z.infer<typeof NameMessage>

/**
 * The text an account signs to register `name` (with its suffix).
 *
 * @example
 * nameMessage({ name: 'alice.porthole.id', timestamp: 1764000000 })
 * // '{"name":"alice.porthole.id","attributes":{},"timestamp":1764000000}'
 */
export function nameMessage(parameters: { name: string; timestamp: number }): string {
  return JSON.stringify({ name: parameters.name, attributes: {}, timestamp: parameters.timestamp })
}

/** `POST /v1/profile/account`: an account registers a name. */
export const RegisterNameRequest = z.object({
  /** ENSIP-11 coin type of the chain the account signed on. */
  coin_type: z.number().check(z.int(), z.nonnegative()),
  address: z.string(),
  /** {@link nameMessage}'s text, exactly as signed. */
  message: z.string(),
  /** EIP-191 signature of `message` by `address`. */
  signature: z.string(),
})
export type RegisterNameRequest = z.infer<typeof RegisterNameRequest>

/** A registered name: its addresses by coin type, its attributes, when it was made (seconds). */
export const NameAccount = z.object({
  name: z.string(),
  registered: z.number(),
  updated: z.number(),
  /** By coin type (decimal string): the address and when it was bound (ISO 8601). */
  addresses: z.record(z.string(), z.object({ address: z.string(), created: z.string() })),
  attributes: z.record(z.string(), z.string()),
})
export type NameAccount = z.infer<typeof NameAccount>

/** `POST /v1/profile/account`'s answer. */
export const RegisterNameResponse = z.object({ success: z.boolean(), account: NameAccount })
export type RegisterNameResponse = z.infer<typeof RegisterNameResponse>

/** `GET /v1/profile/reverse/{address}`: the account's names, its primary name first. */
export const ReverseNamesResponse = z.array(NameAccount)
export type ReverseNamesResponse = z.infer<typeof ReverseNamesResponse>

/** `GET /v1/profile/suggestions/{name}`: the name asked for first, then free alternatives. */
export const NameSuggestionsResponse = z.object({
  suggestions: z.array(z.object({ name: z.string(), registered: z.boolean() })),
})
export type NameSuggestionsResponse = z.infer<typeof NameSuggestionsResponse>

/**
 * The error body of the name endpoints: the API's `{ code, message }` plus `reasons`, whose
 * first `description` clients show (spec §8: the server's first reason is preferred).
 */
export const NameErrorBody = z.object({
  code: z.string(),
  message: z.string(),
  reasons: z.optional(z.array(z.object({ name: z.string(), description: z.string() }))),
})
export type NameErrorBody = z.infer<typeof NameErrorBody>

/**
 * The first reason's description of a name endpoint's error body, or undefined.
 *
 * @example
 * nameErrorReason({ code: 'NAME_TAKEN', message: '…', reasons: [{ name: 'taken', description: 'Name is already taken' }] })
 * // 'Name is already taken'
 */
export function nameErrorReason(body: unknown): string | undefined {
  const parsed = NameErrorBody.safeParse(body)
  return parsed.success ? parsed.data.reasons?.[0]?.description : undefined
}

/**
 * The address a name gives on an EVM chain: the one bound to the chain's coin type, else to
 * the default EVM coin type (an address valid on every EVM chain), else null.
 *
 * @example
 * nameAddress(account, 31337) // '0x…' or null
 */
export function nameAddress(
  account: Pick<NameAccount, 'addresses'>,
  chainId: number,
): string | null {
  const own = account.addresses[String(evmCoinType(chainId))]
  const mainnet = chainId === 1 ? account.addresses[String(ETH_COIN_TYPE)] : undefined
  const fallback = account.addresses[String(DEFAULT_EVM_COIN_TYPE)]
  return own?.address ?? mainnet?.address ?? fallback?.address ?? null
}
