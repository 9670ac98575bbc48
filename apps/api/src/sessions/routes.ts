/**
 * Smart-session endpoints (spec §7 `/v1/sessions/*`): the session keys (ERC-7715 grants) of a
 * smart account, as the modal registered them, with what the chain says of each. `{address}` is
 * an eip155 CAIP-10 account id; a session's pci is its key's address (lower-case hex).
 * - `POST /v1/sessions/{address}` `{ pci, signer, permissions, policies?, expiry, origin?,
 *   signature }` → the session as listed: stored when the account signed (EIP-191)
 *   {@link registerSessionMessage} — so the app's origin and the permissions shown in listings
 *   are the account's word, not any caller's. The wallet registers a grant before it installs
 *   it on chain (a session the list cannot show is never installed), so the chain need not
 *   hold it yet: listings read what the chain holds each time;
 * - `GET /v1/sessions/{address}` → `{ pcis }`, newest first, each read fresh from the chain;
 * - `POST /v1/sessions/{address}/revoke` `{ pci, signature }` → `{ success: true }`: the
 *   account's EIP-191 signature of `Revoke session ${pci}` (ERC-1271 / ERC-6492 on its chain)
 *   marks the session revoked. The on-chain revoke is the wallet's own user operation.
 */

import { registerSessionMessage, revokeSessionMessage } from '@porthole/shared/sessionPermissions'
import type { Context, Hono, MiddlewareHandler } from 'hono'
import { type Address, getAddress, type Hex } from 'viem'
import { z } from 'zod'
import type { DbExecutor } from '../db/Db.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import { limitBody } from '../http/limitBody.js'
import { parseInput, readJson } from '../http/parseInput.js'
import type { VerifyNameSignature } from '../names/verifyRegistration.js'
import type { OnChainSession, SessionReader } from './readSessions.js'
import {
  getSession,
  listSessions,
  revokeSession,
  type StoredSession,
  saveSession,
} from './store.js'

/** The largest request body of the session endpoints, in bytes (413 above it). */
export const MAX_SESSION_BODY = 16 * 1024

/**
 * A session's pci: its key's address, `0x` and 40 lower-case hex digits.
 *
 * @example
 * Pci.parse('0x70997970c51812dc3a010c7d01b50e0d17dc79c8')
 */
export const Pci = z
  .string()
  .regex(/^0x[0-9a-f]{40}$/, '0x and 40 lower-case hex digits (the session key address)')

/** An ERC-7715 object (signer, permission, policy): JSON with a `type`. */
const Typed = z.looseObject({ type: z.string().min(1).max(128) })

/**
 * Body of `POST /v1/sessions/{address}`: the grant the dapp asked for and its key.
 *
 * @example
 * parseInput(RegisterSessionBody, { pci, signer: { type: 'key', data: { id } }, permissions, expiry })
 */
export const RegisterSessionBody = z.object({
  pci: Pci,
  /** The app the session was granted to (its origin), as the wallet showed it. */
  origin: z
    .string()
    .max(512)
    .regex(/^https?:\/\/[^/\s]+$/, 'an origin (scheme://host[:port])')
    .optional(),
  /** The account's EIP-191 signature of {@link registerSessionMessage}. */
  signature: z
    .string()
    .regex(/^0x(?:[0-9a-fA-F]{2})+$/, 'hex')
    .max(MAX_SESSION_BODY),
  signer: Typed,
  permissions: z.array(Typed).min(1).max(64),
  policies: z.array(Typed).max(64).optional(),
  expiry: z
    .number()
    .int()
    .positive()
    .max(2 ** 48 - 1),
})

/**
 * Body of `POST /v1/sessions/{address}/revoke`.
 *
 * @example
 * parseInput(RevokeSessionBody, { pci, signature: await account.signMessage({ message: `Revoke session ${pci}` }) })
 */
