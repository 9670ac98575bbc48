/**
 * `PORTHOLE_ENV=production`: the API refuses to start while any local development default is in
 * use, and says which (DESIGN §5). Development defaults are made for `npm start` on loopback; in
 * production each would quietly weaken something: logins through the local test identity
 * provider and its public client secrets, codes mailed to the mail catcher or in plain text, a
 * demo project anyone can embed, keys generated into the repository's `.data`.
 */
import { relative, resolve } from 'node:path'
import { PAYMASTER_SIGNER } from '@porthole/shared/devnet'
import { type ApiConfig, DEFAULT_KEY_DIR, DEFAULT_MAIL_FROM } from './config.js'

/** `PORTHOLE_ENV=production` with development defaults; `problems` lists each. */
export class ProductionConfigError extends Error {
  override name = 'ProductionConfigError' as const
  readonly problems: readonly string[]
  constructor(problems: readonly string[]) {
    super(
      `PORTHOLE_ENV=production, but the API would run on development defaults:\n${problems.map((problem) => `- ${problem}`).join('\n')}`,
    )
    this.problems = problems
  }
}

/** Options of {@link productionProblems} besides the configuration. */
export type ProductionProblemsParameters = {
  /** Whether the demo project (`porthole-demo`) would be created at start. */
  seedDemo: boolean
  /** The repository root (default: the one holding the default `.data`). */
  repoRoot?: string
}

const loopback = (host: string) =>
  host === 'localhost' ||
  host.endsWith('.localhost') ||
  host === '[::1]' ||
  host === '::1' ||
  /^127\./.test(host)

const publicHttps = (url: string) => {
  const parsed = new URL(url)
  return parsed.protocol === 'https:' && !loopback(parsed.hostname)
}

/**
 * What in a configuration is a local development default, one line each (empty: fit for
 * production).
 *
 * @example
 * productionProblems(resolveConfig({}), { seedDemo: true })
 * // ['PORTHOLE_API_PUBLIC_URL is http://127.0.0.1:4300: …', …]
 */
export function productionProblems(
  config: ApiConfig,
  { seedDemo, repoRoot = resolve(DEFAULT_KEY_DIR, '..') }: ProductionProblemsParameters,
): string[] {
  const problems: string[] = []
  if (!publicHttps(config.publicUrl))
    problems.push(`PORTHOLE_API_PUBLIC_URL is ${config.publicUrl}: use the API's public https URL`)
  if (!publicHttps(config.walletUrl))
    problems.push(
      `PORTHOLE_WALLET_URL is ${config.walletUrl}: use the wallet app's public https URL`,
    )
  for (const origin of new Set([...config.frameOrigins, config.modalOrigin]))
    if (!publicHttps(origin))
      problems.push(
        `The frame origin ${origin} is a development default: set PORTHOLE_MODAL_URL, PORTHOLE_WALLET_URL (or PORTHOLE_API_CORS_ORIGINS) to https origins`,
      )
  const smtp = new URL(config.auth.smtpUrl)
  if (loopback(smtp.hostname))
    problems.push(`SMTP goes to ${smtp.host}, the local mail catcher: set PORTHOLE_SMTP_URL`)
  else if (smtp.protocol === 'smtp:' && smtp.searchParams.get('requireTLS') !== 'true')
    problems.push(
      `SMTP ${smtp.host} may fall back to plain text: use smtps:// or smtp://…?requireTLS=true`,
    )
  if (config.auth.mailFrom === DEFAULT_MAIL_FROM)
    problems.push(
      `Login mail would come from ${DEFAULT_MAIL_FROM}, the local default: set PORTHOLE_MAIL_FROM`,
    )
  for (const [provider, social] of Object.entries(config.auth.social)) {
    if (!social) continue
    const name = `PORTHOLE_SOCIAL_${provider.toUpperCase()}`
    if (!publicHttps(social.issuer))
      problems.push(
        `${name}_ISSUER is ${social.issuer}: the local test identity provider or not https`,
      )
    if (social.clientSecret === `porthole-${provider}-secret`)
      problems.push(`${name}_CLIENT_SECRET is the local provider's public test secret`)
  }
  if (!config.auth.shareKey && !relative(repoRoot, config.auth.keyDir).startsWith('..'))
    problems.push(
      `The auth-share key would live in ${config.auth.keyDir}, inside the repository: set PORTHOLE_SHARE_KEY or a PORTHOLE_API_KEY_DIR of the API's own outside it`,
    )
  for (const [network, url] of Object.entries(config.upstreams))
    if (loopback(new URL(url).hostname))
      problems.push(`The RPC upstream of ${network} is ${url}, on this machine`)
  for (const [network, url] of Object.entries(config.bundlers))
    if (loopback(new URL(url).hostname))
      problems.push(`The ERC-4337 bundler of ${network} is ${url}, on this machine`)
  if (config.paymaster.signerKey?.toLowerCase() === PAYMASTER_SIGNER.privateKey)
    problems.push(
      "PORTHOLE_PAYMASTER_KEY is the devnets' public paymaster key: set a key of your own (or none: no sponsorship)",
    )
  if (seedDemo)
    problems.push(
      'The demo project (porthole-demo) would be created, embeddable from the demo origin: set PORTHOLE_SEED_DEMO=0',
    )
  return problems
}
