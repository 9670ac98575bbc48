import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { createRecoveryApp } from './app.js'
import { resolveRecoveryConfig } from './config.js'
import { createIdTokenVerifier, type IdTokenVerifier, type TrustedIssuer } from './idTokens.js'
import { createMailer, type Mailer } from './mail.js'
import { assertOwnFolder, loadMasterKey } from './masterKey.js'

/** Options of {@link startRecoveryService}; each defaults to the environment's setting. */
export type StartRecoveryServiceParameters = {
  /** Port; default that of `PORTHOLE_RECOVERY_URL` (4700); 0 picks a free one. */
  port?: number
  /** Interface; default 127.0.0.1. */
  host?: string
  /** The public URL (links in mail); default `PORTHOLE_RECOVERY_URL` or the bound address. */
  publicUrl?: string
  /** Origins allowed by CORS (the wallet frame's), matched exactly. */
  allowedOrigins?: readonly string[]
  /** The service's own data folder (its key file lives there). */
  dataDir?: string
  /** The 32-byte master secret; else read from (or created in) `keyFile`. */
  masterKey?: Uint8Array
  /** Default `<dataDir>/recovery.key`: 64 hex digits, created with mode 0600. */
  keyFile?: string
  /** SMTP URL of this service's own mail. */
  smtpUrl?: string
  mailFrom?: string
  /** The identity providers whose ID tokens are trusted. */
  issuers?: readonly TrustedIssuer[]
  /** Replaces the SMTP mailer (tests). */
  mailer?: Mailer
  /** Replaces the ID token verifier (tests). */
  verifyIdToken?: IdTokenVerifier
  now?: () => number
}

/**
 * Starts the recovery key service: it seals wallet recovery shares and opens one only after
 * checking the user itself (its own e-mail approval, or an ID token bound to the wallet frame's
 * key), under a master secret the API never sees.
 *
 * @example
 * const recovery = await startRecoveryService({ port: 0 })
 * await recovery.close()
 */
export async function startRecoveryService(
  parameters: StartRecoveryServiceParameters = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const env = resolveRecoveryConfig(process.env)
  const port = parameters.port ?? env.port
  const host = parameters.host ?? env.host
  const dataDir = parameters.dataDir ?? env.dataDir
  assertOwnFolder(dataDir)
  const keyFile =
    parameters.keyFile ?? (parameters.dataDir ? `${dataDir}/recovery.key` : env.keyFile)
  const masterKey = loadMasterKey({
    ...((parameters.masterKey ?? env.masterKey)
      ? { masterKey: parameters.masterKey ?? env.masterKey }
      : {}),
    keyFile,
  })
  let app: ReturnType<typeof createRecoveryApp> | undefined
  const server = serve({
    fetch: (request, bindings) => (app as NonNullable<typeof app>).fetch(request, bindings),
    port,
    hostname: host,
  }) as Server
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} is in use: the recovery service cannot start`)
          : error,
      ),
    )
  })
  const bound = (server.address() as AddressInfo).port
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`
  app = createRecoveryApp({
    masterKey,
    publicUrl: parameters.publicUrl ?? (parameters.port === 0 ? url : env.publicUrl),
    allowedOrigins: parameters.allowedOrigins ?? env.allowedOrigins,
    mailer:
      parameters.mailer ??
      createMailer(parameters.smtpUrl ?? env.smtpUrl, parameters.mailFrom ?? env.mailFrom),
    verifyIdToken:
      parameters.verifyIdToken ??
      createIdTokenVerifier({
        issuers: parameters.issuers ?? env.issuers,
        ...(parameters.now ? { now: parameters.now } : {}),
      }),
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
