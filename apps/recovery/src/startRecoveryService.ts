import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose'
import { createRecoveryApp } from './app.js'
import { loadMasterKey } from './masterKey.js'

/** Options of {@link startRecoveryService}. */
export type StartRecoveryServiceParameters = {
  /** Port; default 4700, 0 picks a free one. */
  port?: number
  /** Interface; default 127.0.0.1. */
  host?: string
  /** The API whose `/auth/v1/jwks.json` signs recovery tickets. */
  apiUrl: string
  /** Origins allowed by CORS (the wallet frame's), matched exactly. */
  allowedOrigins: readonly string[]
  /** The 32-byte master secret; else read from (or created in) `keyFile`. */
  masterKey?: Uint8Array
  /** Default `.data/recovery.key`: 64 hex digits, created with mode 0600. */
  keyFile?: string
  /** Ticket keys (tests); default the API's JWKS over HTTP. */
  jwks?: JWTVerifyGetKey
  now?: () => number
}

/**
 * Starts the recovery key service: it encrypts and decrypts wallet recovery shares for the user
 * named by an API-signed ticket, under a master secret the API never sees.
 *
 * @example
 * const recovery = await startRecoveryService({ apiUrl: 'http://127.0.0.1:4300', allowedOrigins: ['http://127.0.0.1:4200'] })
 * await recovery.close()
 */
export async function startRecoveryService(
  parameters: StartRecoveryServiceParameters,
): Promise<{ url: string; close(): Promise<void> }> {
  const { port = 4700, host = '127.0.0.1' } = parameters
  const masterKey = loadMasterKey(parameters)
  const jwks =
    parameters.jwks ??
    createRemoteJWKSet(new URL('/auth/v1/jwks.json', parameters.apiUrl), {
      cooldownDuration: 5_000,
      timeoutDuration: 5_000,
    })
  const app = createRecoveryApp({
    masterKey,
    jwks,
    allowedOrigins: parameters.allowedOrigins,
    ...(parameters.now ? { now: parameters.now } : {}),
  })
  const server = serve({ fetch: app.fetch, port, hostname: host }) as Server
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
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
