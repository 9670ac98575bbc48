import { describe, expect, test } from 'vitest'
import {
  frameAncestorsPolicy,
  frameCheck,
  type ProjectOrigins,
  walletFrameCheck,
} from './framePolicy.js'

describe('frameAncestorsPolicy', () => {
  const modalOrigin = 'http://127.0.0.1:4100'
  const found: ProjectOrigins = {
    status: 'found',
    allowedOrigins: ['http://localhost:4000', 'https://*.example.com'],
  }

  test('the modal may be framed by the project allowlist', () => {
    expect(
      frameAncestorsPolicy({ kind: 'modal', projectId: 'p', origins: found, modalOrigin }),
    ).toBe('frame-ancestors http://localhost:4000 https://*.example.com')
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
      frameAncestorsPolicy({
        kind: 'modal',
        projectId: undefined,
        origins: undefined,
        modalOrigin,
      }),
    ).toBe('frame-ancestors *')
    expect(
      frameAncestorsPolicy({
        kind: 'wallet',
        projectId: undefined,
        origins: undefined,
        modalOrigin,
      }),
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
})

describe('frameCheck', () => {
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
      frameCheck({
        origin: 'http://localhost:4000',
        projectId: 'p',
        origins: { status: 'unknown' },
      }),
    ).toEqual({ allowed: false, reason: 'Invalid Project ID' })
    expect(
      frameCheck({
        origin: 'http://localhost:4000',
        projectId: 'p',
        origins: { status: 'unavailable' },
      }),
    ).toEqual({ allowed: false })
  })

  test("an allowlist that could not be read names the origin fetch's alert (spec §8)", () => {
    for (const reason of ['Server Error', 'Rate Limited'] as const)
      expect(
        frameCheck({
          origin: 'http://localhost:4000',
          projectId: 'p',
          origins: { status: 'unavailable', reason },
        }),
      ).toEqual({ allowed: false, reason })
  })
})

describe('walletFrameCheck', () => {
  const origins = { status: 'found', allowedOrigins: ['http://localhost:*'] } as const
  const base = {
    origin: 'http://127.0.0.1:4100',
    site: 'http://localhost:4000',
    projectId: 'p',
    origins,
    modalOrigin: 'http://127.0.0.1:4100',
  }

  test('the modal the wallet answers, on an allowed site, may frame it', () => {
    expect(walletFrameCheck(base)).toEqual({ allowed: true })
  })

  test("another modal, a site off the allowlist or an empty allowlist: 'Unverified Domain'", () => {
    const refused = { allowed: false, reason: 'Unverified Domain' }
    expect(walletFrameCheck({ ...base, origin: 'https://connect.evil.test' })).toEqual(refused)
    expect(walletFrameCheck({ ...base, origin: undefined })).toEqual(refused)
    expect(walletFrameCheck({ ...base, site: 'https://evil.test' })).toEqual(refused)
    expect(walletFrameCheck({ ...base, site: undefined })).toEqual(refused)
    expect(walletFrameCheck({ ...base, origins: { status: 'found', allowedOrigins: [] } })).toEqual(
      refused,
    )
  })

  test('a project that cannot be read keeps that reason', () => {
    expect(walletFrameCheck({ ...base, origins: { status: 'unknown' } })).toEqual({
      allowed: false,
      reason: 'Invalid Project ID',
    })
    expect(
      walletFrameCheck({ ...base, origins: { status: 'unavailable', reason: 'Rate Limited' } }),
    ).toEqual({ allowed: false, reason: 'Rate Limited' })
    expect(walletFrameCheck({ ...base, projectId: undefined })).toEqual({
      allowed: false,
      reason: 'Project ID Not Configured',
    })
  })
})
