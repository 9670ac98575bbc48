/**
 * The recovery key service's HTTP routes. It seals recovery shares for an owner and opens one
 * only after checking the user itself — never on the API's word (the API signs nothing for it):
 * - `POST /v1/recovery/encrypt {projectId, owner, share}` → `{ciphertext}`;
 * - `POST /v1/recovery/approvals {projectId, email, site, devicePublicKey}` → `{approvalId,
 *   expiresAt}` and a mail to the owner with a link to `GET /v1/device/approve?token`, a page that
 *   shows who asks and approves or denies only by its own form's `POST /v1/device/approve`;
 * - `POST /v1/recovery/approvals/status {approvalId, projectId?}` → `{status}`;
 * - `POST /v1/recovery/decrypt {projectId, ciphertext, proof}` → `{share}` with an approved
 *   approval, a fresh ID token or a fresh Sign In With Farcaster message (a Porthole login for
 *   this project, its custody checked in the IdRegistry here, the share sealed for that custody
 *   address), each signed by the wallet frame's device key; the owner is mailed each time it has
 *   an e-mail address (a Farcaster account has none: the API lists the new device on the user's
 *   other devices when it hands out the ciphertext);
 * - `GET /health`.
 * It stores nothing per user but short-lived approvals and replay marks (in memory). The old
 * scheme's bodies (`{ticket, …}`) are refused with `TICKET_NOT_ACCEPTED`.
 */
import { clientAddress, describeUserAgent, isEmail } from '@porthole/shared'
import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { z } from 'zod'
import { type Approvals, createApprovals } from './approvals.js'
import {
  type FarcasterCheck,
  farcasterIdentity,
  InvalidFarcasterSignInError,
  legacyFarcasterIdentity,
  nonceForKey,
  RegistryUnavailableError,
  verifyFarcasterOwner,
} from './farcaster.js'
import { type IdTokenVerifier, InvalidIdTokenError, IssuerUnavailableError } from './idTokens.js'
import { createWindowLimiter } from './limiter.js'
import { approvalMail, type Mailer, recoveredMail } from './mail.js'
import { approvalPage, PAGE_CSP, page } from './pages.js'
import { DevicePublicKey, decryptPayload, thumbprint, verifyProof } from './proof.js'
import { deriveSealKey, type Owner, open, SEAL_VERSION, seal, versionOf } from './seal.js'

/** Requests per client address, and per subject (an e-mail or ID token subject), per minute. */
export const LIMITS = { perSubject: 20, perAddress: 120, windowMs: 60_000 } as const
/** An ID token opens a share only within 10 minutes of the login; sealing takes one of an hour. */
export const ID_TOKEN_MAX_AGE = { decrypt: 600, encrypt: 3600 } as const

/** Options of {@link createRecoveryApp}. */
export type CreateRecoveryAppParameters = {
  masterKey: Uint8Array
  /** This service's public URL (links in mail; the origin its approval form must come from). */
  publicUrl: string
  /** Origins allowed by CORS (the wallet frame's), matched exactly. */
  allowedOrigins: readonly string[]
  mailer: Mailer
  verifyIdToken: IdTokenVerifier
  /**
   * How Farcaster owners are checked (the IdRegistry's chain and reader); absent or null:
   * Farcaster owners are refused (`FARCASTER_NOT_CONFIGURED`).
   */
  farcaster?: FarcasterCheck | null
  /**
   * How many proxies in front of the service append to `X-Forwarded-For`: the client address
   * (rate limits, mails) is then the hop that many places from the right. Default 0: the socket's
   * peer, and the header is ignored.
   */
  trustProxy?: number
  /** Reports unexpected errors (mail that could not be sent after a decrypt). */
  onError?: (error: unknown) => void
  now?: () => number
}

class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly fields: Record<string, number | string> = {},
  ) {
    super(message)
  }
}

const ProjectId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'not a project id')
const Email = z.string().trim().toLowerCase().refine(isEmail, 'not an e-mail address')
const Base64 = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64')
/** A share of up to 4096 base64 characters seals into about 5,500. */
const Share = Base64(4096)
const Ciphertext = Base64(8192)
const Base64url = (max: number) =>
  z
    .string()
    .min(16)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url')
