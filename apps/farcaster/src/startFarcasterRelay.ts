import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { allowedHosts, endpoints, isAllowedHost, listenHostOf, portOf } from '@porthole/shared'
import { createFarcasterRelayApp } from './app.js'

/** Options of {@link startFarcasterRelay}. */
export type StartFarcasterRelayParameters = {
  /** Port; default that of `endpoints().farcaster` (4800). `0` picks a free one. */
  port?: number
  /** Interface; default the host of `endpoints().farcaster` (127.0.0.1). */
  host?: string
  /** Origins allowed by CORS; default the modal's and the wallet's (`endpoints()`). */
  allowedOrigins?: readonly string[]
  /**
   * More `Host` header values to answer, e.g. `farcaster.internal:4800`. It always answers
   * `<host>:<port>` and, bound to loopback, `localhost`, `127.0.0.1` and `[::1]` on its port;
   * any other `Host` gets 421 (DNS rebinding protection).
   */
  extraHosts?: readonly string[]
  /** How long a channel lives; default 10 minutes. */
  channelTtlMs?: number
  now?: () => number
}

/** A running relay. */
export type StartFarcasterRelayReturnType = {
  /** Its address, e.g. `http://127.0.0.1:4800`. */
  url: string
  /** Stops listening and drops open connections; channels are forgotten. */
  close(): Promise<void>
}

/** Thrown when the relay's port is taken. */
export class FarcasterRelayPortInUseError extends Error {
  override name = 'FarcasterRelayPortInUseError' as const
}

/**
 * Starts the local Farcaster auth relay (development and tests only: any wallet may answer a
 * channel; relying parties check the answer on chain).
 *
 * @example
 * const relay = await startFarcasterRelay({ port: 0 })
 * await fetch(`${relay.url}/v1/channel`, { method: 'POST', body: JSON.stringify({ siweUri, domain }) })
 * await relay.close()
 */
export async function startFarcasterRelay(
  parameters: StartFarcasterRelayParameters = {},
): Promise<StartFarcasterRelayReturnType> {
  const urls = endpoints()
  const port = parameters.port ?? portOf(urls.farcaster)
  const host = parameters.host ?? listenHostOf(urls.farcaster)
  const app = createFarcasterRelayApp({
    allowedOrigins: parameters.allowedOrigins ?? [
      new URL(urls.modal).origin,
      new URL(urls.wallet).origin,
    ],
    ...(parameters.channelTtlMs ? { channelTtlMs: parameters.channelTtlMs } : {}),
    ...(parameters.now ? { now: parameters.now } : {}),
  })
  // Set once the port is bound; until then every request is refused.
  let served: ReadonlySet<string> = new Set()
  const server = serve({
    fetch: (request, bindings) =>
      isAllowedHost(request.headers.get('host') ?? undefined, served)
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
          ? new FarcasterRelayPortInUseError(
              `Port ${port} is in use: the Farcaster relay cannot start`,
            )
          : error,
      ),
    )
  })
  const bound = (server.address() as AddressInfo).port
  served = allowedHosts({ host, port: bound, extraHosts: parameters.extraHosts })
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
