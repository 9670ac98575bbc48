import { expect, test } from 'vitest'
import { subjectOf } from './subject.ts'

test('derives the same sub for an e-mail whatever its case and surrounding spaces', () => {
  expect(subjectOf('google', ' Ada@Example.COM ')).toBe(subjectOf('google', 'ada@example.com'))
})

test('derives different subs for different e-mails and different providers', () => {
  expect(subjectOf('google', 'ada@example.com')).not.toBe(subjectOf('google', 'alan@example.com'))
  expect(subjectOf('google', 'ada@example.com')).not.toBe(subjectOf('github', 'ada@example.com'))
})

test('is pinned: the first 24 hex digits of sha256(<provider>:<e-mail>)', () => {
  // Changing the derivation would orphan every account linked in a developer's database.
  expect(subjectOf('x', 'ada@example.com')).toBe('ae4d16a98d2bdf874b32571e')
})
