/** Request schemas of the auth routes (spec §5 validation). */
import { isEmail, isEvmAddress } from '@porthole/shared'
import { z } from 'zod'
import { AuthSocialProvider } from '../config.js'

/** An e-mail in a valid format (spec §5), trimmed and lower-cased. */
export const Email = z
  .string()
  .trim()
  .max(254)
  .refine(isEmail, 'Invalid e-mail format')
  .transform((email) => email.toLowerCase())

/** The wallet frame's device id (a UUID per storage partition). */
export const DeviceId = z
  .string()
  .min(8)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/)

/** A 6-digit one-time code. */
export const Code = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Expected 6 digits')

/** A random token this API handed out (base64url, 43 characters). */
export const Token = z.string().regex(/^[A-Za-z0-9_-]{43}$/)

/** An EVM address (spec §5: 40 hex characters, optional 0x), as `0x` + lower case. */
export const EvmAddress = z
  .string()
  .refine(isEvmAddress, 'Invalid EVM address')
  .transform((address) => `0x${address.replace(/^0x/, '').toLowerCase()}`)

/** Base64 or base64url text of at most 4 KiB. */
export const Base64Text = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^[A-Za-z0-9+/_-]+={0,2}$/, 'Expected base64')

/** Body of `POST /auth/v1/email/start` and `POST /auth/v1/device/status`. */
export const EmailStartBody = z.object({ email: Email, deviceId: DeviceId })

/** Body of `POST /auth/v1/email/verify`. */
export const EmailVerifyBody = z.object({ email: Email, deviceId: DeviceId, code: Code })

/** Query of `GET /auth/v1/device/approve`. */
export const DeviceApproveQuery = z.object({ token: Token })

/** Body of `POST /auth/v1/social/start`. */
export const SocialStartBody = z.object({ provider: AuthSocialProvider, deviceId: DeviceId })

/** Body of `POST /auth/v1/social/exchange`. */
export const SocialExchangeBody = z.object({ result: Token, deviceId: DeviceId })

/** Body of `PUT /auth/v1/shares`. */
export const SharesBody = z.object({
  setId: z.string().min(1).max(64),
  address: EvmAddress,
  authShare: Base64Text,
  recoveryCiphertext: Base64Text,
})

/** Body of `POST /auth/v1/email/update/start`. */
export const EmailUpdateStartBody = z.object({ newEmail: Email })

/** Body of `POST /auth/v1/email/update/verify`. */
export const EmailUpdateVerifyBody = z.object({
  stage: z.enum(['primary', 'secondary']),
  code: Code,
})
