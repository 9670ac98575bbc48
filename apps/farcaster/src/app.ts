/**
 * The HTTP routes of the local Farcaster auth relay (the "connect" relay of Sign In With
 * Farcaster), the same paths and shapes as Farcaster's own relay:
 * - `POST /v1/channel {siweUri, domain, nonce?, notBefore?, expirationTime?, requestId?}` → 201
 *   `{channelToken, url, nonce}`; `url` is `farcaster://connect?channelToken=…&nonce=…&siweUri=…&domain=…`;
 * - `GET /v1/channel/status` (`Authorization: Bearer <channelToken>`) → 202 `{state: 'pending', …}`
 *   or 200 `{state: 'completed', message, signature, fid, username, displayName, bio, pfpUrl,
 *   custody, verifications, …}`; 401 for an unknown or expired channel;
 * - `POST /v1/channel/authenticate` (`Authorization: Bearer <channelToken>`) `{message, signature,
 *   fid, username?, displayName?, bio?, pfpUrl?}`: a wallet answers the channel → 201;
 * - `GET /health`.
 * The relay checks that an answer fits its channel (domain, URI, nonce, request id, fid) and that the
 * signature is the named address's; it vouches for nothing else: relying parties check the
 * message, the signature and the fid's custody on chain themselves.
 */
import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { type Hex, isAddressEqual, recoverMessageAddress } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import { z } from 'zod'
import { type Channel, type Channels, createChannels } from './channels.js'

/** Defaults of {@link createFarcasterRelayApp}. */
export const RELAY_DEFAULTS = {
  /** A channel lives 10 minutes (the sign-in message's own freshness limit). */
  channelTtlMs: 10 * 60 * 1000,
  maxChannels: 10_000,
} as const

/** Options of {@link createFarcasterRelayApp}. */
export type CreateFarcasterRelayAppParameters = {
  /** Origins allowed by CORS (the modal and wallet frames), matched exactly. */
  allowedOrigins: readonly string[]
  channelTtlMs?: number
  maxChannels?: number
  now?: () => number
}

class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

const Nonce = z.string().regex(/^[A-Za-z0-9]{8,64}$/, 'must be 8 to 64 letters or digits')
const IsoTime = z.iso.datetime({ offset: true })
const HttpUrl = z.url({ protocol: /^https?$/ }).max(512)
/** An RFC 3986 authority: a host name or IPv4 address, with an optional port. */
const Domain = z
  .string()
  .max(255)
  .regex(/^[A-Za-z0-9.-]+(?::\d{1,5})?$/, 'must be a host name with an optional port')

const ChannelBody = z.strictObject({
  siweUri: HttpUrl,
  domain: Domain,
  nonce: Nonce.optional(),
  notBefore: IsoTime.optional(),
  expirationTime: IsoTime.optional(),
  requestId: z.string().max(128).optional(),
  acceptAuthAddress: z.boolean().optional(),
})

const Text = (max: number) => z.string().max(max).optional()
const AuthenticateBody = z.strictObject({
  message: z.string().min(1).max(4096),
  signature: z.string().regex(/^0x[0-9a-fA-F]{130,}$/, 'must be a hex signature'),
  fid: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  username: Text(64),
  displayName: Text(128),
  bio: Text(512),
  pfpUrl: HttpUrl.optional(),
})

/**
 * Builds the relay's Hono app (`startFarcasterRelay` serves it; tests may call `app.request`).
 *
 * @example
 * const app = createFarcasterRelayApp({ allowedOrigins: ['http://wallet.localhost:4200'] })
 * const response = await app.request('/v1/channel', { method: 'POST', body: JSON.stringify({ siweUri, domain }) })
 */
