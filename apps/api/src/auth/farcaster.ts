/**
 * Farcaster login for the embedded wallet: where the auth relay is, which IdRegistry decides a
 * fid's custody, and the relay calls the login routes make (open a channel, read its status).
 * A Sign In With Farcaster message names the site the user is on (an origin the project allows)
 * as its domain and URI, and the project as its `Request ID` (`portholeRequestId`).
 */
import {
  type CustodyReader,
  createCustodyReader,
  endpoints,
  FARCASTER_DEVNET_NETWORK,
  FARCASTER_ID_REGISTRY,
} from '@porthole/shared'
import type { Address, Hex } from 'viem'
import { z } from 'zod'
import { type ApiConfig, InvalidConfigError } from '../config.js'

/** Where Farcaster sign-ins are opened and checked. */
export type FarcasterConfig = {
  /** The auth relay (`POST /v1/channel`, `GET /v1/channel/status`). */
  relayUrl: string
  /** The IdRegistry's network (CAIP-2, eip155). */
  network: string
  /** Its chain id (the messages' `Chain ID`). */
  chainId: number
  /** JSON-RPC URL of that network. */
  rpcUrl: string
  /** The IdRegistry contract. */
  registry: Address
  /** How long a login (a relay channel) may take; default 10 minutes. */
  loginTtlMs: number
}

/** Environment variables of {@link resolveFarcasterConfig} (besides `PORTHOLE_FARCASTER_URL`). */
export const FARCASTER_ENV = {
  network: 'PORTHOLE_FARCASTER_NETWORK',
  registry: 'PORTHOLE_FARCASTER_ID_REGISTRY',
} as const

/** A login may take 10 minutes: the relay channel's and the message's own lifetime. */
export const FARCASTER_LOGIN_TTL_MS = 10 * 60 * 1000

/** Options of {@link resolveFarcasterConfig}. */
export type ResolveFarcasterConfigParameters = {
  /** The API's chain RPC upstreams: the IdRegistry is read through its network's. */
  upstreams: Readonly<Record<string, string>>
  production: boolean
}

/**
 * Farcaster login settings from the environment: `PORTHOLE_FARCASTER_URL` (the relay; default the
 * local stand-in, http://127.0.0.1:4800), `PORTHOLE_FARCASTER_NETWORK` (default `eip155:31337`,
 * the first devnet) and `PORTHOLE_FARCASTER_ID_REGISTRY` (default the devnets'
 * `FARCASTER_ID_REGISTRY`). Null — Farcaster not offered — when the network has no RPC upstream,
 * and in production unless all three are set.
 *
 * @example
 * resolveFarcasterConfig({}, { upstreams, production: false })
 * // { relayUrl: 'http://127.0.0.1:4800', network: 'eip155:31337', chainId: 31337, … }
 */
export function resolveFarcasterConfig(
  env: Record<string, string | undefined>,
  { upstreams, production }: ResolveFarcasterConfigParameters,
): FarcasterConfig | null {
  const relay = env.PORTHOLE_FARCASTER_URL
  const network = env[FARCASTER_ENV.network]
  const registry = env[FARCASTER_ENV.registry]
  if (production && !(relay && network && registry)) return null
  const caip = network || FARCASTER_DEVNET_NETWORK
  const chain = /^eip155:([1-9]\d{0,15})$/.exec(caip)
  if (!chain) throw new InvalidConfigError(`${FARCASTER_ENV.network} must be an eip155 network id`)
  if (registry && !/^0x[0-9a-fA-F]{40}$/.test(registry))
    throw new InvalidConfigError(`${FARCASTER_ENV.registry} must be a contract address`)
  const rpcUrl = upstreams[caip]
  if (!rpcUrl) return null
  return {
    relayUrl: (relay || endpoints(env).farcaster).replace(/\/+$/, ''),
    network: caip,
    chainId: Number(chain[1]),
    rpcUrl,
    registry: (registry as Address | undefined) ?? FARCASTER_ID_REGISTRY,
    loginTtlMs: FARCASTER_LOGIN_TTL_MS,
  }
}

/** A relay call that failed (unreachable, or an answer that is not the relay's). */
export class FarcasterRelayError extends Error {
  override name = 'FarcasterRelayError' as const
}

const ChannelAnswer = z.object({
  channelToken: z.string().min(1).max(128),
  url: z.string().startsWith('farcaster://connect?').max(4096),
  nonce: z.string(),
})

