/**
 * The client address behind reverse proxies. Each proxy appends the address it received the
 * request from to `X-Forwarded-For`, so only the right-most entries were written by proxies we
 * run; everything to their left came from the client and proves nothing.
 */

/** Parameters of {@link clientAddress}. */
export type ClientAddressParameters = {
  /** The socket's peer address (the nearest proxy when there is one). */
  peer: string
  /** The request's `X-Forwarded-For` header, if any. */
  forwardedFor: string | undefined
  /** How many proxies we run in front that append to `X-Forwarded-For` (0: none, use `peer`). */
  trustedProxies: number
}

/**
 * The address of the client: with `n` trusted proxies, the `n`-th `X-Forwarded-For` entry from
 * the right (the one our outermost proxy wrote); the peer when there are no trusted proxies or the
 * header is shorter than that (the request did not come through all of them). IPv4-mapped IPv6
 * addresses are written as IPv4.
 *
 * @example
 * clientAddress({ peer: '10.0.0.2', forwardedFor: 'forged, 203.0.113.7', trustedProxies: 1 })
 * // '203.0.113.7'
 */
export function clientAddress({
  peer,
  forwardedFor,
  trustedProxies,
}: ClientAddressParameters): string {
  const unmap = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '')
  if (trustedProxies <= 0) return unmap(peer)
  const hops = (forwardedFor ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean)
  const hop = hops.length >= trustedProxies ? hops[hops.length - trustedProxies] : undefined
  return unmap(hop ?? peer)
}
