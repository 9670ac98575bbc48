import { toEip155NetworkId } from '@porthole/shared'
import type { Hono, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { CaipNetworkId } from '../catalogue/catalogue.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import type { PaymasterRpc } from '../paymaster/paymasterRpc.js'
import { allowedMethodsOf } from '../rpc/allowedMethods.js'
import { proxyRpc } from '../rpc/proxyRpc.js'

/**
 * The CAIP-2 id named by `chainId` (`eip155:1`, `1` or `0x1`), or `undefined`.
 *
 * @example
 * chainOf('8453') // 'eip155:8453'
 */
export function chainOf(chainId: string | undefined): string | undefined {
  if (!chainId) return undefined
  try {
    const id = toEip155NetworkId(chainId.includes(':') ? chainId : chainId.trim())
    return CaipNetworkId.safeParse(id).success ? id : undefined
  } catch {
    return undefined
  }
}

/** Options of {@link rpcRoutes}. */
export type RpcRoutesParameters = {
  /** Chain RPC upstream per CAIP-2 network id. */
  upstreams: Readonly<Record<string, string>>
  /** ERC-4337 bundler per CAIP-2 network id (user-operation methods go there). */
  bundlers?: Readonly<Record<string, string>>
  /** The ERC-7677 paymaster answering `pm_*` on EVM chains; without it they go upstream. */
  paymaster?: PaymasterRpc
  timeoutMs: number
}

/**
 * Chain RPC proxy (spec §7 "Chain RPC"): `POST /v1?chainId&projectId` with one JSON-RPC request
 * or a batch of up to 1000, forwarded to the chain's configured upstream (EVM chains and Solana
 * chains, `chainId=solana:<ref>`, each with its own method allowlist); on EVM chains the
 * ERC-4337 methods go to the chain's bundler and `pm_getPaymasterStubData` /
 * `pm_getPaymasterData` are answered by the project's paymaster (`paymaster/paymasterRpc.ts`).
 * See `proxyRpc` for the errors.
 *
 * @example
 * rpcRoutes(app, guard, { upstreams: { 'eip155:31337': 'http://127.0.0.1:8545' }, timeoutMs: 10_000 })
 */
export function rpcRoutes(
  app: Hono<AppEnv>,
  guard: readonly MiddlewareHandler<AppEnv>[],
  { upstreams, bundlers = {}, paymaster, timeoutMs }: RpcRoutesParameters,
): void {
  app.use('/v1', ...guard)
  app.post(
    '/v1',
    bodyLimit({
      maxSize: 5 * 1024 * 1024,
      onError: () => {
        throw new ApiError('PAYLOAD_TOO_LARGE')
      },
    }),
    async (c) => {
      if (!/^application\/json\s*(;|$)/i.test(c.req.header('content-type') ?? ''))
        throw new ApiError('UNSUPPORTED_MEDIA_TYPE', {
          details: 'Content-Type must be application/json',
        })
      let body: unknown
      try {
        body = JSON.parse(await c.req.text())
      } catch {
        return c.json(
          { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
          400,
        )
      }
      const chain = chainOf(c.req.query('chainId'))
      const upstream = chain === undefined ? undefined : upstreams[chain]
      const allowedMethods = chain === undefined ? undefined : allowedMethodsOf(chain)
      const evm = chain?.startsWith('eip155:') ?? false
      const result = await proxyRpc({
        body,
        upstream,
        timeoutMs,
        ...(allowedMethods ? { allowedMethods } : {}),
        ...(evm && chain ? { bundler: bundlers[chain] } : {}),
        ...(evm && chain && paymaster
          ? { localMethods: paymaster.methods({ chain, project: c.var.project }) }
          : {}),
      })
      if (result.body === undefined) return c.body(null, result.status)
      return c.json(result.body, result.status as 200 | 400 | 502 | 503)
    },
  )
}