export const RevokeSessionBody = z.object({
  pci: Pci,
  signature: z
    .string()
    .regex(/^0x(?:[0-9a-fA-F]{2})+$/, 'hex')
    .max(MAX_SESSION_BODY),
})

/** The messages the account signs, shared with the wallet that signs them. */
export { registerSessionMessage, revokeSessionMessage }

/** What the chain holds for a session, amounts as decimal strings. */
export type SmartSessionOnChain = {
  active: boolean
  target: Address
  recipient: Address
  spendLimit: string
  spent: string
  /** Unix seconds. */
  validUntil: number
  /** What the target is: how `spendLimit` and `spent` count (base units; NFTs for erc721). */
  kind: 'other' | 'erc20' | 'erc721' | 'erc1155'
  /** The only paymaster of the key's operations. */
  paymaster: Address
  /** The target's symbol and decimals (0 for a collection), null when it is no token. */
  token: { symbol: string; decimals: number } | null
}

/** A session as the endpoints answer it. */
export type SmartSession = {
  pci: string
  /** CAIP-2. */
  chainId: string
  /** CAIP-10, the address checksummed. */
  address: string
  /** The project that registered it, and the registering request's `Origin` (or null). */
  project: { id: string; origin: string | null }
  signer: unknown
  permissions: unknown
  policies: unknown
  /** Unix seconds. */
  expiry: number
  /** ISO 8601. */
  createdAt: string
  /** ISO 8601, or null. */
  revokedAt: string | null
  /** Read when answering; null when the chain did not answer. */
  onChain: SmartSessionOnChain | null
  /**
   * `revoked` (here, or not active on chain: revoked there, or its install never landed), else
   * `expired` (expiry passed), else `active`.
   */
  status: 'active' | 'expired' | 'revoked'
}

/** Answer of `GET /v1/sessions/{address}`. */
export type SmartSessionsResponse = { pcis: SmartSession[] }

/** Options of {@link sessionRoutes}. */
export type SessionRoutesOptions = {
  db: DbExecutor
  /** Reads `sessions(key)` of accounts (see `createSessionReader`). */
  reader: SessionReader
  /** The signature check (see `createSignatureVerifier`: EOA, ERC-1271, ERC-6492). */
  verify: VerifyNameSignature
  /** Milliseconds since the epoch. */
  now?: () => number
}

/** An account id of a path: eip155 CAIP-10, the chain id a decimal safe integer. */
type AccountId = { chainId: number; caip2: string; address: Address }

const ACCOUNT_ID = /^eip155:([1-9][0-9]{0,15}):(0x[0-9a-fA-F]{40})$/

function accountIdOf(c: Context<AppEnv>): AccountId {
  const raw = c.req.param('address') ?? ''
  const match = ACCOUNT_ID.exec(raw)
  const chainId = Number(match?.[1])
  if (!match || !Number.isSafeInteger(chainId))
    throw new ApiError('INVALID_ACCOUNT_ID', { details: `address: ${raw.slice(0, 120)}` })
  return { chainId, caip2: `eip155:${chainId}`, address: getAddress(match[2] as string) }
}

/** The request's `Origin`, kept when it is a plausible one. */
function originOf(c: Context<AppEnv>): string | null {
  const origin = c.req.header('origin')
  return origin && origin.length <= 512 ? origin : null
}

function toSmartSession(
  stored: StoredSession,
  onChain: OnChainSession | null,
  nowMs: number,
): SmartSession {
  const revoked = stored.revokedAt !== null || (onChain !== null && !onChain.active)
  return {
    pci: stored.pci,
    chainId: stored.chainId,
    address: `${stored.chainId}:${getAddress(stored.address)}`,
    project: { id: stored.projectId, origin: stored.origin },
    signer: stored.signer,
    permissions: stored.permissions,
    policies: stored.policies,
    expiry: stored.expiry,
    createdAt: new Date(stored.createdAt).toISOString(),
    revokedAt: stored.revokedAt === null ? null : new Date(stored.revokedAt).toISOString(),
    onChain: onChain && {
      active: onChain.active,
      target: onChain.target,
      recipient: onChain.recipient,
      spendLimit: onChain.spendLimit.toString(),
      spent: onChain.spent.toString(),
      validUntil: onChain.validUntil,
      kind: onChain.kind,
      paymaster: onChain.paymaster,
      token: onChain.token,
    },
    status: revoked ? 'revoked' : stored.expiry * 1000 <= nowMs ? 'expired' : 'active',
  }
}

