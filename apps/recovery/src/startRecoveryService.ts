import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { serve } from '@hono/node-server'
import { createCustodyReader } from '@porthole/shared'
import { createRecoveryApp } from './app.js'
import {
  ProductionConfigError,
  productionProblems,
  type RecoveryConfig,
  resolveRecoveryConfig,
} from './config.js'
import type { FarcasterCheck } from './farcaster.js'
import { createIdTokenVerifier, type IdTokenVerifier, type TrustedIssuer } from './idTokens.js'
import { createMailer, type Mailer } from './mail.js'
import { assertOwnFolder, KEY_FILE_NAME, loadMasterKey } from './masterKey.js'
import { createSiteCheck, type SiteCheck } from './sites.js'

/**
 * Options of {@link startRecoveryService}; each defaults to the environment's setting (see
 * `resolveRecoveryConfig` and the README).
 */
export type StartRecoveryServiceParameters = {
  /** Port; default that of `PORTHOLE_RECOVERY_LISTEN` or `PORTHOLE_RECOVERY_URL` (4700); 0 picks a free one. */
  port?: number
  /** Interface; default the host of `PORTHOLE_RECOVERY_LISTEN` or `PORTHOLE_RECOVERY_URL` (127.0.0.1). */
  host?: string
  /**
   * The public URL (links in mail; its origin is the only one the approval form may post from);
   * default `PORTHOLE_RECOVERY_URL`, or the bound address when `port` is 0.
   */
  publicUrl?: string
  /** Origins allowed by CORS (the wallet frame's), matched exactly; default `PORTHOLE_WALLET_URL`'s and `PORTHOLE_RECOVERY_ALLOWED_ORIGINS`. */
  allowedOrigins?: readonly string[]
  /** The service's own data folder (its key file lives there); default `PORTHOLE_RECOVERY_DATA_DIR` or `<repo>/.recovery-data`. */
  dataDir?: string
  /** The 32-byte master secret; default `PORTHOLE_RECOVERY_KEY`, else read from (or created in) `keyFile`. */
  masterKey?: Uint8Array
  /** Default `PORTHOLE_RECOVERY_KEY_FILE` or `<dataDir>/recovery.key`: 64 hex digits, created with mode 0600. */
  keyFile?: string
  /** SMTP URL of this service's own mail; default `PORTHOLE_RECOVERY_SMTP_URL`, `PORTHOLE_SMTP_URL`, smtp://127.0.0.1:2525. */
  smtpUrl?: string
  /** Sender; default `PORTHOLE_RECOVERY_MAIL_FROM`. */
  mailFrom?: string
  /** The identity providers whose ID tokens are trusted; default from `PORTHOLE_SOCIAL_<PROVIDER>_ISSUER` / `_CLIENT_ID`. */
  issuers?: readonly TrustedIssuer[]
  /** Proxies in front that append to `X-Forwarded-For`; default `PORTHOLE_RECOVERY_TRUST_PROXY` or 0. */
  trustProxy?: number
  /** Refuse local development defaults; default `PORTHOLE_ENV === 'production'`. */
  production?: boolean
  /** Replaces the SMTP mailer (tests). */
  mailer?: Mailer
  /** Replaces the ID token verifier (tests). */
  verifyIdToken?: IdTokenVerifier
  /**
   * How Farcaster owners are checked (null: refused); default the IdRegistry of
   * `PORTHOLE_FARCASTER_RPC` / `_NETWORK` / `_ID_REGISTRY` (the first devnet's locally).
   */
  farcaster?: FarcasterCheck | null
  /** Reports unexpected errors; default `console.error`. */
  onError?: (error: unknown) => void
  now?: () => number
  /** Which sites a project allows; default the API's allowlist at `PORTHOLE_API_URL` (`sites.ts`). */
  siteCheck?: SiteCheck
}

/** The running service. */
export type StartRecoveryServiceReturnType = {
  /** The bound address (`http://host:port`). */
  url: string
  close(): Promise<void>
}

/**
 * Starts the recovery key service: it seals wallet recovery shares and opens one only after
 * checking the user itself (its own e-mail approval, or an ID token bound to the wallet frame's
 * key), under a master secret the API never sees. Throws `ForeignSecretError` when its data
 * folder (or the key file's) holds another service's secret, and `ProductionConfigError` (listing
 * every problem) when production mode meets a local default.
 *
 * @example
 * const recovery = await startRecoveryService({ port: 0 })
 * await recovery.close()
 */
export async function startRecoveryService(
  parameters: StartRecoveryServiceParameters = {},
): Promise<StartRecoveryServiceReturnType> {
  const env = resolveRecoveryConfig(process.env)
  const dataDir = resolve(parameters.dataDir ?? env.dataDir)
  const masterKey = parameters.masterKey ?? env.masterKey
  const config: RecoveryConfig = {
    ...env,
    publicUrl: parameters.publicUrl ?? env.publicUrl,
    port: parameters.port ?? env.port,
    host: parameters.host ?? env.host,
    allowedOrigins: [...(parameters.allowedOrigins ?? env.allowedOrigins)],
    smtpUrl: parameters.smtpUrl ?? env.smtpUrl,
    mailFrom: parameters.mailFrom ?? env.mailFrom,
    issuers: [...(parameters.issuers ?? env.issuers)],
    socialDefaults: parameters.issuers ? [] : env.socialDefaults,
    trustProxy: parameters.trustProxy ?? env.trustProxy,
    dataDir,
    keyFile: resolve(
      parameters.keyFile ?? (parameters.dataDir ? `${dataDir}/${KEY_FILE_NAME}` : env.keyFile),
    ),
    production: parameters.production ?? env.production,
  }
  if (masterKey) config.masterKey = masterKey
  else delete config.masterKey
  if (config.production) {
    const problems = productionProblems(config)
    if (problems.length > 0) throw new ProductionConfigError(problems)
  }
  assertOwnFolder(config.dataDir)
  const key = loadMasterKey({ ...(masterKey ? { masterKey } : {}), keyFile: config.keyFile })

  let app: ReturnType<typeof createRecoveryApp> | undefined
  const server = serve({
    fetch: (request, bindings) => (app as NonNullable<typeof app>).fetch(request, bindings),
    port: config.port,
    hostname: config.host,
  }) as Server
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${config.port} is in use: the recovery service cannot start`)
          : error,
      ),
    )
  })
  const bound = (server.address() as AddressInfo).port
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${bound}`
  app = createRecoveryApp({
    masterKey: key,
    publicUrl: parameters.publicUrl ?? (parameters.port === 0 ? url : config.publicUrl),
    allowedOrigins: config.allowedOrigins,
    mailer: parameters.mailer ?? createMailer(config.smtpUrl, config.mailFrom),
    verifyIdToken:
      parameters.verifyIdToken ??
      createIdTokenVerifier({
        issuers: config.issuers,
        ...(parameters.now ? { now: parameters.now } : {}),
      }),
    trustProxy: config.trustProxy,
    farcaster:
      parameters.farcaster !== undefined
        ? parameters.farcaster
        : config.farcaster && {
            chainId: config.farcaster.chainId,
            custodyOf: createCustodyReader({
              rpcUrl: config.farcaster.rpcUrl,
              registry: config.farcaster.registry,
            }),
          },
    siteCheck: parameters.siteCheck ?? createSiteCheck({ apiUrl: config.apiUrl }),
    ...(parameters.onError ? { onError: parameters.onError } : {}),
    ...(parameters.now ? { now: parameters.now } : {}),
  })
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
