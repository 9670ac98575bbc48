import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { allowedHosts, endpoints, isAllowedHost, listenHostOf, portOf } from '@porthole/shared'
import { ONRAMP_LOCAL_KEYS, ONRAMP_TREASURY } from '@porthole/shared/devnet'
import type { Hono } from 'hono'
import type { Hex } from 'viem'
import { createOnrampProviderApp } from './app.js'
import type { NetworkId } from './offering.js'
import { createPayout } from './payout.js'

/** Environment variables of {@link startOnrampProvider} (besides `PORTHOLE_ONRAMP_URL`). */
export const ONRAMP_ENV = {
  apiKey: 'PORTHOLE_ONRAMP_API_KEY',
  publicKey: 'PORTHOLE_ONRAMP_PUBLIC_KEY',
} as const

/** Options of {@link startOnrampProvider}. */
export type StartOnrampProviderParameters = {
  /** Port; default that of `endpoints().onramp` (4900). `0` picks a free one. */
  port?: number
  /** Interface; default the host of `endpoints().onramp` (127.0.0.1). */
  host?: string
  /**
   * The partner's secret for `/api/*`; default `PORTHOLE_ONRAMP_API_KEY`, else the public
   * development key `ONRAMP_LOCAL_KEYS.apiKey` of `@porthole/shared`.
   */
  apiKey?: string
  /** The partner's public key; default `PORTHOLE_ONRAMP_PUBLIC_KEY`, else `ONRAMP_LOCAL_KEYS.publicKey`. */
  publicKey?: string
  /** Where buyers reach the checkout; default the address it listens on. */
  publicUrl?: string
  /** JSON-RPC URL per devnet; default `endpoints().devnet` and `endpoints().devnetB`. */
  rpcUrls?: Partial<Record<NetworkId, string>>
  /** The key that pays out; default `ONRAMP_TREASURY` of `@porthole/shared`. */
  treasuryKey?: Hex
  /**
   * More `Host` header values to answer, e.g. `onramp.internal:4900`. It always answers
   * `<host>:<port>` and, bound to loopback, `localhost`, `127.0.0.1` and `[::1]` on its port;
   * any other `Host` gets 421 (DNS rebinding protection).
   */
  extraHosts?: readonly string[]
  now?: () => number
}

/** A running provider. */
export type StartOnrampProviderReturnType = {
  /** Its address, e.g. `http://127.0.0.1:4900`. */
  url: string
  /** The API key its `/api/*` routes take. */
  apiKey: string
  publicKey: string
  /** The treasury's address (what pays out). */
  treasury: Hex
  /** Stops listening and drops open connections; orders are forgotten. */
  close(): Promise<void>
}

/** Thrown when the provider's port is taken. */
export class OnrampProviderPortInUseError extends Error {
  override name = 'OnrampProviderPortInUseError' as const
}

/**
 * Starts the local on-ramp provider: a card/bank checkout stand-in that pays out pUSD or ETH
 * from its devnet treasury (development and tests only: test cards, orders in memory).
 *
 * @example
 * const provider = await startOnrampProvider({ port: 0, rpcUrls: { 'eip155:31337': devnet.rpcUrl } })
 * await fetch(`${provider.url}/api/options`, { headers: { authorization: `Bearer ${provider.apiKey}` } })
 * await provider.close()
 */
export async function startOnrampProvider(
  parameters: StartOnrampProviderParameters = {},
): Promise<StartOnrampProviderReturnType> {
  const urls = endpoints()
  const port = parameters.port ?? portOf(urls.onramp)
  const host = parameters.host ?? listenHostOf(urls.onramp)
  const apiKey = parameters.apiKey ?? (process.env[ONRAMP_ENV.apiKey] || ONRAMP_LOCAL_KEYS.apiKey)
  const publicKey =
    parameters.publicKey ?? (process.env[ONRAMP_ENV.publicKey] || ONRAMP_LOCAL_KEYS.publicKey)
  const payout = createPayout({
    rpcUrls: parameters.rpcUrls ?? { 'eip155:31337': urls.devnet, 'eip155:31338': urls.devnetB },
    treasuryKey: parameters.treasuryKey ?? ONRAMP_TREASURY.privateKey,
  })
  // Built once the port is bound (its checkout links name the bound port); until then every
  // request is refused.
  let app: Hono | undefined
  let served: ReadonlySet<string> = new Set()
  const server = serve({
    fetch: (request, bindings) =>
      app && isAllowedHost(request.headers.get('host') ?? undefined, served)
        ? app.fetch(request, bindings)
        : Response.json({ error: 'Misdirected Request: unknown Host' }, { status: 421 }),
    port,
    hostname: host,
  }) as Server
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new OnrampProviderPortInUseError(
              `Port ${port} is in use: the on-ramp provider cannot start`,
            )
          : error,
      ),
    )
  })
  const bound = (server.address() as AddressInfo).port
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`
  app = createOnrampProviderApp({
    apiKey,
    publicKey,
    publicUrl: parameters.publicUrl ?? url,
    payout,
    ...(parameters.now ? { now: parameters.now } : {}),
  })
  served = allowedHosts({ host, port: bound, extraHosts: parameters.extraHosts })
  return {
    url,
    apiKey,
    publicKey,
    treasury: payout.address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