export function createFarcasterRelayApp(parameters: CreateFarcasterRelayAppParameters): Hono {
  const now = parameters.now ?? Date.now
  const channels: Channels = createChannels({
    ttlMs: parameters.channelTtlMs ?? RELAY_DEFAULTS.channelTtlMs,
    max: parameters.maxChannels ?? RELAY_DEFAULTS.maxChannels,
    now,
  })
  const app = new Hono()

  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store')
    c.header('X-Content-Type-Options', 'nosniff')
    const origin = c.req.header('origin')
    if (origin !== undefined && parameters.allowedOrigins.includes(origin)) {
      c.header('Access-Control-Allow-Origin', origin)
      c.header('Vary', 'Origin')
      if (c.req.method === 'OPTIONS') {
        c.header('Access-Control-Allow-Methods', 'GET, POST')
        c.header('Access-Control-Allow-Headers', 'authorization, content-type')
        c.header('Access-Control-Max-Age', '600')
        return c.body(null, 204)
      }
    }
    await next()
  })
  app.use(
    '/v1/*',
    bodyLimit({
      maxSize: 16 * 1024,
      onError: () => {
        throw new HttpError(413, 'BODY_TOO_LARGE', 'The request body is larger than 16 KiB')
      },
    }),
  )

  app.post('/v1/channel', async (c) => {
    const body = parse(ChannelBody, await json(c.req.raw))
    const channel = channels.open(
      {
        siweUri: body.siweUri,
        domain: body.domain,
        ...(body.nonce ? { nonce: body.nonce } : {}),
        ...(body.notBefore ? { notBefore: body.notBefore } : {}),
        ...(body.expirationTime ? { expirationTime: body.expirationTime } : {}),
        ...(body.requestId ? { requestId: body.requestId } : {}),
      },
      {
        ip:
          (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
            ?.socket?.remoteAddress ?? 'local',
        userAgent: c.req.header('user-agent') ?? '',
      },
    )
    return c.json(
      { channelToken: channel.token, url: channel.url, nonce: channel.request.nonce },
      201,
    )
  })

  app.get('/v1/channel/status', (c) => {
    const channel = channelOf(c)
    return c.json(describe(channel), channel.answer ? 200 : 202)
  })

  app.post('/v1/channel/authenticate', async (c) => {
    const channel = channelOf(c)
    const body = parse(AuthenticateBody, await json(c.req.raw))
    if (channel.answer) throw new HttpError(409, 'ALREADY_COMPLETED', 'The channel was answered')
    const fields = parseSiweMessage(body.message)
    const { request } = channel
    if (
      fields.domain !== request.domain ||
      fields.uri !== request.siweUri ||
      fields.nonce !== request.nonce ||
      (fields.requestId ?? undefined) !== request.requestId ||
      !fields.resources?.includes(`farcaster://fid/${body.fid}`) ||
      !fields.address
    )
      throw new HttpError(
        400,
        'MESSAGE_MISMATCH',
        'The message does not answer this channel (domain, URI, nonce, request id or fid)',
      )
    let signer: string | undefined
    try {
      signer = await recoverMessageAddress({
        message: body.message,
        signature: body.signature as Hex,
      })
    } catch {}
    if (!signer || !isAddressEqual(signer as Hex, fields.address))
      throw new HttpError(400, 'INVALID_SIGNATURE', 'The signature is not the named address’s')
    channels.complete(channel, {
      message: body.message,
      signature: body.signature as Hex,
      fid: body.fid,
      username: body.username,
      displayName: body.displayName,
      bio: body.bio,
      pfpUrl: body.pfpUrl,
      custody: fields.address,
    })
    return c.json(describe(channel), 201)
  })

  app.get('/health', (c) => c.json({ ok: true, channels: channels.size() }))
  app.notFound((c) => c.json({ code: 'NOT_FOUND', message: 'Not found' }, 404))
  app.onError((error, c) => {
    if (error instanceof HttpError)
      return c.json({ code: error.code, message: error.message }, error.status)
    console.error('[farcaster relay]', error)
    return c.json({ code: 'INTERNAL', message: 'Internal error' }, 500)
  })

  function channelOf(c: Context): Channel {
    const match = /^Bearer ([A-Za-z0-9-]{1,64})$/.exec(c.req.header('authorization') ?? '')
    const channel = match?.[1] ? channels.get(match[1]) : undefined
    if (!channel) throw new HttpError(401, 'UNKNOWN_CHANNEL', 'No such channel (or it expired)')
    return channel
  }

  return app
}

/** A channel as `status` and `authenticate` answer it. */
function describe(channel: Channel) {
  const { request, answer } = channel
  const common = {
    nonce: request.nonce,
    url: channel.url,
    metadata: channel.metadata,
    signatureParams: {
      siweUri: request.siweUri,
      domain: request.domain,
      nonce: request.nonce,
      ...(request.notBefore ? { notBefore: request.notBefore } : {}),
      ...(request.expirationTime ? { expirationTime: request.expirationTime } : {}),
      ...(request.requestId ? { requestId: request.requestId } : {}),
    },
  }
  if (!answer) return { state: 'pending' as const, ...common, acceptAuthAddress: false }
  return {
    state: 'completed' as const,
    ...common,
    message: answer.message,
    signature: answer.signature,
    authMethod: 'custody' as const,
    fid: answer.fid,
    username: answer.username ?? null,
    displayName: answer.displayName ?? null,
    bio: answer.bio ?? null,
    pfpUrl: answer.pfpUrl ?? null,
    verifications: [],
    custody: answer.custody,
  }
}

async function json(request: Request): Promise<unknown> {
  try {
    return await request.json()
  } catch {
    throw new HttpError(400, 'INVALID_BODY', 'The request body must be JSON')
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const field = issue?.path.join('.') || 'body'
  throw new HttpError(400, 'INVALID_BODY', `Invalid ${field}: ${issue?.message ?? 'invalid'}`)
}
