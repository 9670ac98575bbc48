import { ApiError } from '../errors.js'
import type { AuthContext } from './AuthContext.js'
import type { ReservedSend } from './codes.js'
import type { MailMessage } from './mailer.js'

/**
 * Sends a login mail for a reserved send; when SMTP fails the reservation is released (so the
 * user may retry at once), the error is reported, and the caller gets 503 `MAIL_UNAVAILABLE`.
 *
 * @example
 * await deliver(ctx, reserved, codeMail({ to: email, code: reserved.code! }))
 */
export async function deliver(
  ctx: Pick<AuthContext, 'mailer' | 'onError'>,
  reserved: ReservedSend,
  message: MailMessage,
): Promise<void> {
  try {
    await ctx.mailer.send(message)
  } catch (cause) {
    await reserved.release().catch(ctx.onError)
    ctx.onError(cause)
    throw new ApiError('MAIL_UNAVAILABLE', { cause })
  }
}