const IdToken = z
  .string()
  .max(8192)
  .regex(/^[\w-]+\.[\w-]+\.[\w-]+$/, 'must be a JWT')
/** A Sign In With Farcaster message and its custody signature. */
const FarcasterMessage = z.string().min(1).max(4096)
const HexSignature = z.string().regex(/^0x[0-9a-fA-F]{130,260}$/, 'must be a hex signature')
const Origin = z.string().refine((value) => {
  try {
    return /^https?:$/.test(new URL(value).protocol) && new URL(value).origin === value
  } catch {
    return false
  }
}, 'must be an origin like https://app.example')

const EncryptBody = z.strictObject({
  projectId: ProjectId,
  owner: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('email'), email: Email }),
    z.strictObject({ kind: z.literal('oidc'), idToken: IdToken }),
    z.strictObject({
      kind: z.literal('farcaster'),
      message: FarcasterMessage,
      signature: HexSignature,
    }),
  ]),
  share: Share,
})
const ApprovalBody = z.strictObject({
  projectId: ProjectId,
  email: Email,
  site: Origin,
  devicePublicKey: DevicePublicKey,
})
const StatusBody = z.strictObject({
  approvalId: Base64url(64),
  /** Optional: when given, the approval must belong to this project. */
  projectId: ProjectId.optional(),
})
const DecryptBody = z.strictObject({
  projectId: ProjectId,
  /** The host site the wallet frame serves (named in the notice mail). */
  site: Origin.optional(),
  ciphertext: Ciphertext,
  proof: z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('email'),
      approvalId: Base64url(64),
      signature: Base64url(128),
    }),
    z.strictObject({
      kind: z.literal('oidc'),
      idToken: IdToken,
      publicKey: DevicePublicKey,
      signature: Base64url(128),
    }),
    z.strictObject({
      kind: z.literal('farcaster'),
      message: FarcasterMessage,
      messageSignature: HexSignature,
      publicKey: DevicePublicKey,
      signature: Base64url(128),
    }),
  ]),
})

const emailIdentity = (email: string) => `email:${email}`
const oidcIdentity = (issuer: string, subject: string) => `oidc:${issuer}|${subject}`

/**
 * Builds the Hono app (the server wraps it; tests may call `app.request`).
 *
 * @example
 * const app = createRecoveryApp({ masterKey, publicUrl, allowedOrigins, mailer, verifyIdToken })
 */
