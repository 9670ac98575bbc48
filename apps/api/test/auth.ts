/** Test helpers for the auth routes. */
import { expect } from 'vitest'
import type { TestSmtp } from './smtp.js'
import type { TestApp } from './testApp.js'

/** A session as the login routes answer it. */
export type TestSession = {
  token: string
  user: { id: string; email: string | null } & Record<string, unknown>
}

/**
 * Signs in by e-mail code on an approved (or first) device, reading the code from the SMTP server.
 *
 * @example
 * const { token, user } = await emailSignIn(t, smtp, 'ada@example.com', DEVICE_A)
 */
export async function emailSignIn(
  t: TestApp,
  smtp: TestSmtp,
  email: string,
  deviceId: string,
): Promise<TestSession> {
  const start = await t.post('/auth/v1/email/start', {
    email,
    deviceId,
    site: 'http://localhost:4000',
  })
  expect(await start.json()).toEqual({ action: 'VERIFY_OTP' })
  const code = await smtp.code(email)
  const verify = await t.post('/auth/v1/email/verify', { email, deviceId, code })
  expect(verify.status).toBe(200)
  return (await verify.json()) as TestSession
}

/** `Authorization: Bearer <token>`. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** Two device ids, as the wallet frame makes them (UUIDs). */
export const DEVICE_A = '5b0e4c1e-1d2f-4c55-9a57-0f5c0f7d3a11'
export const DEVICE_B = '9f3a2b7c-8e44-4f0b-b1a3-6c2d5e8f9a22'
