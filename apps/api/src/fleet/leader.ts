/**
 * One indexer per database: each API replica campaigns for a PostgreSQL advisory lock on a
 * connection of its own, and only the holder runs the indexer. The lock is the session's, so
 * it goes when the holder dies (its connection closes) or loses the database; another replica,
 * asking again every `retryMs`, takes over (a holder that lost its session sits out three rounds). A deposed leader stops its indexer as soon as its
 * heartbeat fails; should two ever overlap for a moment, the indexer's cursor moves by
 * compare-and-set, so no block range is written twice.
 */
import pg from 'pg'

/** The advisory lock id every Porthole indexer campaigns for (migrations use 7340233). */
export const INDEXER_LOCK_ID = 7340234

/** Options of {@link electLeader}. */
export type ElectLeaderParameters = {
  /** The PostgreSQL URL of the shared database. */
  url: string
  lockId?: number
  /** How often a follower asks for the lock and the leader checks its session; default 1000 ms. */
  retryMs?: number
  /** Called when this replica becomes the leader. */
  onElected: () => void | Promise<void>
  /** Called when it stops being the leader (session lost, or `stop()`). */
  onDeposed: () => void | Promise<void>
  onError?: (error: unknown) => void
}

/** A running campaign. */
export type LeaderElection = {
  /** Whether this replica holds the lock now. */
  readonly leader: boolean
  /** Settles after the first campaign round (won, lost, or the database unreachable). */
  readonly firstRound: Promise<void>
  /** Stops campaigning, releases the lock and awaits `onDeposed` if it was the leader. */
  stop(): Promise<void>
}

/**
 * Campaigns for the indexer lock until stopped.
 *
 * @example
 * const election = electLeader({
 *   url: process.env.PORTHOLE_DATABASE_URL!,
 *   onElected: () => indexer.start(),
 *   onDeposed: () => indexer.stop(),
 * })
 */
export function electLeader({
  url,
  lockId = INDEXER_LOCK_ID,
  retryMs = 1000,
  onElected,
  onDeposed,
  onError = () => undefined,
}: ElectLeaderParameters): LeaderElection {
  let client: pg.Client | undefined
  let leader = false
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()
  // A leader that lost its session waits three rounds before campaigning again, so a replica
  // with a healthy connection takes over first.
  let restUntil = 0

  const drop = async (lost: pg.Client | undefined) => {
    if (!lost || lost !== client) return
    client = undefined
    lost.end().catch(() => undefined)
    if (!leader) return
    leader = false
    restUntil = Date.now() + 3 * retryMs
    try {
      await onDeposed()
    } catch (error) {
      onError(error)
    }
  }

  const round = async () => {
    if (stopped || Date.now() < restUntil) return
    try {
      if (!client) {
        const next = new pg.Client({
          connectionString: url,
          connectionTimeoutMillis: 2000,
          query_timeout: 2000,
          keepAlive: true,
          application_name: 'porthole-indexer-election',
        })
        next.on('error', (error) => {
          onError(error)
          running = running.then(() => drop(next))
        })
        next.on('end', () => {
          running = running.then(() => drop(next))
        })
        client = next
        await next.connect()
      }
      const session = client
      if (leader) {
        await session.query('SELECT 1')
        return
      }
      const { rows } = await session.query<{ ok: boolean }>(
        'SELECT pg_try_advisory_lock($1) AS ok',
        [lockId],
      )
      if (!rows[0]?.ok || stopped || session !== client) return
      leader = true
      await onElected()
    } catch (error) {
      onError(error)
      await drop(client)
    }
  }

  const tick = () => {
    running = running.then(round).finally(() => {
      if (!stopped) timer = setTimeout(tick, retryMs)
    })
  }
  tick()
  const firstRound = running.then(() => undefined)

  return {
    get leader() {
      return leader
    },
    firstRound,
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
      const session = client
      if (!session) return
      if (leader) {
        leader = false
        try {
          await onDeposed()
        } catch (error) {
          onError(error)
        }
        await session.query('SELECT pg_advisory_unlock($1)', [lockId]).catch(() => undefined)
      }
      client = undefined
      await session.end().catch(() => undefined)
    },
  }
}