export function createRecoveryApp(parameters: CreateRecoveryAppParameters): Hono {
  const { allowedOrigins, mailer, verifyIdToken, now = Date.now, trustProxy = 0 } = parameters
  const onError = parameters.onError ?? ((error) => console.error('[recovery]', error))
  const publicUrl = parameters.publicUrl.replace(/\/+$/, '')
  const ownOrigin = new URL(publicUrl).origin
  const key = deriveSealKey(parameters.masterKey)
  const bySubject = createWindowLimiter(LIMITS.perSubject, LIMITS.windowMs, now)
  const byAddress = createWindowLimiter(LIMITS.perAddress, LIMITS.windowMs, now)
  const approvals: Approvals = createApprovals(now)
  /** ID tokens already used to open a share (until they would be too old anyway). */
  const usedTokens = new Map<string, number>()
  const app = new Hono()

  const limit = (c: Context, subject?: string) => {
    const wait = byAddress(clientAddressOf(c, trustProxy)) || (subject ? bySubject(subject) : 0)
    if (wait)
      throw new HttpError(429, 'RATE_LIMITED', 'Too many recovery requests', { retryAfter: wait })
  }
  const requestDetails = (c: Context, site: string) => ({
    site,
    device: describeUserAgent(c.req.header('user-agent')),
    ip: clientAddressOf(c, trustProxy),
    time: now(),
  })

  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store')
    c.header('X-Content-Type-Options', 'nosniff')
    // `same-origin`, not `no-referrer`: the latter makes browsers send `Origin: null` on the
    // approval form's POST, which must carry this service's origin. The pages load nothing else.
    c.header('Referrer-Policy', 'same-origin')
    await next()
  })
  app.use('/v1/recovery/*', async (c, next) => {
    const origin = c.req.header('origin')
    if (origin !== undefined && !allowedOrigins.includes(origin))
      throw new HttpError(403, 'ORIGIN_NOT_ALLOWED', `Origin ${origin} is not allowed`)
    if (origin) {
      c.header('Access-Control-Allow-Origin', origin)
      c.header('Vary', 'Origin')
    }
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

  app.post('/v1/recovery/encrypt', async (c) => {
    const body = parse(EncryptBody, noTicket(await json(c.req.raw)))
    let identity: string
    if (body.owner.kind === 'email') identity = emailIdentity(body.owner.email)
    else if (body.owner.kind === 'farcaster') {
      const signIn = await farcasterVerified(
        body.owner.message,
        body.owner.signature,
        ID_TOKEN_MAX_AGE.encrypt,
        body.projectId,
      )
      identity = farcasterIdentity(signIn.fid, signIn.custody)
    } else {
      const token = await verified(body.owner.idToken, ID_TOKEN_MAX_AGE.encrypt)
      identity = oidcIdentity(token.issuer, token.subject)
    }
    limit(c, identity)
    return c.json({ ciphertext: seal(key, body.share, { projectId: body.projectId, identity }) })
  })

  app.post('/v1/recovery/approvals', async (c) => {
    const body = parse(ApprovalBody, await json(c.req.raw))
    limit(c, emailIdentity(body.email))
    const wait = approvals.cooldown(body.projectId, body.email)
    if (wait)
      throw new HttpError(429, 'COOLDOWN', `Please try again after ${wait} seconds`, {
        retryAfter: wait,
      })
    const request = requestDetails(c, body.site)
    const { approval, token } = approvals.create({
      projectId: body.projectId,
      email: body.email,
      site: body.site,
      device: request.device,
      ip: request.ip,
      devicePublicKey: body.devicePublicKey,
    })
    const link = `${publicUrl}/v1/device/approve?${new URLSearchParams({ token })}`
    try {
      await mailer.send(approvalMail(body.email, link, request))
    } catch (cause) {
      approvals.discard(approval)
      onError(cause)
      throw new HttpError(503, 'MAIL_UNAVAILABLE', 'Could not send the e-mail')
    }
    return c.json({ approvalId: approval.id, expiresAt: approval.expiresAt })
  })

  app.post('/v1/recovery/approvals/status', async (c) => {
    const body = parse(StatusBody, await json(c.req.raw))
    limit(c)
    const found = approvals.status(body.approvalId)
    if (!found || (body.projectId !== undefined && found.approval.projectId !== body.projectId))
      throw new HttpError(404, 'UNKNOWN_APPROVAL', 'No such approval')
    return c.json({ status: found.status })
  })

  app.get('/v1/device/approve', (c) => {
    const token = c.req.query('token') ?? ''
    const approval = /^[A-Za-z0-9_-]{43}$/.test(token) ? approvals.pendingByToken(token) : null
    if (!approval) return expired(c)
    return c.html(
      approvalPage({
        email: approval.email,
        site: approval.site,
        device: approval.device,
        ip: approval.ip,
        createdAt: approval.createdAt,
        token,
      }),
      200,
      { 'Content-Security-Policy': PAGE_CSP },
    )
  })

  app.post('/v1/device/approve', async (c) => {
    // Only this service's own page decides: a form posted from elsewhere (or a script) is not
    // the owner clicking in the page the mail opened.
    if (c.req.header('origin') !== ownOrigin)
      return c.html(page('Not allowed', ['Open the link from the e-mail and choose there.']), 403, {
        'Content-Security-Policy': PAGE_CSP,
      })
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
    const token = typeof form.token === 'string' ? form.token : ''
    const decision =
      form.decision === 'approve' ? 'approved' : form.decision === 'deny' ? 'denied' : null
    const approval =
      decision && /^[A-Za-z0-9_-]{43}$/.test(token) ? approvals.decide(token, decision) : null
    if (!approval) return expired(c)
    return c.html(
      decision === 'approved'
        ? page('Device approved', [
            `The device is approved for ${approval.site}. Return to it: your wallet is being set up there.`,
          ])
        : page('Device denied', [
            'The device was denied and cannot use your wallet. If you did not ask for it, nothing else is needed.',
          ]),
      200,
      { 'Content-Security-Policy': PAGE_CSP },
    )
  })

  app.post('/v1/recovery/decrypt', async (c) => {
    const body = parse(DecryptBody, noTicket(await json(c.req.raw)))
    const version = versionOf(body.ciphertext)
    if (version !== SEAL_VERSION)
      throw new HttpError(
        400,
        'UNSUPPORTED_CIPHERTEXT',
        `This recovery share was sealed by an older scheme (version ${version ?? 'none'}) and cannot be opened`,
      )
    const { proof } = body
    let owner: Owner
    if (proof.kind === 'email') {
      const found = approvals.status(proof.approvalId)
      if (!found || found.approval.projectId !== body.projectId)
        throw new HttpError(404, 'UNKNOWN_APPROVAL', 'No such approval')
      const { approval, status } = found
      limit(c, emailIdentity(approval.email))
      if (status !== 'approved')
        throw new HttpError(403, 'NOT_APPROVED', `The device approval is ${status}`)
      const payload = decryptPayload(approval.id, body.ciphertext)
      if (!(await verifyProof(approval.devicePublicKey, payload, proof.signature)))
        throw new HttpError(
          403,
          'INVALID_PROOF',
          'The request is not signed by the approved device',
        )
      owner = { projectId: body.projectId, identity: emailIdentity(approval.email) }
      const share = open(key, body.ciphertext, owner)
      if (share === null) throw decryptFailed()
      if (!approvals.use(approval))
        throw new HttpError(403, 'NOT_APPROVED', 'The device approval is used')
      await notice(c, { to: approval.email, site: approval.site })
      return c.json({ share })
    }
    if (proof.kind === 'farcaster') {
      // A Porthole login for this project only: one the user approved for another project
      // (another wallet) opens nothing here.
      const signIn = await farcasterVerified(
        proof.message,
        proof.messageSignature,
        ID_TOKEN_MAX_AGE.decrypt,
        body.projectId,
      )
      owner = { projectId: body.projectId, identity: farcasterIdentity(signIn.fid, signIn.custody) }
      limit(c, owner.identity)
      // The site the frame says it serves is the one the user approved, or nothing.
      if (body.site !== undefined && body.site !== signIn.site)
        throw new HttpError(
          403,
          'INVALID_PROOF',
          `The Farcaster message was approved for ${signIn.site}, not ${body.site}`,
        )
      if (signIn.nonce !== nonceForKey(thumbprint(proof.publicKey)))
        throw new HttpError(
          403,
          'INVALID_PROOF',
          'The Farcaster message was not signed for this device key',
        )
      const payload = decryptPayload(signIn.nonce, body.ciphertext)
      if (!(await verifyProof(proof.publicKey, payload, proof.signature)))
        throw new HttpError(403, 'INVALID_PROOF', 'The request is not signed by the device key')
      const replayKey = `farcaster\n${signIn.nonce}`
      for (const [k, until] of usedTokens) if (until <= now()) usedTokens.delete(k)
      if (usedTokens.has(replayKey))
        throw new HttpError(403, 'TOKEN_USED', 'This Farcaster sign-in was already used')
      // Sealed for this custody address; a share of before opens for the fid's custody of now.
      const share =
        open(key, body.ciphertext, owner) ??
        open(key, body.ciphertext, {
          projectId: body.projectId,
          identity: legacyFarcasterIdentity(signIn.fid),
        })
      if (share === null) throw decryptFailed()
      usedTokens.set(replayKey, now() + ID_TOKEN_MAX_AGE.decrypt * 1000)
      // A Farcaster account has no e-mail address to tell: the API, which handed this device the
      // ciphertext, lists it on the user's other devices.
      return c.json({ share })
    }
    const token = await verified(proof.idToken, ID_TOKEN_MAX_AGE.decrypt)
    owner = { projectId: body.projectId, identity: oidcIdentity(token.issuer, token.subject) }
    limit(c, owner.identity)
    if (token.nonce !== thumbprint(proof.publicKey))
      throw new HttpError(403, 'INVALID_PROOF', 'The ID token was not issued for this device key')
    const payload = decryptPayload(token.nonce, body.ciphertext)
    if (!(await verifyProof(proof.publicKey, payload, proof.signature)))
      throw new HttpError(403, 'INVALID_PROOF', 'The request is not signed by the device key')
    const replayKey = `${token.issuer}\n${token.id}`
    for (const [k, until] of usedTokens) if (until <= now()) usedTokens.delete(k)
    if (usedTokens.has(replayKey))
      throw new HttpError(403, 'TOKEN_USED', 'This ID token was already used')
    const share = open(key, body.ciphertext, owner)
    if (share === null) throw decryptFailed()
    usedTokens.set(replayKey, now() + ID_TOKEN_MAX_AGE.decrypt * 1000)
    await notice(c, { to: token.email, site: body.site ?? 'not given' })
    return c.json({ share })
  })

  app.get('/health', (c) => c.json({ ok: true }))

  app.notFound((c) => c.json({ code: 'NOT_FOUND', message: 'Not found' }, 404))
  app.onError((error, c) => {
    if (error instanceof HttpError) {
      if (error.fields.retryAfter) c.header('Retry-After', String(error.fields.retryAfter))
      return c.json({ code: error.code, message: error.message, ...error.fields }, error.status)
    }
    onError(error)
    return c.json({ code: 'INTERNAL', message: 'Internal error' }, 500)
  })

  async function verified(idToken: string, maxAgeSeconds: number) {
    try {
      return await verifyIdToken(idToken, { maxAgeSeconds })
    } catch (error) {
      if (error instanceof InvalidIdTokenError)
        throw new HttpError(401, 'INVALID_ID_TOKEN', error.message, { reason: error.reason })
      if (error instanceof IssuerUnavailableError) {
        onError(error)
        throw new HttpError(503, 'ISSUER_UNAVAILABLE', error.message)
      }
      throw error
    }
  }

  async function farcasterVerified(
    message: string,
    signature: string,
    maxAgeSeconds: number,
    projectId: string,
  ) {
    const check = parameters.farcaster
    if (!check)
      throw new HttpError(400, 'FARCASTER_NOT_CONFIGURED', 'Farcaster owners are not accepted here')
    try {
      return await verifyFarcasterOwner({
        message,
        signature: signature as `0x${string}`,
        projectId,
        maxAgeSeconds,
        check,
        now: now(),
      })
    } catch (error) {
      if (error instanceof InvalidFarcasterSignInError)
        throw new HttpError(401, 'INVALID_FARCASTER_SIGN_IN', error.message, {
          reason: error.reason,
        })
      if (error instanceof RegistryUnavailableError) {
        onError(error)
        throw new HttpError(503, 'REGISTRY_UNAVAILABLE', error.message)
      }
      throw error
    }
  }

  async function notice(c: Context, to: { to: string | null; site: string }) {
    if (!to.to) return
    await mailer.send(recoveredMail(to.to, requestDetails(c, to.site))).catch(onError)
  }

  function expired(c: Context) {
    return c.html(
      page('Link expired', [
        'This approval link is invalid, expired or already used. Start the sign-in again on the site.',
      ]),
      400,
      { 'Content-Security-Policy': PAGE_CSP },
    )
  }

  return app
}

const decryptFailed = () =>
  new HttpError(400, 'DECRYPT_FAILED', 'The recovery share could not be decrypted')

/**
 * Refuses the old scheme's bodies: the API's recovery tickets open nothing here any more.
 */
function noTicket(body: unknown): unknown {
  if (body && typeof body === 'object' && 'ticket' in body)
    throw new HttpError(
      400,
      'TICKET_NOT_ACCEPTED',
      'Recovery tickets from the API are no longer accepted: the recovery service checks the user itself (an approval it mailed, or an ID token bound to the device key)',
    )
  return body
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

/**
 * The client's address: the socket's peer (from @hono/node-server's bindings; 'local' in
 * `app.request` tests), or behind `trustProxy` proxies the `X-Forwarded-For` hop that many places
 * from the right — the entries left of it are written by the client and prove nothing.
 */
function clientAddressOf(c: Context, trustProxy: number): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)
    ?.incoming
  return clientAddress({
    peer: incoming?.socket?.remoteAddress ?? 'local',
    forwardedFor: c.req.header('x-forwarded-for'),
    trustedProxies: trustProxy,
  })
}
