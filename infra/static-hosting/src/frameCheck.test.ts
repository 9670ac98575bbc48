import { expect, test } from 'vitest'
import { frameCheck } from './frameCheck.ts'

const origins = { status: 'found', allowedOrigins: ['http://localhost:*'] } as const

test('an allowed origin may frame the modal', () => {
  expect(frameCheck({ origin: 'http://localhost:4000', projectId: 'p', origins })).toEqual({
    allowed: true,
  })
})

test('each refusal names its reason', () => {
  expect(frameCheck({ origin: 'http://127.0.0.1:4000', projectId: 'p', origins })).toEqual({
    allowed: false,
    reason: 'Origin Not Allowed',
  })
  expect(frameCheck({ origin: undefined, projectId: 'p', origins })).toEqual({
    allowed: false,
    reason: 'Origin Not Allowed',
  })
  expect(
    frameCheck({ origin: 'http://localhost:4000', projectId: undefined, origins: undefined }),
  ).toEqual({ allowed: false, reason: 'Project ID Not Configured' })
  expect(
    frameCheck({ origin: 'http://localhost:4000', projectId: 'p', origins: { status: 'unknown' } }),
  ).toEqual({ allowed: false, reason: 'Invalid Project ID' })
  expect(
    frameCheck({
      origin: 'http://localhost:4000',
      projectId: 'p',
      origins: { status: 'unavailable' },
    }),
  ).toEqual({ allowed: false })
})
