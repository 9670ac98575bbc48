/**
 * An identity resolver without names: for code that embeds the blockchain data routes on their
 * own. The API's `/v1/identity/{address}` answers from the name registry (`names/routes.ts`,
 * `nameIdentity`) unless `createApp` is given another `IdentityResolver`.
 */
import type { IdentityResponse } from '@porthole/shared'

/**
 * The name and avatar of `address` when there is no name service: always none.
 *
 * @example
 * await resolveIdentity('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266') // { name: null, avatar: null }
 */
export async function resolveIdentity(_address: string): Promise<IdentityResponse> {
  return { name: null, avatar: null }
}
