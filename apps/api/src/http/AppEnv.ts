import type { IncomingMessage } from 'node:http'
import type { Session } from '../auth/sessions.js'
import type { Project } from '../projects/Project.js'

/** Hono environment of the API: node-server bindings and per-request variables. */
export type AppEnv = {
  /** Node server bindings; absent (c.env undefined) for in-process `app.request()`. */
  Bindings: { incoming?: IncomingMessage }
  Variables: {
    /** The project named by `projectId` (set by `requireProject`). */
    project: Project
    /** `st` and `sv` query params (sdk type and version), when sent. */
    sdk: { type: string | undefined; version: string | undefined }
    /** The signed-in user's session (set by `requireSession`). */
    session: Session
    /** This request's id (set by `observe`): logged, and answered in `X-Request-Id`. */
    requestId: string
  }
}
