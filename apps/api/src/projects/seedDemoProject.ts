import { DEMO_PROJECT_ID, endpoints, normaliseOriginPattern } from '@porthole/shared'
import type { Db } from '../db/Db.js'
import { type Project, readProjects } from './Project.js'

/**
 * The demo project's remote features when it is created: multi-wallet on (the demo shows several
 * wallets at once; a new project starts with the spec's default, off). An operator's later
 * `project feature porthole-demo multiWallet off` is kept.
 */
const DEMO_FEATURES = JSON.stringify({ multiWallet: true })

/** Options for {@link seedDemoProject}. */
export type SeedDemoProjectParameters = {
  /** The demo host site's origin; default `endpoints().demo` (http://localhost:4000). */
  demoOrigin?: string
}

/**
 * Makes sure the demo project (`porthole-demo`) exists, with multi-wallet on, and allows the demo
 * origin, trusted for approvals inside the page (`project trust`) when this adds it. Idempotent and safe to run
 * from several processes at once; other origins added by hand, and an operator's `project
 * untrust` of the demo origin, are kept.
 *
 * @example
 * const demo = await seedDemoProject(db)
 * // { id: 'porthole-demo', origins: ['http://localhost:4000'], inlineApprovalOrigins: ['http://localhost:4000'], … }
 */
export async function seedDemoProject(
  db: Db,
  parameters: SeedDemoProjectParameters = {},
): Promise<Project> {
  const origin = normaliseOriginPattern(parameters.demoOrigin ?? endpoints().demo)
  const now = Date.now()
  await db.transaction(async (tx) => {
    await tx.execute(
      'INSERT INTO projects (id, name, created_at, features) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
      [DEMO_PROJECT_ID, 'Porthole demo', now, DEMO_FEATURES],
    )
    await tx.execute(
      'INSERT INTO project_origins (project_id, origin, created_at, inline_approvals) VALUES (?, ?, ?, 1) ON CONFLICT (project_id, origin) DO NOTHING',
      [DEMO_PROJECT_ID, origin, now],
    )
  })
  const [project] = await readProjects(db, DEMO_PROJECT_ID)
  return project!
}
