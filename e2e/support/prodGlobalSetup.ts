/**
 * Starts the production stack once for the `@prod` run (as `npm run stack:prod` does: nginx on
 * the default modal, wallet and API addresses, three API replicas, PostgreSQL, Redis) in a
 * throwaway folder, and stops it when the run ends. The tests find the replicas through the
 * stack's control endpoint (PORTHOLE_PROD_CONTROL_URL).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_PROD_CONTROL_URL, spawnProdStack } from '@porthole/local-stack/prod'

export default async function prodGlobalSetup(): Promise<() => Promise<void>> {
  process.env.PORTHOLE_PROD_CONTROL_URL ||= DEFAULT_PROD_CONTROL_URL
  // For a quick edit-run loop against `npm run stack:prod` started by hand.
  if (process.env.PORTHOLE_E2E_REUSE_PROD_STACK === '1') return async () => {}
  const dir = mkdtempSync(join(tmpdir(), 'porthole-e2e-prod-'))
  // PostgreSQL runs as its own user when the tests run as root: it must get through.
  chmodSync(dir, 0o711)
  const stack = await spawnProdStack({ PORTHOLE_PROD_DIR: join(dir, 'stack') }).catch(
    (error: unknown) => {
      rmSync(dir, { recursive: true, force: true })
      throw error
    },
  )
  return async () => {
    await stack.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
