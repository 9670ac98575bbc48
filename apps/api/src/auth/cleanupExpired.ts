/** Opportunistic removal of expired auth rows. */
import type { DbExecutor } from '../db/Db.js'
import { SIWX } from '../siwx/verifySignIn.js'
import { COOLDOWN_MS } from './codes.js'

/** Options of {@link createCleanup}. */
export type CreateCleanupParameters = {
  /** Least time between two runs; default one minute. */
  intervalMs?: number
  /** Receives a failed run's error. */
  onError: (error: unknown) => void
}

/**
 * Returns `maybeRun()`: at most once per interval it deletes, in the background, expired
 * sessions, approval tokens, social states and results, code rows that no longer hold a
 * live code, cooldown or lock, and wallet sign-in nonces and sessions past their life. Routes call it as they go, so no timer keeps the process alive.
 *
 * @example
 * const cleanup = createCleanup(db, { onError: console.error })
 * cleanup.maybeRun()
 */
export function createCleanup(
  db: DbExecutor,
  { intervalMs = 60_000, onError }: CreateCleanupParameters,
): { maybeRun(): void; run(): Promise<void> } {
  let last = 0
  let running: Promise<void> | undefined
  const run = async () => {
    const now = Date.now()
    for (const table of [
      'auth_sessions',
      'auth_social_states',
      'auth_social_results',
      'auth_farcaster_logins',
    ])
      await db.execute(`DELETE FROM ${table} WHERE expires_at <= ?`, [now])
    // Wallet sign-in: nonces past their life (a stranger may ask for any number of them) and
    // sessions past their expiry.
    await db.execute('DELETE FROM siwx_nonces WHERE created_at <= ?', [now - SIWX.nonceTtlMs])
    await db.execute('DELETE FROM siwx_sessions WHERE expires_at <= ?', [now])
    await db.execute(
      `DELETE FROM auth_codes
       WHERE expires_at <= ? AND sent_at <= ? AND (locked_until IS NULL OR locked_until <= ?)`,
      [now, now - COOLDOWN_MS, now],
    )
  }
  return {
    maybeRun() {
      const now = Date.now()
      if (running || now - last < intervalMs) return
      last = now
      running = run()
        .catch(onError)
        .finally(() => {
          running = undefined
        })
    },
    run,
  }
}
