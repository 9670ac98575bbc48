/**
 * Sign In With Farcaster (SIWF): the EIP-4361 message a Farcaster account's custody key signs,
 * the `farcaster://connect` URL of an auth relay channel, and the checks a relying party makes —
 * the message's domain, URI, nonce, chain and lifetime, the custody signature (viem), and that
 * the IdRegistry names the signer as the fid's custody address. The local devnets carry an
 * IdRegistry-like contract at a fixed address (`@porthole/devnet` deploys it).
 *
 * A Porthole login names who asks in the fields every Farcaster app shows and signs: the domain
 * and URI are the site the user is on (the origin the modal verified, one the project allows),
 * and the `Request ID` is `porthole:<projectId>:<project name>` ({@link portholeRequestId}), so
 * a request relayed from another site is recognisable, and the signed message opens the wallet
 * of that project only.
 */
import {
  type Address,
  createPublicClient,
  getAddress,
  type Hex,
  http,
  isAddressEqual,
  recoverMessageAddress,
} from 'viem'
import { createSiweMessage, parseSiweMessage } from 'viem/siwe'
import { FARCASTER_ID_REGISTRY, idRegistryReadAbi } from './devnet.js'

/** The statement of every Sign In With Farcaster message. */
export const FARCASTER_STATEMENT = 'Farcaster Auth'

/** What a relay channel asks the Farcaster wallet to sign (the `farcaster://connect` URL). */
export type FarcasterConnectRequest = {
  channelToken: string
  nonce: string
  /** The relying party's login URI (the message's `URI`). */
  siweUri: string
  /** The relying party's domain (the message's first word). */
  domain: string
  notBefore?: string | undefined
  expirationTime?: string | undefined
  requestId?: string | undefined
}

const CONNECT_KEYS = [
  'channelToken',
  'nonce',
  'siweUri',
  'domain',
  'notBefore',
  'expirationTime',
  'requestId',
] as const

/**
 * The URL a Farcaster wallet opens (as a link or QR code) to answer a relay channel.
 *
 * @example
 * farcasterConnectUrl({ channelToken: 'c7…', nonce: 'a1b2c3d4e5', siweUri: 'http://wallet.localhost:4200/', domain: 'wallet.localhost:4200' })
 * // 'farcaster://connect?channelToken=c7…&nonce=a1b2c3d4e5&siweUri=http%3A%2F%2F…&domain=wallet.localhost%3A4200'
 */
export function farcasterConnectUrl(request: FarcasterConnectRequest): string {
  const query = new URLSearchParams()
  for (const key of CONNECT_KEYS) {
    const value = request[key]
    if (value) query.set(key, value)
  }
  return `farcaster://connect?${query}`
}

/**
 * Reads a `farcaster://connect` URL; `undefined` when it is not one or lacks a required field.
 *
 * @example
 * parseFarcasterConnectUrl(url)?.channelToken
 */
export function parseFarcasterConnectUrl(url: string): FarcasterConnectRequest | undefined {
  if (!url.startsWith('farcaster://connect?')) return undefined
  const query = new URLSearchParams(url.slice('farcaster://connect?'.length))
  const get = (key: (typeof CONNECT_KEYS)[number]) => query.get(key) ?? undefined
  const channelToken = get('channelToken')
  const nonce = get('nonce')
  const siweUri = get('siweUri')
  const domain = get('domain')
  if (!channelToken || !nonce || !siweUri || !domain) return undefined
  return {
    channelToken,
    nonce,
    siweUri,
    domain,
    ...(get('notBefore') ? { notBefore: get('notBefore') } : {}),
    ...(get('expirationTime') ? { expirationTime: get('expirationTime') } : {}),
    ...(get('requestId') ? { requestId: get('requestId') } : {}),
  }
}

/** The `Request ID` prefix of a Porthole login. */
const PORTHOLE_REQUEST = 'porthole:'
/** The longest project name a request carries (cut, not refused). */
const REQUEST_NAME_MAX = 64

/** What a Porthole login's `Request ID` names: the project, by id and registered name. */
export type PortholeRequest = { projectId: string; projectName: string }

/**
 * The `Request ID` of a Porthole login: `porthole:<projectId>:<name, percent-encoded>` (an
 * EIP-4361 request id is URI characters only). The project id binds the signed message to the
 * project; the name is what the approver reads.
 *
 * @example
 * portholeRequestId({ projectId: 'porthole-demo', projectName: 'Porthole demo' })
 * // 'porthole:porthole-demo:Porthole%20demo'
 */
