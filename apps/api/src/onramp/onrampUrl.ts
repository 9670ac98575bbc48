/**
 * The checkout link the modal opens (spec §7 "On-ramp provider url").
 */

/** The spec's query parameters of a checkout link. */
export type OnrampUrlParameters = {
  /** The partner's public key at the provider. */
  publicKey: string
  /** The token bought (spec: SOL on solana, else USDC, unless another was asked for). */
  destinationCurrencyCode: string
  walletAddress: string
  /** The buyer as the partner knows them (the request's `partnerUserId`). */
  externalCustomerId: string
}

/**
 * The default token of a checkout on a network (spec §7): `SOL` on Solana, else `USDC`.
 * `network` is CAIP-2 or a provider's network name.
 *
 * @example
 * defaultDestinationCurrency('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp') // 'SOL'
 * defaultDestinationCurrency('eip155:1') // 'USDC'
 */
export function defaultDestinationCurrency(network: string): 'SOL' | 'USDC' {
  return /^solana($|[:-])/i.test(network) ? 'SOL' : 'USDC'
}

/**
 * Adds the spec's query parameters (`publicKey`, `destinationCurrencyCode`, `walletAddress`,
 * `externalCustomerId`) to a provider's checkout URL, keeping its own (the order id).
 *
 * @example
 * onrampUrl('http://127.0.0.1:4900/checkout?orderId=ord_1', { publicKey: 'pk', destinationCurrencyCode: 'USDC', walletAddress: '0xab…', externalCustomerId: 'user-1' })
 * // 'http://127.0.0.1:4900/checkout?orderId=ord_1&publicKey=pk&destinationCurrencyCode=USDC&walletAddress=0xab…&externalCustomerId=user-1'
 */
export function onrampUrl(checkoutUrl: string, parameters: OnrampUrlParameters): string {
  const url = new URL(checkoutUrl)
  url.searchParams.set('publicKey', parameters.publicKey)
  url.searchParams.set('destinationCurrencyCode', parameters.destinationCurrencyCode)
  url.searchParams.set('walletAddress', parameters.walletAddress)
  url.searchParams.set('externalCustomerId', parameters.externalCustomerId)
  return url.toString()
}
