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

/**
 * The site the user is on: the host page's origin as the modal's handshake verified it (the
 * wallet frame sends it). Routes check it is one the project allows.
 */
export const Site = z
  .string()
  .max(300)
  .refine((value) => {
    try {
      const url = new URL(value)
      return /^https?:$/.test(url.protocol) && url.origin === value
    } catch {
      return false
    }
  }, 'Expected an origin such as https://app.example')

/** Body of `POST /auth/v1/email/start`: `site` is named in the code mail. */
export const EmailStartBody = z.object({ email: Email, deviceId: DeviceId, site: Site })

/** Body of `POST /auth/v1/email/verify`. */
export const EmailVerifyBody = z.object({ email: Email, deviceId: DeviceId, code: Code })

/**
 * The OpenID nonce the wallet frame chose: the RFC 7638 thumbprint (base64url SHA-256, 43
 * characters) of a key only the frame holds, so the ID token proves the frame's login to the
 * recovery service and is useless to anyone else who sees it (this API included).
 */
export const Nonce = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Expected a base64url SHA-256')

/** Body of `POST /auth/v1/social/start`. */
export const SocialStartBody = z.object({
  provider: AuthSocialProvider,
  deviceId: DeviceId,
  nonce: Nonce,
})

/** Body of `POST /auth/v1/social/exchange`. */
export const SocialExchangeBody = z.object({ result: Token, deviceId: DeviceId })

/** A share set id (the wallet frame makes one per split). */
export const SetId = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/)

/**
 * The recovery share as stored: sealed by the recovery key service (`automatic`) or under the
 * PRF secret of the user's passkey (`passkey`, with the credential id to ask for).
 */
export const RecoveryShare = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('automatic'), ciphertext: Base64Text }),
  z.object({
    kind: z.literal('passkey'),
    ciphertext: Base64Text,
    credentialId: z
      .string()
      .min(16)
      .max(1024)
      .regex(/^[A-Za-z0-9_-]+$/, 'Expected base64url'),
  }),
])
/** A stored recovery share. */
export type RecoveryShare = z.infer<typeof RecoveryShare>

/**
 * Body of `PUT /auth/v1/shares`: a new share set, signed (EIP-191) by the wallet's own key over
 * {@link sharesMessage}, so a session alone can neither brick a wallet nor swap its shares.
 */
export const SharesBody = z.object({
  setId: SetId,
  /** The set this one replaces (`null` for the first set of a user). */
  replaces: SetId.nullable(),
  /** The device share's x coordinate: each new device gets the share at this point. */
  deviceX: z.number().int().min(1).max(255),
  address: EvmAddress,
  authShare: Base64Text,
  recovery: RecoveryShare,
  signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'Expected a 65-byte signature'),
  /** The host page the wallet frame serves (for the notice mail). */
  site: z
    .url({ protocol: /^https?$/ })
    .max(300)
    .optional(),
})
/** The body of `PUT /auth/v1/shares`. */
export type SharesBody = z.infer<typeof SharesBody>

/** Body of `POST /auth/v1/devices`: the host page the wallet frame serves. */
export const DeviceNoticeBody = z.object({
  site: z
    .url({ protocol: /^https?$/ })
    .max(300)
    .optional(),
})

/** Body of `POST /auth/v1/devices/revoke`: a device of the list, removed by the wallet's key. */
export const DeviceRevokeBody = z.object({
  device: z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'Expected a device id of the list'),
  signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'Expected a 65-byte signature'),
})

/** Body of `POST /auth/v1/email/update/start`. */
export const EmailUpdateStartBody = z.object({ newEmail: Email })

/** Body of `POST /auth/v1/email/update/verify`. */
export const EmailUpdateVerifyBody = z.object({
  stage: z.enum(['primary', 'secondary']),
  code: Code,
})
