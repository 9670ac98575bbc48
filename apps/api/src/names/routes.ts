/**
 * The name registry's endpoints (spec §7 `/v1/profile/*`), behind the rate limit and project:
 * - `POST /v1/profile/account` `{ coin_type, address, message, signature }` → `{ success, account }`:
 *   registers the message's name for the address (checks in `verifyRegistration.ts`) when the
 *   address is an embedded-wallet account of the project (`registrant.ts`; else 403
 *   `NAME_NOT_ALLOWED`) whose user holds fewer than {@link MAX_NAMES_PER_USER} names (else 403
 *   `NAME_LIMIT_REACHED`); 409 `NAME_TAKEN` when someone has it;
 * - `GET /v1/profile/account/{name}?apiVersion=2` → the name's record: `addresses` by coin
 *   type, `attributes`, `registered` and `updated` (seconds); 404 `NAME_NOT_FOUND` (also for a
 *   name under another suffix). A name without a dot is read under the suffix (`alice` →
 *   `alice.porthole.id`);
 * - `GET /v1/profile/reverse/{address}` → the address's names, the primary one first;
 * - `GET /v1/profile/suggestions/{name}?zone` → `{ suggestions: [{ name, registered }] }`: the
 *   name asked for first, then free alternatives (`zone`, when given, must be the suffix's
 *   domain, e.g. `porthole.id`).
 * Errors carry `reasons: [{ name, description }]` (see `NameError.ts`).
 */
import {
  type NameAccount,
  type NameSuggestionsResponse,
  nameLabel,
  nameProblem,
  RegisterNameRequest,
  type RegisterNameResponse,
} from '@porthole/shared'
import type { Hono, MiddlewareHandler } from 'hono'
import type { Address } from 'viem'
import { z } from 'zod'
import type { IdentityResolver } from '../chaindata/ChainData.js'
import type { Db } from '../db/Db.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import { limitBody } from '../http/limitBody.js'
import { parseInput, readJson } from '../http/parseInput.js'
import { NameError } from './NameError.js'
import { registrantOf, type SmartAccountAddressOf } from './registrant.js'
import {
  lookupName,
  MAX_NAMES_PER_USER,
  namesOf,
  registeredNames,
  registerName,
} from './registry.js'
import { alternativeLabels, SUGGESTION_COUNT } from './suggestions.js'
import { checkRegistration, type VerifyNameSignature } from './verifyRegistration.js'

/** Options of {@link nameRoutes}. */
export type NameRoutesOptions = {
  db: Db
  /** The registry's suffix (`.porthole.id`). */
  suffix: string
  /** The signature check (see `createSignatureVerifier`). */
  verify: VerifyNameSignature
  /** The embedded wallet's smart account of an owner (see `createSmartAccountAddressReader`). */
  accountOf: SmartAccountAddressOf
  /** Names per user; default {@link MAX_NAMES_PER_USER}. */
  maxNames?: number
  now?: () => number
}

// The shared request's fields, tightened. Spread rather than `.extend()`: the shared schema is
// zod/mini's, which has no such method (the result is a classic object, as before).
const Register = z.object({
  ...RegisterNameRequest.shape,
  address: z.string().max(64),
  message: z.string().min(1).max(1024),
  signature: z.string().min(1).max(16_384),
})
const ApiVersion = z.object({ apiVersion: z.enum(['2']).optional() })
const Zone = z.object({ zone: z.string().max(255).optional() })
const AddressParam = z
  .string()
  .regex(/^(0x)?[0-9a-fA-F]{40}$/, 'not an EVM address (40 hex digits, optional 0x)')
  .transform((value) => `0x${value.replace(/^0x/, '')}`.toLowerCase())

/**
 * Mounts the name endpoints.
 *
 * @example
 * nameRoutes(app, guard, { db, suffix: '.porthole.id', verify: createSignatureVerifier(upstreams) })
 */
