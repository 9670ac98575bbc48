import type { MiddlewareHandler } from 'hono'
import { z } from 'zod'
import { ApiError } from '../errors.js'
import type { ProjectCache } from '../projects/createProjectCache.js'
import type { AppEnv } from './AppEnv.js'
import { projectIdParam } from './projectIdParam.js'

const SdkParam = z
  .string()
  .max(64)
  .regex(/^[\w.@/+-]*$/)
  .optional()

/**
 * Resolves `projectId` (spec: every call carries `projectId`, `st`, `sv`): missing → 400
 * `PROJECT_ID_NOT_CONFIGURED`, unknown or malformed (not canonical: see `projectIdParam`) → 403
 * `INVALID_PROJECT_ID`, malformed
 * `st`/`sv` → 400 `INVALID_REQUEST`. Sets `c.var.project` and `c.var.sdk`.
 *
 * @example
 * app.get('/projects/v1/origins', requireProject(projects), (c) => c.json(c.var.project.origins))
 */
export function requireProject(projects: ProjectCache): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const param = projectIdParam(c)
    if (param.status === 'missing') throw new ApiError('PROJECT_ID_NOT_CONFIGURED')
    if (param.status === 'malformed') throw new ApiError('INVALID_PROJECT_ID')
    const type = SdkParam.safeParse(c.req.query('st'))
    const version = SdkParam.safeParse(c.req.query('sv'))
    if (!type.success || !version.success)
      throw new ApiError('INVALID_REQUEST', {
        details: 'st, sv: up to 64 letters, digits or ._@/+-',
      })
    const project = await projects.get(param.projectId)
    if (!project) throw new ApiError('INVALID_PROJECT_ID')
    c.set('project', project)
    c.set('sdk', { type: type.data || undefined, version: version.data || undefined })
    await next()
  }
}