export function portholeRequestId({ projectId, projectName }: PortholeRequest): string {
  return `${PORTHOLE_REQUEST}${projectId}:${encodeURIComponent(projectName.slice(0, REQUEST_NAME_MAX))}`
}

/**
 * Reads a Porthole `Request ID`; `undefined` when it is not one.
 *
 * @example
 * parsePortholeRequestId('porthole:porthole-demo:Porthole%20demo')
 * // { projectId: 'porthole-demo', projectName: 'Porthole demo' }
 */
export function parsePortholeRequestId(requestId: string | undefined): PortholeRequest | undefined {
  const match = /^porthole:([A-Za-z0-9][A-Za-z0-9_-]{0,63}):([A-Za-z0-9%._~!$&'()*+,;=:@-]*)$/.exec(
    requestId ?? '',
  )
  if (!match) return undefined
  try {
    return { projectId: match[1] as string, projectName: decodeURIComponent(match[2] as string) }
  } catch {
    return undefined
  }
}

/**
 * What a Farcaster app should show for a sign-in request (the test client prints it): the site
 * that asks (the message's domain and URI) and, for a Porthole login, the project whose wallet it
 * opens. A request that is not a Porthole login is named as such.
 *
 * @example
 * describeFarcasterRequest(parseFarcasterConnectUrl(url)!)
 * // 'localhost:4000 wants you to sign in with Farcaster\nSite: http://localhost:4000/\nOpens your Porthole wallet of “Porthole demo” (porthole-demo)'
 */
export function describeFarcasterRequest(
  request: Pick<FarcasterConnectRequest, 'domain' | 'siweUri' | 'requestId'>,
): string {
  const porthole = parsePortholeRequestId(request.requestId)
  return [
    `${request.domain} wants you to sign in with Farcaster`,
    `Site: ${request.siweUri}`,
    porthole
      ? `Opens your Porthole wallet of “${porthole.projectName}” (${porthole.projectId})`
      : 'Not a Porthole wallet login',
  ].join('\n')
}

/**
 * The site (origin) a sign-in request names: its URI's origin when the domain is that URI's host,
 * else `undefined` (a request whose shown domain and URI disagree names no site).
 *
 * @example
 * siteOfFarcasterRequest({ domain: 'localhost:4000', siweUri: 'http://localhost:4000/' }) // 'http://localhost:4000'
 */
export function siteOfFarcasterRequest(
  request: Pick<FarcasterConnectRequest, 'domain' | 'siweUri'>,
): string | undefined {
  try {
    const uri = new URL(request.siweUri)
    if (!/^https?:$/.test(uri.protocol) || uri.host !== request.domain) return undefined
    return uri.origin
  } catch {
    return undefined
  }
}

/** Options of {@link createFarcasterMessage}. */
export type CreateFarcasterMessageParameters = {
  domain: string
  uri: string
  nonce: string
  fid: number | bigint
  /** The custody address that signs. */
  custody: Address
  /** The chain of the IdRegistry that names the custody address. */
  chainId: number
  issuedAt?: Date | undefined
  notBefore?: Date | undefined
  expirationTime?: Date | undefined
  requestId?: string | undefined
}

/**
 * The Sign In With Farcaster message (EIP-4361): statement "Farcaster Auth", the fid as the
 * resource `farcaster://fid/<fid>`.
 *
 * @example
 * const message = createFarcasterMessage({ domain: 'wallet.localhost:4200', uri: 'http://wallet.localhost:4200/', nonce, fid: 1234, custody, chainId: 31337 })
 */
export function createFarcasterMessage(parameters: CreateFarcasterMessageParameters): string {
  return createSiweMessage({
    domain: parameters.domain,
    address: getAddress(parameters.custody),
    statement: FARCASTER_STATEMENT,
    uri: parameters.uri,
    version: '1',
    chainId: parameters.chainId,
    nonce: parameters.nonce,
    issuedAt: parameters.issuedAt ?? new Date(),
    ...(parameters.notBefore ? { notBefore: parameters.notBefore } : {}),
    ...(parameters.expirationTime ? { expirationTime: parameters.expirationTime } : {}),
    ...(parameters.requestId ? { requestId: parameters.requestId } : {}),
    resources: [`farcaster://fid/${parameters.fid}`],
  })
}

/** Why a Sign In With Farcaster message was refused. */
export type FarcasterSignInReason =
  | 'malformed'
  | 'domain'
  | 'uri'
  | 'nonce'
  | 'chain'
  | 'expired'
  | 'not-yet-valid'
  | 'project'
  | 'signature'
  | 'custody'
  | 'unavailable'

/**
 * A refused Sign In With Farcaster message; `reason` says which check failed (`unavailable`:
 * the IdRegistry could not be read).
 *
 * @example
 * if (error instanceof FarcasterSignInError && error.reason === 'custody') …
 */
export class FarcasterSignInError extends Error {
  override name = 'FarcasterSignInError' as const
  constructor(
    readonly reason: FarcasterSignInReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

/** Reads the custody address of a fid (the zero address when unregistered). */
export type CustodyReader = (fid: bigint) => Promise<Address>

/** Options of {@link verifyFarcasterSignIn}. */
export type VerifyFarcasterSignInParameters = {
  message: string
  signature: Hex
  /** The relying party's domain the message must name. */
  domain: string
  /** The login URI the message must name; any when left out. */
  uri?: string | undefined
  /** The nonce the message must carry; any when left out (then the caller binds it itself). */
  nonce?: string | undefined
  /** The IdRegistry's chain id the message must name. */
  chainId: number
  /**
   * The project whose Porthole login the message must be (its `Request ID`,
   * {@link portholeRequestId}); any request id when left out.
   */
  projectId?: string | undefined
  /** The oldest `Issued At` accepted, in ms before now; default 10 minutes. */
  maxAgeMs?: number | undefined
  /** The present (ms); default the clock. */
  now?: number | undefined
  custodyOf: CustodyReader
}

/** A verified sign-in. */
export type VerifyFarcasterSignInReturnType = {
  fid: number
  custody: Address
  nonce: string
  domain: string
  uri: string
  issuedAt: Date
  /** The Porthole project and name the message's `Request ID` names, if it is a Porthole login. */
  porthole: PortholeRequest | undefined
}

/** The default oldest `Issued At` accepted: 10 minutes. */
export const FARCASTER_MESSAGE_MAX_AGE_MS = 10 * 60 * 1000
/** Clocks may differ this much (a message issued a little "in the future" is fine). */
const CLOCK_SKEW_MS = 60 * 1000

/**
 * Checks a Sign In With Farcaster message and its signature: well formed (EIP-4361 exactly as
 * viem writes it, statement "Farcaster Auth", one `farcaster://fid/<fid>` resource), the
 * expected domain, URI, nonce and chain, not expired (`Expiration Time`, `Not Before`, and
 * `Issued At` within `maxAgeMs`), signed by the address it names, and that address is the fid's
 * custody address in the IdRegistry. Throws {@link FarcasterSignInError}.
 *
 * @example
 * const { fid } = await verifyFarcasterSignIn({ message, signature, domain: 'wallet.localhost:4200', nonce, chainId: 31337, custodyOf: createCustodyReader({ rpcUrl }) })
 */
export async function verifyFarcasterSignIn(
  parameters: VerifyFarcasterSignInParameters,
): Promise<VerifyFarcasterSignInReturnType> {
  const { message, signature } = parameters
  const now = parameters.now ?? Date.now()
  const refuse = (reason: FarcasterSignInReason, text: string): never => {
    throw new FarcasterSignInError(reason, text)
  }
  if (message.length > 4096) refuse('malformed', 'The sign-in message is too long')
  const fields = parseSiweMessage(message)
  const fidResources = (fields.resources ?? []).filter((r) => r.startsWith('farcaster://fid/'))
  const fidText = fidResources.length === 1 ? fidResources[0]?.slice(16) : undefined
  if (
    !fields.address ||
    !fields.domain ||
    !fields.uri ||
    !fields.nonce ||
    fields.chainId === undefined ||
    !fields.issuedAt ||
    Number.isNaN(fields.issuedAt.getTime()) ||
    fields.statement !== FARCASTER_STATEMENT ||
    !fidText ||
    !/^[1-9]\d{0,18}$/.test(fidText)
  )
    refuse('malformed', 'Not a Sign In With Farcaster message')
  // Exactly the text the fields give: nothing hidden after them, no second reading.
  let canonical = ''
  try {
    canonical = createSiweMessage({
      ...fields,
      address: fields.address as Address,
      domain: fields.domain as string,
      uri: fields.uri as string,
      nonce: fields.nonce as string,
      chainId: fields.chainId as number,
      version: '1',
    })
  } catch {
    refuse('malformed', 'Not a Sign In With Farcaster message')
  }
  if (canonical !== message) refuse('malformed', 'Not a Sign In With Farcaster message')
  if (fields.domain !== parameters.domain)
    refuse('domain', `The message is for ${fields.domain}, not ${parameters.domain}`)
  if (parameters.uri !== undefined && fields.uri !== parameters.uri)
    refuse('uri', `The message is for ${fields.uri}, not ${parameters.uri}`)
  if (parameters.nonce !== undefined && fields.nonce !== parameters.nonce)
    refuse('nonce', 'The message carries another nonce')
  if (fields.chainId !== parameters.chainId)
    refuse('chain', `The message names chain ${fields.chainId}, not ${parameters.chainId}`)
  const porthole = parsePortholeRequestId(fields.requestId)
  if (parameters.projectId !== undefined && porthole?.projectId !== parameters.projectId)
    refuse(
      'project',
      `The message is a login for ${porthole ? `project ${porthole.projectId}` : 'no Porthole project'}, not ${parameters.projectId}`,
    )
  const issuedAt = fields.issuedAt as Date
  if (fields.expirationTime && fields.expirationTime.getTime() <= now)
    refuse('expired', 'The sign-in message has expired')
  if (now - issuedAt.getTime() > (parameters.maxAgeMs ?? FARCASTER_MESSAGE_MAX_AGE_MS))
    refuse('expired', 'The sign-in message is too old: sign in again')
  if (
    issuedAt.getTime() > now + CLOCK_SKEW_MS ||
    (fields.notBefore && fields.notBefore.getTime() > now + CLOCK_SKEW_MS)
  )
    refuse('not-yet-valid', 'The sign-in message is not valid yet')
  const address = fields.address as Address
  let signer: Address | undefined
  try {
    signer = await recoverMessageAddress({ message, signature })
  } catch {}
  if (!signer || !isAddressEqual(signer, address))
    refuse('signature', 'The signature is not the custody address’s')
  const fid = BigInt(fidText as string)
  let custody: Address
  try {
    custody = await parameters.custodyOf(fid)
  } catch (cause) {
    throw new FarcasterSignInError('unavailable', 'The IdRegistry cannot be read', { cause })
  }
  if (!isAddressEqual(custody, address))
    refuse('custody', `The signer is not the custody address of fid ${fid}`)
  return {
    fid: Number(fid),
    custody: getAddress(address),
    nonce: fields.nonce as string,
    domain: fields.domain as string,
    uri: fields.uri as string,
    issuedAt,
    porthole,
  }
}

/** Options of {@link createCustodyReader}. */
export type CreateCustodyReaderParameters = {
  /** JSON-RPC URL of the IdRegistry's chain. */
  rpcUrl: string
  /** The IdRegistry; default {@link FARCASTER_ID_REGISTRY}. */
  registry?: Address | undefined
  /** Per-call timeout; default 10 s (spec §9 RPC timeout). */
  timeoutMs?: number | undefined
}

/**
 * Reads custody addresses from an IdRegistry over JSON-RPC (`custodyOf(fid)`).
 *
 * @example
 * const custodyOf = createCustodyReader({ rpcUrl: 'http://127.0.0.1:8545' })
 * await custodyOf(1234n) // '0x…' (the zero address when unregistered)
 */
export function createCustodyReader(parameters: CreateCustodyReaderParameters): CustodyReader {
  const client = createPublicClient({
    transport: http(parameters.rpcUrl, { timeout: parameters.timeoutMs ?? 10_000, retryCount: 0 }),
  })
  const address = parameters.registry ?? FARCASTER_ID_REGISTRY
  return (fid) =>
    client.readContract({ address, abi: idRegistryReadAbi, functionName: 'custodyOf', args: [fid] })
}

/**
 * The SIWF nonce that names a device key: its RFC 7638 thumbprint (base64url) as hex — SIWF
 * nonces are alphanumeric. The recovery service then knows which key the sign-in was made for.
 *
 * @example
 * farcasterNonceOf('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs') // '3736cbb1…' (64 hex digits)
 */
export function farcasterNonceOf(thumbprint: string): string {
  const base64 = thumbprint.replaceAll('-', '+').replaceAll('_', '/')
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
  let hex = ''
  for (let i = 0; i < binary.length; i++) hex += binary.charCodeAt(i).toString(16).padStart(2, '0')
  return hex
}
