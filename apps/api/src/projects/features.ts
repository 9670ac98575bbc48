import { z } from 'zod'

/** A social login provider the modal can offer (spec §5, plus farcaster). */
export const SocialProvider = z.enum([
  'google',
  'x',
  'discord',
  'farcaster',
  'github',
  'apple',
  'facebook',
])
/** A social login provider. */
export type SocialProvider = z.infer<typeof SocialProvider>

/** A swap provider. */
export const SwapProvider = z.enum(['1inch'])
/** A swap provider. */
export type SwapProvider = z.infer<typeof SwapProvider>

/** An on-ramp provider. */
export const OnrampProvider = z.enum(['meld', 'coinbase'])
/** An on-ramp provider. */
export type OnrampProvider = z.infer<typeof OnrampProvider>

/**
 * The remote features `GET /appkit/v1/config` answers with. A list feature is either the
 * enabled providers or `false`.
 */
export const RemoteFeatures = z.strictObject({
  swaps: z.union([z.array(SwapProvider), z.literal(false)]),
  onramp: z.union([z.array(OnrampProvider), z.literal(false)]),
  email: z.boolean(),
  socials: z.union([z.array(SocialProvider), z.literal(false)]),
  activity: z.boolean(),
  multiWallet: z.boolean(),
})
/** The remote features of a project. */
export type RemoteFeatures = z.infer<typeof RemoteFeatures>

/** Spec §9 "Remote features" defaults. */
export const DEFAULT_REMOTE_FEATURES: RemoteFeatures = {
  swaps: ['1inch'],
  onramp: ['meld'],
  email: true,
  socials: ['google', 'x', 'discord', 'farcaster', 'github', 'apple', 'facebook'],
  activity: true,
  multiWallet: false,
}

/**
 * How a project's embedded wallets are recovered on a new device or site:
 * - `automatic`: the recovery key service holds the recovery share's key and releases it after
 *   checking the user itself (its own e-mail approval, or the identity provider's token). The
 *   user needs nothing but their mailbox or social account; the API and recovery operators
 *   *together* could recover a wallet, neither alone.
 * - `user`: the recovery share is sealed under a factor only the user holds (a passkey's PRF
 *   secret); no operator, nor both together, can recover a wallet — a user who loses the passkey
 *   and every device loses the wallet.
 */
export const RecoveryPolicy = z.enum(['automatic', 'user'])
/** A project's recovery policy. */
export type RecoveryPolicy = z.infer<typeof RecoveryPolicy>

/**
 * What a project stores in `projects.features` (JSON): overrides of the remote features plus
 * `analytics` (spec §9 "Features: analytics on") and `recovery` (default `automatic`). Absent keys
 * take the defaults.
 */
export const ProjectFeatures = RemoteFeatures.partial().extend({
  analytics: z.boolean().optional(),
  recovery: RecoveryPolicy.optional(),
})
/** A project's stored feature overrides. */
export type ProjectFeatures = z.infer<typeof ProjectFeatures>

/**
 * Reads a stored features JSON text leniently: keys that fail validation (or a text that is not
 * JSON) fall back to the defaults instead of failing the request.
 *
 * @example
 * parseStoredFeatures('{"email":false,"swaps":"nope"}') // { email: false }
 */
export function parseStoredFeatures(text: string | null | undefined): ProjectFeatures {
  let raw: unknown
  try {
    raw = JSON.parse(text || '{}')
  } catch {
    return {}
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {}
  const out: Record<string, unknown> = {}
  const shape = ProjectFeatures.shape
  for (const [key, value] of Object.entries(raw)) {
    const schema = shape[key as keyof typeof shape]
    if (!schema) continue
    const parsed = schema.safeParse(value)
    if (parsed.success && parsed.data !== undefined) out[key] = parsed.data
  }
  return out as ProjectFeatures
}

/**
 * A project's remote features: the defaults overridden by its stored features.
 *
 * @example
 * resolveRemoteFeatures({ multiWallet: true }).multiWallet // true
 */
export function resolveRemoteFeatures(features: ProjectFeatures): RemoteFeatures {
  const { analytics: _analytics, recovery: _recovery, ...overrides } = features
  const out: Record<string, unknown> = { ...DEFAULT_REMOTE_FEATURES }
  for (const [key, value] of Object.entries(overrides)) if (value !== undefined) out[key] = value
  return out as RemoteFeatures
}

/**
 * Whether analytics is on for a project (spec §9 default: on).
 *
 * @example
 * isAnalyticsEnabled({}) // true
 */
export function isAnalyticsEnabled(features: ProjectFeatures): boolean {
  return features.analytics ?? true
}

/**
 * A project's recovery policy (default `automatic`).
 *
 * @example
 * recoveryPolicy({ features: { recovery: 'user' } }) // 'user'
 */
export function recoveryPolicy(project: { features: ProjectFeatures }): RecoveryPolicy {
  return project.features.recovery ?? 'automatic'
}
