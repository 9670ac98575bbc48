import type { Hono, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../http/AppEnv.js'
import { isAnalyticsEnabled, resolveRemoteFeatures } from '../projects/features.js'

/**
 * Project configuration (spec §7 "Wallet provider configuration service"):
 * - `GET /projects/v1/origins` → `{ allowedOrigins: string[], inlineApprovalOrigins: string[],
 *   features: RemoteFeatures }`: the allowlist (the modal checks its host against it), the exact
 *   origins trusted for approvals inside the page (the wallet frame reads them; any other site
 *   gets the popup), and the remote features
 * - `GET /appkit/v1/config` → `{ features: RemoteFeatures }`
 * - `GET /getAnalyticsConfig` → `{ isAnalyticsEnabled: boolean }`
 *
 * @example
 * projectConfigRoutes(app, [rateLimiter, requireProject(projects)])
 */
export function projectConfigRoutes(
  app: Hono<AppEnv>,
  guard: readonly MiddlewareHandler<AppEnv>[],
): void {
  for (const path of ['/projects/v1/origins', '/appkit/v1/config', '/getAnalyticsConfig'])
    app.use(path, ...guard)
  // The remote features ride along: the modal's handshake reads both in one request.
  app.get('/projects/v1/origins', (c) =>
    c.json({
      allowedOrigins: c.var.project.origins,
      inlineApprovalOrigins: c.var.project.inlineApprovalOrigins,
      features: resolveRemoteFeatures(c.var.project.features),
    }),
  )
  app.get('/appkit/v1/config', (c) =>
    c.json({ features: resolveRemoteFeatures(c.var.project.features) }),
  )
  app.get('/getAnalyticsConfig', (c) =>
    c.json({ isAnalyticsEnabled: isAnalyticsEnabled(c.var.project.features) }),
  )
}
