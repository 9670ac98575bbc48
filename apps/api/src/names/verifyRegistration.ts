/**
 * Checks a name registration (`POST /v1/profile/account`): the coin type is an EVM chain's
 * (ENSIP-11), the message is the JSON of name, empty attributes and a timestamp in seconds, the
 * name carries the suffix and follows the rule, the timestamp is at most 10 minutes old, and the
 * signature is the address's EIP-191 signature of the message — through viem on the chain when
 * its RPC is known, so smart accounts (ERC-1271, and ERC-6492 before deployment) verify too.
 */
import {
  coinTypeChainId,
  NAME_MESSAGE_MAX_AGE_S,
  NameMessage,
  nameLabel,
  nameProblem,
  type RegisterNameRequest,
} from '@porthole/shared'
import { getAddress, type Hex, isAddress, isHex, type PublicClient, verifyMessage } from 'viem'
import { createUpstreamClients } from '../rpc/upstreamClients.js'
import { NameError } from './NameError.js'

/** How far in the future a timestamp may be (clock skew), in seconds. */
export const NAME_MESSAGE_SKEW_S = 300

/** A registration that passed every check but the name being free. */
export type CheckedRegistration = {
  /** Lower case, with the suffix. */
  name: string
  label: string
  coinType: number
  chainId: number
  /** Checksummed. */
  address: string
  message: string
  signature: Hex
}

/** Options of {@link checkRegistration}. */
export type CheckRegistrationOptions = {
  /** The registry's suffix (`.porthole.id`). */
  suffix: string
  /** Milliseconds since the epoch. */
  now: number
}

/**
 * Everything but the signature: coin type, address, message, name, timestamp. Throws
 * {@link NameError}s (`INVALID_NAME` for the name rule, `INVALID_NAME_REGISTRATION` otherwise).
 *
 * @example
 * const checked = checkRegistration(body, { suffix: '.porthole.id', now: Date.now() })
 */
export function checkRegistration(
  input: RegisterNameRequest,
  { suffix, now }: CheckRegistrationOptions,
): CheckedRegistration {
  const chainId = coinTypeChainId(input.coin_type)
  if (chainId === null)
    throw new NameError('INVALID_NAME_REGISTRATION', 'coinType', {
      details: `coin_type: ${input.coin_type} is not an EVM chain's (ENSIP-11)`,
    })
  if (!isAddress(input.address, { strict: false }))
    throw new NameError('INVALID_NAME_REGISTRATION', 'badAddress')
  let parsed: NameMessage
  try {
    parsed = NameMessage.parse(JSON.parse(input.message))
  } catch {
    throw new NameError('INVALID_NAME_REGISTRATION', 'badMessage')
  }
  const name = parsed.name.toLowerCase()
  const label = nameLabel(name, suffix)
  if (label === null) throw new NameError('INVALID_NAME', 'wrongSuffix', { values: { suffix } })
  const problem = nameProblem(label)
  if (problem) throw new NameError('INVALID_NAME', problem)
  const seconds = Math.floor(now / 1000)
  if (seconds - parsed.timestamp > NAME_MESSAGE_MAX_AGE_S)
    throw new NameError('INVALID_NAME_REGISTRATION', 'expired')
  if (parsed.timestamp - seconds > NAME_MESSAGE_SKEW_S)
    throw new NameError('INVALID_NAME_REGISTRATION', 'future')
  if (!isHex(input.signature) || input.signature.length < 4)
    throw new NameError('INVALID_NAME_REGISTRATION', 'badSignature')
  return {
    name,
    label,
    coinType: input.coin_type,
    chainId,
    address: getAddress(input.address),
    message: input.message,
    signature: input.signature,
  }
}

/** Verifies a signature of a message by an address; false when it is not (never throws). */
export type VerifyNameSignature = (parameters: {
  address: string
  message: string
  signature: Hex
  chainId: number
}) => Promise<boolean>

/**
 * A signature check over the API's chain RPC upstreams (CAIP-2 id → URL): on a chain it knows,
 * viem's public `verifyMessage` (EOA, ERC-1271, ERC-6492); elsewhere viem's offline check (EOA
 * only). One client per chain, kept.
 *
 * @example
 * const verify = createSignatureVerifier({ 'eip155:31337': 'http://127.0.0.1:8545' })
 * await verify({ address, message, signature, chainId: 31337 }) // true
 */
export function createSignatureVerifier(
  upstreams: Readonly<Record<string, string>>,
  { timeoutMs = 10_000 }: { timeoutMs?: number } = {},
): VerifyNameSignature {
  const upstreamClient = createUpstreamClients(upstreams, { timeoutMs, retryCount: 1 })
  const clientFor = (chainId: number): PublicClient | undefined =>
    upstreamClient(`eip155:${chainId}`)
  return async ({ address, message, signature, chainId }) => {
    const parameters = { address: address as Hex, message, signature }
    try {
      const client = clientFor(chainId)
      return client ? await client.verifyMessage(parameters) : await verifyMessage(parameters)
    } catch {
      return false
    }
  }
}
