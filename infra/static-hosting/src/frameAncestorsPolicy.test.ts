import { expect, test } from 'vitest'
import { frameAncestorsPolicy } from './frameAncestorsPolicy.ts'
import type { ProjectOrigins } from './projectOrigins.ts'

const modalOrigin = 'http://127.0.0.1:4100'
const found: ProjectOrigins = {
  status: 'found',
  allowedOrigins: ['http://localhost:4000', 'https://*.example.com'],
}

test('the modal may be framed by the project allowlist', () => {
  expect(frameAncestorsPolicy({ kind: 'modal', projectId: 'p', origins: found, modalOrigin })).toBe(
    'frame-ancestors http://localhost:4000 https://*.example.com',
  )
})

test('the wallet may be framed by the modal and the project allowlist', () => {
  expect(
    frameAncestorsPolicy({ kind: 'wallet', projectId: 'p', origins: found, modalOrigin }),
  ).toBe('frame-ancestors http://127.0.0.1:4100 http://localhost:4000 https://*.example.com')
})

test('an unknown project, an API failure or an empty allowlist fail closed', () => {
  for (const kind of ['modal', 'wallet'] as const)
    for (const origins of [
      { status: 'unknown' },
      { status: 'unavailable' },
      { status: 'found', allowedOrigins: [] },
    ] as const)
      expect(frameAncestorsPolicy({ kind, projectId: 'p', origins, modalOrigin })).toBe(
        "frame-ancestors 'none'",
      )
})

test('without a projectId the modal is frameable anywhere but the wallet is not', () => {
  expect(
    frameAncestorsPolicy({ kind: 'modal', projectId: undefined, origins: undefined, modalOrigin }),
  ).toBe('frame-ancestors *')
  expect(
    frameAncestorsPolicy({ kind: 'wallet', projectId: undefined, origins: undefined, modalOrigin }),
  ).toBe("frame-ancestors 'none'")
})

test('invalid patterns in the allowlist cannot inject CSP directives', () => {
  const origins: ProjectOrigins = {
    status: 'found',
    allowedOrigins: ["http://a.com; script-src 'unsafe-inline'", 'http://b.com'],
  }
  expect(frameAncestorsPolicy({ kind: 'modal', projectId: 'p', origins, modalOrigin })).toBe(
    'frame-ancestors http://b.com',
  )
})
