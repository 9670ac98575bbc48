/**
 * Messages kept for peers that are offline: every publish is stored until its ttl ends, so a
 * client that subscribes later (or after a relay restart) still receives it.
 */
import { type Client, createClient } from '@libsql/client'

/** A stored message as clients receive it. */
export type StoredMessage = { topic: string; message: string; publishedAt: number; tag: number }

/** At most this many messages are kept per topic (the oldest go first). */
export const MAX_PER_TOPIC = 500

/** A topic is trimmed back to {@link MAX_PER_TOPIC} after this many new messages. */
const TRIM_EVERY = 50

/** The mailbox over a libSQL database (`file:…` or `:memory:`). */
export type Mailbox = {
  put(message: StoredMessage, ttlSeconds: number): Promise<void>
  forTopic(topic: string, now?: number): Promise<StoredMessage[]>
  count(): Promise<number>
  close(): void
}

/**
 * Opens (and creates) the mailbox.
 *
 * @example
 * const mailbox = await openMailbox('file:.data/relay.db')
 */
export async function openMailbox(url: string): Promise<Mailbox> {
  const db: Client = createClient({ url })
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
  let writes = 0
  const sinceTrim = new Map<string, number>()
  return {
    async put(message, ttlSeconds) {
      const expires = message.publishedAt + ttlSeconds * 1000
      await db.execute({
        sql: `INSERT OR IGNORE INTO messages (topic, message, published_at, tag, expires_at)
              VALUES (?, ?, ?, ?, ?)`,
        args: [message.topic, message.message, message.publishedAt, message.tag, expires],
      })
      // Trim a topic only when it may have outgrown its cap (counted since the last trim).
      const added = (sinceTrim.get(message.topic) ?? 0) + 1
      sinceTrim.set(message.topic, added)
      if (added >= TRIM_EVERY) {
        sinceTrim.delete(message.topic)
        await db.execute({
          sql: `DELETE FROM messages WHERE topic = ? AND seq NOT IN
                  (SELECT seq FROM messages WHERE topic = ? ORDER BY seq DESC LIMIT ?)`,
          args: [message.topic, message.topic, MAX_PER_TOPIC],
        })
      }
      if (++writes % 200 === 0)
        await db.execute({ sql: 'DELETE FROM messages WHERE expires_at <= ?', args: [Date.now()] })
    },
    async forTopic(topic, now = Date.now()) {
      const result = await db.execute({
        sql: `SELECT topic, message, published_at, tag FROM messages
              WHERE topic = ? AND expires_at > ? ORDER BY seq`,
        args: [topic, now],
      })
      return result.rows.map((row) => ({
        topic: String(row.topic),
        message: String(row.message),
        publishedAt: Number(row.published_at),
        tag: Number(row.tag),
      }))
    },
    async count() {
      const result = await db.execute('SELECT COUNT(*) AS n FROM messages')
      return Number(result.rows[0]?.n ?? 0)
    },
    close: () => db.close(),
  }
}
