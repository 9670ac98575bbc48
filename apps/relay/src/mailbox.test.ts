import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { MAX_PER_TOPIC, openMailbox } from './mailbox.js'

const TOPIC = 'ab'.repeat(32)
const file = () => `file:${join(mkdtempSync(join(tmpdir(), 'mailbox-')), 'relay.db')}`
const message = (n: number, topic = TOPIC) => ({
  topic,
  message: `message ${n}`,
  publishedAt: Date.now(),
  tag: 1,
})

test('puts made in one turn are committed together, kept in order and survive a reopen', async () => {
  const url = file()
  const mailbox = await openMailbox(url)
  await Promise.all(Array.from({ length: 300 }, (_, n) => mailbox.put(message(n), 60)))
  const stored = await mailbox.forTopic(TOPIC)
  // Trimmed to the cap only every 50 puts per topic, so all 300 are there, oldest first.
  expect(stored.map((m) => m.message)).toEqual(
    Array.from({ length: 300 }, (_, n) => `message ${n}`),
  )
  await mailbox.close()

  const reopened = await openMailbox(url)
  expect(await reopened.count()).toBe(300)
  expect(reopened.lastSeq()).toBe(300)
  await reopened.put(message(300), 60)
  expect((await reopened.forTopic(TOPIC)).at(-1)?.message).toBe('message 300')
  await reopened.close()
})

test('a reader sees what was put before it asked, even while that is still being written', async () => {
  const mailbox = await openMailbox(file())
  const writing = mailbox.put(message(1), 60) // not awaited: still pending
  const upTo = mailbox.lastSeq()
  void mailbox.put(message(2), 60) // put after the snapshot
  expect((await mailbox.forTopic(TOPIC, { upTo })).map((m) => m.message)).toEqual(['message 1'])
  expect(await mailbox.forTopic(TOPIC)).toHaveLength(2)
  await writing
  await mailbox.close()
})

test('expired messages are not read; a topic is trimmed to its cap every 50 puts', async () => {
  const mailbox = await openMailbox(':memory:')
  await mailbox.put({ ...message(0), publishedAt: Date.now() - 120_000 }, 60)
  expect(await mailbox.forTopic(TOPIC)).toEqual([])
  await Promise.all(
    Array.from({ length: MAX_PER_TOPIC + 49 }, (_, n) => mailbox.put(message(n + 1), 60)),
  )
  const kept = await mailbox.forTopic(TOPIC)
  expect(kept).toHaveLength(MAX_PER_TOPIC)
  expect(kept[0]?.message).toBe('message 50')
  await mailbox.close()
})

test('the same message on a topic is stored once', async () => {
  const mailbox = await openMailbox(':memory:')
  await Promise.all([mailbox.put(message(7), 60), mailbox.put(message(7), 60)])
  expect(await mailbox.count()).toBe(1)
  await mailbox.close()
})
