import type { z } from 'zod'
import { ApiError } from '../errors.js'

/**
 * Validates input with a zod schema; on failure throws 400 `INVALID_REQUEST` whose `details`
 * names the offending fields.
 *
 * @example
 * const query = parseInput(WalletsQuery, c.req.query())
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
): z.output<Schema> {
  const parsed = schema.safeParse(input)
  if (parsed.success) return parsed.data
  const details = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'input'}: ${issue.message}`)
    .join('; ')
  throw new ApiError('INVALID_REQUEST', { details })
}

/**
 * Reads a JSON request body: 415 unless `Content-Type` is `application/json` (so browsers must
 * preflight cross-origin posts), 400 `INVALID_REQUEST` when it is not JSON.
 *
 * @example
 * const body = await readJson(c.req.raw)
 */
export async function readJson(request: Request): Promise<unknown> {
  if (!/^application\/json\s*(;|$)/i.test(request.headers.get('content-type') ?? ''))
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', {
      details: 'Content-Type must be application/json',
    })
  const text = await request.text()
  try {
    return JSON.parse(text)
  } catch {
    throw new ApiError('INVALID_REQUEST', { details: 'body: not valid JSON' })
  }
}