/**
 * Mounts the smart-session endpoints behind `guard` (rate limit and project).
 *
 * @example
 * sessionRoutes(app, guard, {
 *   db,
 *   reader: createSessionReader(config.upstreams),
 *   verify: createSignatureVerifier(config.upstreams),
 * })
 */
export function sessionRoutes(
  app: Hono<AppEnv>,
  guard: readonly MiddlewareHandler<AppEnv>[],
  { db, reader, verify, now = Date.now }: SessionRoutesOptions,
): void {
  app.use('/v1/sessions/*', ...guard)

  app.post('/v1/sessions/:address', limitBody(MAX_SESSION_BODY), async (c) => {
    const account = accountIdOf(c)
    const input = parseInput(RegisterSessionBody, await readJson(c.req.raw))
    if (!reader.supports(account.chainId))
      throw new ApiError('UNSUPPORTED_CHAIN', {
        details: `${account.caip2} is not supported for sessions`,
      })
    const [onChain] = await reader.read({
      chainId: account.chainId,
      account: account.address,
      keys: [input.pci as Hex],
    })
    if (!onChain)
      throw new ApiError('CHAIN_UNAVAILABLE', { details: `${account.caip2} did not answer` })
    const signed = await verify({
      address: account.address,
      message: registerSessionMessage(input),
      signature: input.signature as Hex,
      chainId: account.chainId,
    })
    if (!signed) throw new ApiError('INVALID_SESSION_SIGNATURE')
    const stored: StoredSession = {
      chainId: account.caip2,
      address: account.address.toLowerCase(),
      pci: input.pci,
      projectId: c.var.project.id,
      origin: input.origin ?? originOf(c),
      signer: input.signer,
      permissions: input.permissions,
      policies: input.policies ?? [],
      expiry: input.expiry,
      createdAt: now(),
      revokedAt: null,
    }
    if (!(await saveSession(db, stored)))
      throw new ApiError('SESSION_REVOKED', {
        details: 'this grant was revoked; a new grant can be registered',
      })
    return c.json(toSmartSession(stored, onChain, now()))
  })

  app.get('/v1/sessions/:address', async (c) => {
    const account = accountIdOf(c)
    const stored = await listSessions(db, {
      chainId: account.caip2,
      address: account.address,
    })
    const onChain = stored.length
      ? await reader.read({
          chainId: account.chainId,
          account: account.address,
          keys: stored.map((session) => session.pci as Hex),
        })
      : []
    const at = now()
    return c.json({
      pcis: stored.map((session, i) => toSmartSession(session, onChain[i] ?? null, at)),
    } satisfies SmartSessionsResponse)
  })

  app.post('/v1/sessions/:address/revoke', limitBody(MAX_SESSION_BODY), async (c) => {
    const account = accountIdOf(c)
    const input = parseInput(RevokeSessionBody, await readJson(c.req.raw))
    const key = { chainId: account.caip2, address: account.address, pci: input.pci }
    if (!(await getSession(db, key)))
      throw new ApiError('SESSION_NOT_FOUND', {
        details: `no session ${input.pci} for ${account.caip2}:${account.address}`,
      })
    const valid = await verify({
      address: account.address,
      message: revokeSessionMessage(input.pci),
      signature: input.signature as Hex,
      chainId: account.chainId,
    })
    if (!valid) throw new ApiError('INVALID_SESSION_SIGNATURE')
    await revokeSession(db, { ...key, at: now() })
    return c.json({ success: true })
  })
}
