/**
 * The recovery key service's HTTP routes: `POST /v1/recovery/encrypt`, `POST /v1/recovery/decrypt`
 * (each with a recovery ticket from the API), `GET /health`. It stores nothing per user.
 */
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { type JWTVerifyGetKey, jwtVerify } from 'jose'
import { z } from 'zod'
import { createWindowLimiter } from './limiter.js'
import { deriveSealKey, type Owner, open, seal } from './seal.js'

/** Audience of the API's recovery tickets. */
export const TICKET_AUDIENCE = 'porthole-recovery'
/** Requests per subject, and per client address, in each 60 s window. */
export const LIMITS = { perSubject: 20, perAddress: 120, windowMs: 60_000 } as const

/** Options of {@link createRecoveryApp}. */
export type CreateRecoveryAppParameters = {
  masterKey: Uint8Array
  /** Resolves the API's ticket-signing keys (its `/auth/v1/jwks.json`). */
  jwks: JWTVerifyGetKey
  /** Origins allowed by CORS, matched exactly. */
  allowedOrigins: readonly string[]
  now?: () => number
}

class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message)
  }
}

const Ticket = z.string().min(1).max(4096)
const Base64 = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64')
const EncryptBody = z.object({ ticket: Ticket, share: Base64 })
const DecryptBody = z.object({ ticket: Ticket, ciphertext: Base64 })

/**
 * Builds the Hono app (the server wraps it; tests may call `app.request`).
 *
 * @example
 * const app = createRecoveryApp({ masterKey, jwks, allowedOrigins: ['http://127.0.0.1:4200'] })
 */
export function createRecoveryApp(parameters: CreateRecoveryAppParameters): Hono {
  const { jwks, allowedOrigins, now = Date.now } = parameters
  const key = deriveSealKey(parameters.masterKey)
  const bySubject = createWindowLimiter(LIMITS.perSubject, LIMITS.windowMs, now)
  const byAddress = createWindowLimiter(LIMITS.perAddress, LIMITS.windowMs, now)
  const app = new Hono()

  app.use('*', async (c, next) => {
    const origin = c.req.header('origin')
    if (origin !== undefined && !allowedOrigins.includes(origin))
      throw new HttpError(403, 'ORIGIN_NOT_ALLOWED', `Origin ${origin} is not allowed`)
    if (origin) {
      c.header('Access-Control-Allow-Origin', origin)
      c.header('Vary', 'Origin')
    }
    c.header('Cache-Control', 'no-store')
    c.header('X-Content-Type-Options', 'nosniff')
    if (c.req.method === 'OPTIONS') {
      c.header('Access-Control-Allow-Methods', 'POST')
      c.header('Access-Control-Allow-Headers', 'content-type')
      c.header('Access-Control-Max-Age', '600')
      return c.body(null, 204)
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

  const owner = async (ticket: string, address: string): Promise<Owner> => {
    const wait = byAddress(address)
    if (wait) throw new HttpError(429, 'RATE_LIMITED', 'Too many recovery requests', wait)
    let claims: { sub?: unknown; pid?: unknown }
    try {
      ;({ payload: claims } = await jwtVerify(ticket, jwks, {
        audience: TICKET_AUDIENCE,
        algorithms: ['EdDSA'],
        currentDate: new Date(now()),
      }))
    } catch {
      throw new HttpError(401, 'INVALID_TICKET', 'Invalid recovery ticket')
    }
    if (typeof claims.sub !== 'string' || typeof claims.pid !== 'string' || !claims.sub)
      throw new HttpError(401, 'INVALID_TICKET', 'Invalid recovery ticket')
    const subjectWait = bySubject(`${claims.pid}\n${claims.sub}`)
    if (subjectWait)
      throw new HttpError(429, 'RATE_LIMITED', 'Too many recovery requests', subjectWait)
    return { projectId: claims.pid, userId: claims.sub }
  }

  app.post('/v1/recovery/encrypt', async (c) => {
    const body = parse(EncryptBody, await json(c.req.raw))
    const who = await owner(body.ticket, clientAddress(c.env))
    return c.json({ ciphertext: seal(key, body.share, who) })
  })
  app.post('/v1/recovery/decrypt', async (c) => {
    const body = parse(DecryptBody, await json(c.req.raw))
    const who = await owner(body.ticket, clientAddress(c.env))
    const share = open(key, body.ciphertext, who)
    if (share === null)
      throw new HttpError(400, 'DECRYPT_FAILED', 'The recovery share could not be decrypted')
    return c.json({ share })
  })
  app.get('/health', (c) => c.json({ ok: true }))

  app.notFound((c) => c.json({ code: 'NOT_FOUND', message: 'Not found' }, 404))
  app.onError((error, c) => {
    if (error instanceof HttpError) {
      if (error.retryAfter) c.header('Retry-After', String(error.retryAfter))
      return c.json({ code: error.code, message: error.message }, error.status)
    }
    console.error(error)
    return c.json({ code: 'INTERNAL', message: 'Internal error' }, 500)
  })
  return app
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

/** The peer address from @hono/node-server's bindings; 'local' in `app.request` tests. */
function clientAddress(env: unknown): string {
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)
    ?.incoming
  return incoming?.socket?.remoteAddress ?? 'local'
}
