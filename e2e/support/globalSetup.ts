/**
 * Starts the whole local stack once for the e2e run (as `npm start` does, on the default
 * ports) with a throwaway database, and stops it when the run ends.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnStack } from '@porthole/local-stack/spawn'

export default async function globalSetup(): Promise<() => Promise<void>> {
  // For a quick edit-run loop against a stack you started yourself (same database and
  // recovery key environment): PORTHOLE_E2E_REUSE_STACK=1.
  if (process.env.PORTHOLE_E2E_REUSE_STACK === '1') return async () => {}
  const dir = mkdtempSync(join(tmpdir(), 'porthole-e2e-'))
  // Each service its own data folder, as in production: the API's (database and keys) and the
  // recovery key service's. The workers (and the admin CLI they run) see the same database.
  mkdirSync(join(dir, 'api'))
  process.env.PORTHOLE_DATABASE_URL = `file:${join(dir, 'api', 'porthole.db')}`
  process.env.PORTHOLE_RECOVERY_DATA_DIR = join(dir, 'recovery')
  const stack = await spawnStack({
    PORTHOLE_DATABASE_URL: process.env.PORTHOLE_DATABASE_URL,
    PORTHOLE_RECOVERY_DATA_DIR: process.env.PORTHOLE_RECOVERY_DATA_DIR,
    PORTHOLE_RELAY_DATABASE_URL: `file:${join(dir, 'relay.db')}`,
  })
  // Tests that restart the relay signal the stack process (SIGUSR2).
  process.env.PORTHOLE_E2E_STACK_PID = String(stack.pid)
  return async () => {
    await stack.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