export function nameRoutes(
  app: Hono<AppEnv>,
  guard: readonly MiddlewareHandler<AppEnv>[],
  {
    db,
    suffix,
    verify,
    accountOf,
    maxNames = MAX_NAMES_PER_USER,
    now = Date.now,
  }: NameRoutesOptions,
): void {
  app.use('/v1/profile/*', ...guard)

  /** The full name of a path parameter: lower-cased, the suffix added to a bare label, checked. */
  const fullName = (raw: string): string => {
    const lower = raw.trim().toLowerCase()
    const name = lower.includes('.') ? lower : `${lower}${suffix}`
    const label = nameLabel(name, suffix)
    if (label === null) throw new NameError('INVALID_NAME', 'wrongSuffix', { values: { suffix } })
    const problem = nameProblem(label)
    if (problem) throw new NameError('INVALID_NAME', problem)
    return name
  }

  app.post('/v1/profile/account', limitBody(32 * 1024), async (c) => {
    const input = parseInput(Register, await readJson(c.req.raw))
    const checked = checkRegistration(input, { suffix, now: now() })
    const projectId = c.var.project.id
    // Who asks, first: a stranger costs an indexed query or two and no chain read.
    const registrant = await registrantOf(db, {
      projectId,
      address: checked.address as Address,
      chainId: checked.chainId,
      message: checked.message,
      signature: checked.signature,
    })
    if (!registrant) throw new NameError('NAME_NOT_ALLOWED', 'notAccount')
    const valid = await verify({
      address: checked.address,
      message: checked.message,
      signature: checked.signature,
      chainId: checked.chainId,
    })
    if (!valid) throw new NameError('INVALID_NAME_REGISTRATION', 'badSignature')
    if (!(await registrant.confirm(accountOf)))
      throw new NameError('NAME_NOT_ALLOWED', 'notAccount')
    const result = await registerName(db, {
      name: checked.name,
      coinType: checked.coinType,
      address: checked.address,
      message: checked.message,
      signature: checked.signature,
      projectId,
      userId: registrant.userId,
      maxNames,
      now: now(),
    })
    if (result === 'taken') throw new NameError('NAME_TAKEN', 'taken')
    if (result === 'limit')
      throw new NameError('NAME_LIMIT_REACHED', 'tooManyNames', {
        values: { max: String(maxNames) },
      })
    const account = (await lookupName(db, checked.name)) as NameAccount
    return c.json({ success: true, account } satisfies RegisterNameResponse)
  })

  app.get('/v1/profile/account/:name', async (c) => {
    parseInput(ApiVersion, { apiVersion: c.req.query('apiVersion') })
    // Any name may be asked for: one this registry could not hold is simply not found.
    const raw = parseInput(z.string().min(1).max(255), c.req.param('name')).trim().toLowerCase()
    const name = raw.includes('.') ? raw : `${raw}${suffix}`
    const account = await lookupName(db, name)
    if (!account) throw new NameError('NAME_NOT_FOUND', 'notFound', { values: { name } })
    return c.json(account)
  })

  app.get('/v1/profile/reverse/:address', async (c) => {
    parseInput(ApiVersion, { apiVersion: c.req.query('apiVersion') })
    const address = parseInput(AddressParam, c.req.param('address'))
    return c.json(await namesOf(db, address))
  })

  app.get('/v1/profile/suggestions/:name', async (c) => {
    const { zone } = parseInput(Zone, { zone: c.req.query('zone') })
    if (zone !== undefined && `.${zone.toLowerCase().replace(/^\./, '')}` !== suffix)
      throw new ApiError('INVALID_REQUEST', {
        details: `zone: ${zone} is not served here (${suffix.slice(1)})`,
      })
    const name = fullName(c.req.param('name'))
    const label = nameLabel(name, suffix) as string
    const alternatives = alternativeLabels(label).map((other) => `${other}${suffix}`)
    const taken = await registeredNames(db, [name, ...alternatives])
    const suggestions: NameSuggestionsResponse['suggestions'] = [
      { name, registered: taken.has(name) },
      ...alternatives
        .filter((other) => !taken.has(other))
        .slice(0, SUGGESTION_COUNT - 1)
        .map((other) => ({ name: other, registered: false })),
    ]
    return c.json({ suggestions } satisfies NameSuggestionsResponse)
  })
}

/**
 * `/v1/identity/{address}` from the registry: the address's primary name (its oldest), and the
 * name's `avatar` attribute when it has one.
 *
 * @example
 * const identity = nameIdentity(db)
 * await identity('0xf39f…') // { name: 'alice.porthole.id', avatar: null }
 */
export function nameIdentity(db: Db): IdentityResolver {
  return async (address) => {
    const [primary] = await namesOf(db, address)
    return { name: primary?.name ?? null, avatar: primary?.attributes.avatar ?? null }
  }
}
