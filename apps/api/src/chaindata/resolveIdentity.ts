/**
 * Names and avatars of addresses (`GET /v1/identity/{address}`). No name service exists yet:
 * every address has none. The names issue replaces this resolver (see `IdentityResolver`).
 */
import type { IdentityResponse } from '@porthole/shared'

/**
 * The name and avatar of `address`: `{ name: null, avatar: null }` until a name service exists.
 *
 * @example
 * await resolveIdentity('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266') // { name: null, avatar: null }
 */
export async function resolveIdentity(_address: string): Promise<IdentityResponse> {
  return { name: null, avatar: null }
}
