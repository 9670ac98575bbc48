/**
 * The blockchain data service's responses (spec §7 "Blockchain data service"): one zod schema
 * per endpoint, shared by the API (which must answer in these shapes) and the modal (which
 * parses what it receives). The shapes follow the public blockchain API the spec describes, so
 * a client written for it reads ours unchanged. Amounts are decimal strings; CAIP ids throughout.
 */
import * as z from 'zod/mini'

/** `GET /v1/supported-chains`: the CAIP-2 networks the service answers for. */
export const SupportedChainsResponse = z.object({
  http: z.array(z.string()),
  ws: z.array(z.string()),
})
export type SupportedChainsResponse = z.infer<typeof SupportedChainsResponse>

/** `GET /v1/identity/{address}`: the account's name and avatar, null when it has none. */
export const IdentityResponse = z.object({
  name: z.nullable(z.string()),
  avatar: z.nullable(z.string()),
})
export type IdentityResponse = z.infer<typeof IdentityResponse>

/** An amount: `numeric` is the human decimal string ('1.5'), `decimals` the token's decimals ('18'). */
export const Quantity = z.object({ decimals: z.string(), numeric: z.string() })
export type Quantity = z.infer<typeof Quantity>

/**
 * One balance line of `GET /v1/account/{address}/balance`. `chainId` is CAIP-2; `address` is the
 * token's CAIP-10 address and is absent for the native token; `value` = numeric × price in the
 * requested currency.
 */
export const BalanceEntry = z.object({
  name: z.string(),
  symbol: z.string(),
  chainId: z.string(),
  address: z.optional(z.string()),
  value: z.optional(z.number()),
  price: z.number(),
  quantity: Quantity,
  iconUrl: z.string(),
})
export type BalanceEntry = z.infer<typeof BalanceEntry>

/** `GET /v1/account/{address}/balance?currency=usd&chainId=…&forceUpdate=…`. */
export const BalanceResponse = z.object({ balances: z.array(BalanceEntry) })
export type BalanceResponse = z.infer<typeof BalanceResponse>

/** An image of an NFT in a transfer. */
export const TransactionImage = z.object({
  url: z.optional(z.string()),
  content_type: z.optional(z.string()),
})

/** A transfer inside a transaction: a fungible (native or ERC-20) or an NFT. */
export const TransactionTransfer = z.object({
  fungible_info: z.optional(
    z.object({
      name: z.string(),
      symbol: z.string(),
      icon: z.optional(z.object({ url: z.string() })),
    }),
  ),
  nft_info: z.optional(
    z.object({
      name: z.string(),
      content: z.object({
        preview: z.nullable(TransactionImage),
        detail: z.nullable(TransactionImage),
      }),
      flags: z.object({ is_spam: z.boolean() }),
    }),
  ),
  direction: z.enum(['in', 'out', 'self']),
  quantity: z.object({ numeric: z.string() }),
  value: z.optional(z.number()),
  price: z.optional(z.number()),
})
export type TransactionTransfer = z.infer<typeof TransactionTransfer>

/**
 * A transaction of the account's history. `operationType` is one of send, receive, mint, burn,
 * trade, approve, execute, deploy (and the others the spec's +/- rule names); `minedAt` is an
 * ISO 8601 time; `chain` is CAIP-2.
 */
export const Transaction = z.object({
  id: z.string(),
  metadata: z.object({
    operationType: z.string(),
    hash: z.string(),
    minedAt: z.string(),
    sentFrom: z.string(),
    sentTo: z.string(),
    status: z.enum(['confirmed', 'failed', 'pending']),
    nonce: z.number(),
    chain: z.string(),
  }),
  transfers: z.array(TransactionTransfer),
})
export type Transaction = z.infer<typeof Transaction>

/** `GET /v1/account/{account}/history?cursor=…&chainId=…`: newest first, `next` is the cursor. */
export const HistoryResponse = z.object({
  data: z.array(Transaction),
  next: z.nullable(z.string()),
})
export type HistoryResponse = z.infer<typeof HistoryResponse>

/** `POST /v1/fungible/price` with `{ projectId, currency: 'usd', addresses: CAIP-10[] }`. */
export const FungiblePriceResponse = z.object({
  fungibles: z.array(
    z.object({ name: z.string(), symbol: z.string(), iconUrl: z.string(), price: z.number() }),
  ),
})
export type FungiblePriceResponse = z.infer<typeof FungiblePriceResponse>

/**
 * One NFT the account holds (Porthole's own endpoint, `GET /v1/account/{address}/nfts`, for the
 * Account view's NFTs tab; the spec names the tab but no endpoint). `contract` is CAIP-10.
 */
export const NftEntry = z.object({
  chainId: z.string(),
  contract: z.string(),
  tokenId: z.string(),
  name: z.string(),
  imageUrl: z.nullable(z.string()),
  collection: z.object({ name: z.string(), symbol: z.string() }),
  spam: z.boolean(),
})
export type NftEntry = z.infer<typeof NftEntry>

/** `GET /v1/account/{address}/nfts?chainId=…&cursor=…`: spam included and flagged. */
export const NftsResponse = z.object({ data: z.array(NftEntry), next: z.nullable(z.string()) })
export type NftsResponse = z.infer<typeof NftsResponse>