const StatusAnswer = z.discriminatedUnion('state', [
  z.object({ state: z.literal('pending') }),
  z.object({
    state: z.literal('completed'),
    message: z.string().max(4096),
    signature: z.string().regex(/^0x[0-9a-fA-F]+$/),
    fid: z.number().int().positive(),
    username: z.string().max(64).nullish(),
    displayName: z.string().max(128).nullish(),
  }),
])

/** A channel's state as the login routes use it. */
export type ChannelStatus =
  | { state: 'pending' }
  | { state: 'expired' }
  | {
      state: 'completed'
      message: string
      signature: Hex
      fid: number
      username: string | null
      displayName: string | null
    }

/** What a login's channel asks the Farcaster app to sign. */
export type ChannelRequest = {
  /** The frame's nonce (its device key's thumbprint, hex). */
  nonce: string
  /** The site the user is on (an origin): the message's domain (its host) and URI (`<site>/`). */
  site: string
  /** The message's `Request ID`: the project (`portholeRequestId`). */
  requestId: string
  /** When the message expires (ms). */
  expiresAt: number
}

/** The relay and IdRegistry calls of a Farcaster login. */
export type FarcasterClient = {
  config: FarcasterConfig
  /** Opens a channel for a message naming the request's site, project and nonce. */
  openChannel(request: ChannelRequest): Promise<{ channelToken: string; url: string }>
  /** The channel's state; `expired` once the relay no longer knows it. */
  status(channelToken: string): Promise<ChannelStatus>
  custodyOf: CustodyReader
}

/**
 * The relay client (10 s per call) and the IdRegistry reader of a configuration.
 *
 * @example
 * const farcaster = createFarcasterClient(config)
 * const { url } = await farcaster.openChannel({ nonce, site, requestId, expiresAt: Date.now() + 600_000 })
 */
export function createFarcasterClient(config: FarcasterConfig): FarcasterClient {
  const call = async (path: string, init: RequestInit) => {
    try {
      return await fetch(`${config.relayUrl}${path}`, {
        ...init,
        signal: AbortSignal.timeout(10_000),
      })
    } catch (cause) {
      throw new FarcasterRelayError('The Farcaster relay cannot be reached', { cause })
    }
  }
  const read = async <T>(schema: z.ZodType<T>, response: Response): Promise<T> => {
    const parsed = schema.safeParse(await response.json().catch(() => null))
    if (!parsed.success)
      throw new FarcasterRelayError(`The Farcaster relay answered ${response.status} unexpectedly`)
    return parsed.data
  }
  return {
    config,
    async openChannel({ nonce, site, requestId, expiresAt }) {
      const response = await call('/v1/channel', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          siweUri: `${site}/`,
          domain: new URL(site).host,
          nonce,
          expirationTime: new Date(expiresAt).toISOString(),
          requestId,
        }),
      })
      if (response.status !== 201)
        throw new FarcasterRelayError(
          `The Farcaster relay refused the channel (${response.status})`,
        )
      const channel = await read(ChannelAnswer, response)
      if (channel.nonce !== nonce)
        throw new FarcasterRelayError('The Farcaster relay changed the nonce')
      return { channelToken: channel.channelToken, url: channel.url }
    },
    async status(channelToken) {
      const response = await call('/v1/channel/status', {
        headers: { authorization: `Bearer ${channelToken}` },
      })
      if (response.status === 401) return { state: 'expired' }
      if (response.status !== 200 && response.status !== 202)
        throw new FarcasterRelayError(`The Farcaster relay answered ${response.status}`)
      const status = await read(StatusAnswer, response)
      if (status.state === 'pending') return status
      return {
        state: 'completed',
        message: status.message,
        signature: status.signature as Hex,
        fid: status.fid,
        username: status.username ?? null,
        displayName: status.displayName ?? null,
      }
    },
    custodyOf: createCustodyReader({ rpcUrl: config.rpcUrl, registry: config.registry }),
  }
}

/**
 * The Farcaster client of an API configuration: `config.farcaster` when given (null: off), else
 * {@link resolveFarcasterConfig} from `env`.
 *
 * @example
 * authFarcasterRoutes(app, auth, farcasterClientOf(config))
 */
export function farcasterClientOf(
  config: Pick<ApiConfig, 'farcaster' | 'upstreams' | 'production'>,
  env: Record<string, string | undefined> = process.env,
): FarcasterClient | null {
  const resolved =
    config.farcaster === undefined
      ? resolveFarcasterConfig(env, {
          upstreams: config.upstreams,
          production: config.production,
        })
      : config.farcaster
  return resolved ? createFarcasterClient(resolved) : null
}
