import { expect, test } from 'vitest'
import { readRuntime } from './runtime.js'

const page = { querySelector: () => null } as unknown as Document

test("takes the host SDK's trace id from the frame URL's fragment", () => {
  const runtime = readRuntime(page, 'http://127.0.0.1:4100/?projectId=p#trace=k3v9x0a2qz')
  expect(runtime.trace).toBe('k3v9x0a2qz')
})

test('replaces a missing or unsafe trace id with its own', () => {
  const missing = readRuntime(page, 'http://127.0.0.1:4100/?projectId=p')
  const forged = readRuntime(page, 'http://127.0.0.1:4100/?projectId=p#trace=a%0Alevel%3Derror')
  for (const runtime of [missing, forged]) expect(runtime.trace).toMatch(/^[a-z0-9]{1,10}$/)
  expect(forged.trace).not.toContain('level')
})
