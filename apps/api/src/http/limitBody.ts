import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { ApiError } from '../errors.js'
import type { AppEnv } from './AppEnv.js'

/**
 * Refuses request bodies over `maxSize` bytes with 413 `PAYLOAD_TOO_LARGE`.
 *
 * @example
 * app.post('/auth/v1/email/start', limitBody(4096), handler)
 */
export function limitBody(maxSize: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError('PAYLOAD_TOO_LARGE')
    },
  })
}
