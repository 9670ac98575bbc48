/**
 * Checks a wallet sign-in (spec §4 "Wallet sign-in"): the message's shape, that it was made for
 * this project's site (its domain and URI on an allowed origin), for the network and address
 * claimed, inside its time window, with a nonce this API issued; then the signature (EIP-191
 * through viem for eip155 — ERC-1271 and ERC-6492 too when the chain is reachable — and ed25519
 * for solana). The nonce's single use is the caller's (a database write).
 */
import { ed25519 } from '@noble/curves/ed25519'
import { isOriginAllowed, parseSiwxMessage, type SiwxMessage } from '@porthole/shared'
import { base58 } from '@scure/base'
import { createPublicClient, getAddress, type Hex, http, isAddress, verifyMessage } from 'viem'
import { ApiError } from '../errors.js'

/** How long an issued nonce may be used, and the clock skew a message's times may have. */
export const SIWX = { nonceTtlMs: 5 * 60_000, skewMs: 5 * 60_000, maxSessionMs: 7 * 86_400_000 }

/** A sign-in to check. */
export type SignInInput = { message: string; signature: string; caipNetworkId: string }

/** What the checks found. */
export type CheckedSignIn = {
  namespace: 'eip155' | 'solana'
  message: SiwxMessage
  /** Checksummed (eip155) or as written (solana). */
  address: string
  /** When the session ends: the message's expiration, capped at 7 days. */
  expiresAt: number
}

const refuse = (details: string) => new ApiError('INVALID_SIGN_IN', { details })

/**
 * Everything but the nonce's use and the signature: shape, site, network, address, times.
 *
 * @example
 * const checked = checkSignInMessage(input, { origins: project.origins, now: Date.now() })
 */
export function checkSignInMessage(
  input: SignInInput,
  context: { origins: readonly string[]; now: number },
): CheckedSignIn {
  const parsed = parseSiwxMessage(input.message)
  if (!parsed) throw refuse('message: not a sign-in message')
  const { namespace, message } = parsed
  const [ns, reference] = input.caipNetworkId.split(':')
  if (ns !== namespace || reference !== message.chainId)
    throw refuse(`message: signed for ${namespace}:${message.chainId}, not ${input.caipNetworkId}`)
  let uri: URL
  try {
    uri = new URL(message.uri)
  } catch {
    throw refuse('message: URI is not a URL')
  }
  if (uri.host !== message.domain) throw refuse('message: domain and URI name different sites')
  if (!isOriginAllowed(uri.origin, context.origins))
    throw refuse(`message: ${uri.origin} is not an origin of this project`)
  const issuedAt = Date.parse(message.issuedAt)
  if (!Number.isFinite(issuedAt) || Math.abs(issuedAt - context.now) > SIWX.skewMs)
    throw refuse('message: issued at another time')
  const notBefore = message.notBefore ? Date.parse(message.notBefore) : issuedAt
  if (!Number.isFinite(notBefore) || notBefore > context.now + SIWX.skewMs)
    throw refuse('message: not valid yet')
  const expires = message.expirationTime
    ? Date.parse(message.expirationTime)
    : issuedAt + SIWX.maxSessionMs
  if (!Number.isFinite(expires) || expires <= context.now) throw refuse('message: expired')
  let address = message.address
  if (namespace === 'eip155') {
    if (!isAddress(address, { strict: false })) throw refuse('message: not an EVM address')
    address = getAddress(address)
  } else if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address))
    throw refuse('message: not a Solana address')
  return { namespace, message, address, expiresAt: Math.min(expires, issuedAt + SIWX.maxSessionMs) }
}

/**
 * Verifies the signature of a checked sign-in: eip155 through viem (a contract account is asked
 * on its chain when `rpcUrl` is known), solana with ed25519.
 *
 * @example
 * if (!(await verifySignInSignature(checked, input.signature, rpcUrl))) throw …
 */
export async function verifySignInSignature(
  checked: CheckedSignIn,
  text: string,
  signature: string,
  rpcUrl: string | undefined,
): Promise<boolean> {
  try {
    if (checked.namespace === 'solana')
      return ed25519.verify(
        base58.decode(signature),
        new TextEncoder().encode(text),
        base58.decode(checked.address),
      )
    if (!/^0x[0-9a-fA-F]+$/.test(signature)) return false
    const parameters = {
      address: checked.address as Hex,
      message: text,
      signature: signature as Hex,
    }
    if (!rpcUrl) return await verifyMessage(parameters)
    return await createPublicClient({ transport: http(rpcUrl, { timeout: 10_000 }) }).verifyMessage(
      parameters,
    )
  } catch {
    return false
  }
}
