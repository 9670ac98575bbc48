import type { Context } from 'hono'
import { ProjectId } from '../projects/Project.js'
import type { AppEnv } from './AppEnv.js'

/** The request's `projectId` query parameter, judged once for every limiter and lookup. */
export type ProjectIdParam =
  | { status: 'missing' }
  | { status: 'malformed' }
  | { status: 'valid'; projectId: string }

/**
 * Reads `projectId` exactly as sent: nothing is trimmed or folded, so `"shop "`, `"\tshop"` and
 * `"shop\u00a0"` are malformed instead of other spellings of `shop` (each would have had a rate
 * limit bucket of its own). Blank is `missing`.
 *
 * @example
 * projectIdParam(c) // { status: 'valid', projectId: 'porthole-demo' }
 */
export function projectIdParam(c: Context<AppEnv>): ProjectIdParam {
  const raw = c.req.query('projectId')
  if (raw === undefined || raw.trim() === '') return { status: 'missing' }
  return ProjectId.safeParse(raw).success
    ? { status: 'valid', projectId: raw }
    : { status: 'malformed' }
}
