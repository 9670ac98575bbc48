/**
 * Messages kept for peers that are offline: every publish is stored until its ttl ends, so a
 * client that subscribes later (or after a relay restart) still receives it.
 *
 * Writes are group-committed: `put` joins the batch of everything put in the same turn of the
 * event loop, and one transaction writes the batch (a file database pays one commit per batch,
 * not per message). Each message gets its sequence number when it is put, so a reader can ask
 * for what was put before a given moment even while that is still being written.
 */
import { type Client, createClient, type InStatement } from '@libsql/client'

/** A stored message as clients receive it. */
export type StoredMessage = { topic: string; message: string; publishedAt: number; tag: number }

/** At most this many messages are kept per topic (the oldest go first). */
export const MAX_PER_TOPIC = 500

/** A topic is trimmed back to {@link MAX_PER_TOPIC} after this many new messages. */
const TRIM_EVERY = 50

/** Expired messages are deleted after this many writes. */
const EXPIRE_EVERY = 200

/** The mailbox over a libSQL database (`file:…` or `:memory:`). */
export type Mailbox = {
  /** Stores a message; resolves once it is committed. */
  put(message: StoredMessage, ttlSeconds: number): Promise<void>
  /** The sequence number of the last message put (committed or not). */
  lastSeq(): number
  /**
   * The live messages of a topic, oldest first; with `upTo`, only those put up to that
   * sequence number (pending writes are committed first).
   */
  forTopic(topic: string, options?: { upTo?: number; now?: number }): Promise<StoredMessage[]>
  count(): Promise<number>
  close(): Promise<void>
}

type Pending = { statement: InStatement; done: () => void; fail: (error: unknown) => void }

/**
 * Opens (and creates) the mailbox.
 *
 * @example
 * const mailbox = await openMailbox('file:.data/relay.db')
 */
export async function openMailbox(url: string): Promise<Mailbox> {
  const db: Client = createClient({ url })
  if (url.startsWith('file:')) {
    // WAL: readers do not wait for the writer; NORMAL: a commit survives a relay crash (not
    // a power cut), which is what a development relay needs.
    await db.execute('PRAGMA journal_mode = WAL')
    await db.execute('PRAGMA synchronous = NORMAL')
  }
  await db.batch(
    [
      `CREATE TABLE IF NOT EXISTS messages (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        topic TEXT NOT NULL,
        message TEXT NOT NULL,
        published_at INTEGER NOT NULL,
        tag INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      )`,
      'CREATE INDEX IF NOT EXISTS messages_topic ON messages (topic, seq)',
      'CREATE UNIQUE INDEX IF NOT EXISTS messages_unique ON messages (topic, message)',
      'CREATE INDEX IF NOT EXISTS messages_expiry ON messages (expires_at)',
    ],
    'write',
  )
  const top = await db.execute('SELECT COALESCE(MAX(seq), 0) AS seq FROM messages')
  let seq = Number(top.rows[0]?.seq ?? 0)
  let writes = 0
  const sinceTrim = new Map<string, number>()
  let pending: Pending[] = []
  let flushing: Promise<void> = Promise.resolve()
  let scheduled = false

  const housekeeping = (topic: string): InStatement[] => {
    const out: InStatement[] = []
    // Trim a topic only when it may have outgrown its cap (counted since the last trim).
    const added = (sinceTrim.get(topic) ?? 0) + 1
    sinceTrim.set(topic, added)
    if (added >= TRIM_EVERY) {
      sinceTrim.delete(topic)
      out.push({
        sql: `DELETE FROM messages WHERE topic = ? AND seq NOT IN
                (SELECT seq FROM messages WHERE topic = ? ORDER BY seq DESC LIMIT ?)`,
        args: [topic, topic, MAX_PER_TOPIC],
      })
    }
    if (++writes % EXPIRE_EVERY === 0)
      out.push({ sql: 'DELETE FROM messages WHERE expires_at <= ?', args: [Date.now()] })
    return out
  }

  const flush = async () => {
    scheduled = false
    const batch = pending
    pending = []
    if (batch.length === 0) return
    try {
      await db.batch(
        batch.map((p) => p.statement),
        'write',
      )
      for (const p of batch) p.done()
    } catch (error) {
      for (const p of batch) p.fail(error)
    }
  }

  /** Queues statements for the next group commit; resolves when they are committed. */
  const write = (statements: InStatement[]): Promise<void> => {
    const committed = Promise.all(
      statements.map(
        (statement) => new Promise<void>((done, fail) => pending.push({ statement, done, fail })),
      ),
    ).then(() => {})
    if (!scheduled) {
      scheduled = true
      // One transaction at a time: the next batch waits for the one being written.
      flushing = flushing.then(() => new Promise<void>((go) => setImmediate(go))).then(flush)
    }
    return committed
  }

  return {
    put(message, ttlSeconds) {
      const expires = message.publishedAt + ttlSeconds * 1000
      seq += 1
      return write([
        {
          sql: `INSERT OR IGNORE INTO messages (seq, topic, message, published_at, tag, expires_at)
                VALUES (?, ?, ?, ?, ?, ?)`,
          args: [seq, message.topic, message.message, message.publishedAt, message.tag, expires],
        },
        ...housekeeping(message.topic),
      ])
    },
    lastSeq: () => seq,
    async forTopic(topic, { upTo = Number.MAX_SAFE_INTEGER, now = Date.now() } = {}) {
      await flushing // what was put before is committed (or being committed) by then
      const result = await db.execute({
        sql: `SELECT topic, message, published_at, tag FROM messages
              WHERE topic = ? AND expires_at > ? AND seq <= ? ORDER BY seq`,
        args: [topic, now, upTo],
      })
      return result.rows.map((row) => ({
        topic: String(row.topic),
        message: String(row.message),
        publishedAt: Number(row.published_at),
        tag: Number(row.tag),
      }))
    },
    async count() {
      await flushing
      const result = await db.execute('SELECT COUNT(*) AS n FROM messages')
      return Number(result.rows[0]?.n ?? 0)
    },
    async close() {
      await flushing
      db.close()
    },
  }
}
