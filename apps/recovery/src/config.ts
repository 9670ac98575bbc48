/**
 * The service's configuration from the environment, and the production check: with
 * `PORTHOLE_ENV=production` it refuses every local development default (and says which).
 */
import { relative, resolve } from 'node:path'
import { endpoints, listenHostOf, portOf } from '@porthole/shared'
import type { TrustedIssuer } from './idTokens.js'
import { DEFAULT_DATA_DIR, KEY_FILE_NAME, parseHexKey } from './masterKey.js'

/** The social providers whose ID tokens are trusted (the API's list). */
export const SOCIAL_PROVIDERS = ['google', 'github', 'apple', 'facebook', 'x', 'discord'] as const

/** What {@link resolveRecoveryConfig} reads. */
export type RecoveryConfig = {
  publicUrl: string
  port: number
  host: string
  allowedOrigins: string[]
  smtpUrl: string
  mailFrom: string
  issuers: TrustedIssuer[]
  dataDir: string
  masterKey?: Uint8Array
  keyFile: string
  production: boolean
}

/**
 * Reads the configuration: `PORTHOLE_RECOVERY_URL`, `PORTHOLE_WALLET_URL` and
 * `PORTHOLE_RECOVERY_ALLOWED_ORIGINS` (CORS), `PORTHOLE_RECOVERY_SMTP_URL` (else
 * `PORTHOLE_SMTP_URL`), `PORTHOLE_RECOVERY_MAIL_FROM`, `PORTHOLE_SOCIAL_<PROVIDER>_ISSUER` and
 * `_CLIENT_ID` (the API's variables; never the secret), `PORTHOLE_RECOVERY_DATA_DIR`,
 * `PORTHOLE_RECOVERY_KEY` or `PORTHOLE_RECOVERY_KEY_FILE`, `PORTHOLE_ENV`.
 *
 * @example
 * const config = resolveRecoveryConfig(process.env)
 */
export function resolveRecoveryConfig(env: Record<string, string | undefined>): RecoveryConfig {
  const urls = endpoints(env)
  const dataDir = resolve(env.PORTHOLE_RECOVERY_DATA_DIR || DEFAULT_DATA_DIR)
  const extra = (env.PORTHOLE_RECOVERY_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
  return {
    publicUrl: urls.recovery,
    port: portOf(urls.recovery),
    host: listenHostOf(urls.recovery),
    allowedOrigins: [new URL(urls.wallet).origin, ...extra],
    smtpUrl: env.PORTHOLE_RECOVERY_SMTP_URL || urls.smtp,
    mailFrom: env.PORTHOLE_RECOVERY_MAIL_FROM || 'Porthole <no-reply@porthole.local>',
    issuers: SOCIAL_PROVIDERS.map((provider) => {
      const prefix = `PORTHOLE_SOCIAL_${provider.toUpperCase()}_`
      return {
        issuer: env[`${prefix}ISSUER`] || `${urls.oidc}/${provider}`,
        clientId: env[`${prefix}CLIENT_ID`] || `porthole-${provider}`,
      }
    }),
    dataDir,
    ...(env.PORTHOLE_RECOVERY_KEY
      ? { masterKey: parseHexKey(env.PORTHOLE_RECOVERY_KEY, 'PORTHOLE_RECOVERY_KEY') }
      : {}),
    keyFile: resolve(env.PORTHOLE_RECOVERY_KEY_FILE || `${dataDir}/${KEY_FILE_NAME}`),
    production: env.PORTHOLE_ENV === 'production',
  }
}

const loopback = (host: string) =>
  host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\./.test(host)

/**
 * What in a configuration is a local development default, one line each (empty: fit for
 * production).
 *
 * @example
 * productionProblems(resolveRecoveryConfig({})) // ['PORTHOLE_RECOVERY_URL is http: …', …]
 */
export function productionProblems(
  config: RecoveryConfig,
  repoRoot = resolve(DEFAULT_DATA_DIR, '..'),
): string[] {
  const problems: string[] = []
  const publicUrl = new URL(config.publicUrl)
  if (publicUrl.protocol !== 'https:' || loopback(publicUrl.hostname))
    problems.push(
      `PORTHOLE_RECOVERY_URL is ${config.publicUrl}: use the service's public https URL`,
    )
  for (const origin of config.allowedOrigins)
    if (!origin.startsWith('https:') || loopback(new URL(origin).hostname))
      problems.push(
        `The wallet origin ${origin} (CORS) is a development default: set PORTHOLE_WALLET_URL`,
      )
  const smtp = new URL(config.smtpUrl)
  if (loopback(smtp.hostname))
    problems.push(
      `SMTP goes to ${config.smtpUrl}, the local mail catcher: set PORTHOLE_RECOVERY_SMTP_URL`,
    )
  else if (smtp.protocol === 'smtp:' && smtp.searchParams.get('requireTLS') !== 'true')
    problems.push(
      `SMTP ${smtp.host} may fall back to plain text: use smtps:// or smtp://…?requireTLS=true`,
    )
  for (const { issuer } of config.issuers) {
    const url = new URL(issuer)
    if (url.protocol !== 'https:' || loopback(url.hostname))
      problems.push(`The identity provider ${issuer} is the local test provider or not https`)
  }
  if (!config.masterKey && !relative(repoRoot, config.keyFile).startsWith('..'))
    problems.push(
      `The master key file ${config.keyFile} is inside the repository: set PORTHOLE_RECOVERY_KEY or a PORTHOLE_RECOVERY_DATA_DIR of the service's own`,
    )
  return problems
}
