/**
 * Helpers for the Farcaster tests: a login through the modal's Farcaster view (answered by the
 * test client as the user's Farcaster app), and the same login driven by a script with no browser
 * — an attacker's server calling the API, the relay and the recovery service as anyone may.
 */
import { createHash, randomUUID } from 'node:crypto'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { decryptShare, loadAuthKeys, openDatabase } from '@porthole/api'
import { farcasterNonceOf } from '@porthole/shared'
import { combine } from 'shamir-secret-sharing'
import { bytesToHex, type Hex } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import { API_URL, connectOutcome, RECOVERY_URL } from './embedded.js'
import { expect, modal } from './fixtures.js'

/** What a script's requests say they are (a browser on another system than the victim's). */
export const SCRIPT_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0'

const query = (projectId: string) => `projectId=${projectId}&st=porthole-wallet&sv=0.1.0`

/** One API call as a script makes it: JSON in and out, a bearer token when given. */
export async function apiCall(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  { projectId, body, token }: { projectId: string; body?: unknown; token?: string },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${API_URL}${path}?${query(projectId)}`, {
    method,
    headers: {
      'user-agent': SCRIPT_USER_AGENT,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return {
    status: response.status,
    body: (await response.json().catch(() => ({}))) as Record<string, unknown>,
  }
}

/** A device of a script: a P-256 key (its thumbprint is the SIWF nonce) and a device id. */
export type ScriptDevice = {
  deviceId: string
  publicJwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string }
  nonce: string
  privateKey: CryptoKey
}

/** A new script device. */
export async function scriptDevice(): Promise<ScriptDevice> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  const { x, y } = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as {
    x: string
    y: string
  }
  const thumbprint = createHash('sha256')
    .update(JSON.stringify({ crv: 'P-256', kty: 'EC', x, y }))
    .digest('base64url')
  return {
    deviceId: randomUUID(),
    publicJwk: { kty: 'EC', crv: 'P-256', x: x as string, y: y as string },
    nonce: farcasterNonceOf(thumbprint),
    privateKey: pair.privateKey,
  }
}

/** Opens a Farcaster login at the API as a script does (`site` sent as the frame sends it). */
export function startScriptLogin(projectId: string, device: ScriptDevice, site?: string) {
  return apiCall('POST', '/auth/v1/farcaster/start', {
    projectId,
    body: { deviceId: device.deviceId, nonce: device.nonce, ...(site ? { site } : {}) },
  })
}

/** Polls a login until the API answers anything but pending (at most 15 s). */
export async function pollScriptLogin(projectId: string, device: ScriptDevice, loginId: string) {
  for (let i = 0; i < 60; i++) {
    const answer = await apiCall('POST', '/auth/v1/farcaster/status', {
      projectId,
      body: { loginId, deviceId: device.deviceId },
    })
    if (answer.status !== 200 || answer.body.state !== 'pending') return answer
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error('The login stayed pending')
}

/** Asks the recovery service to open a ciphertext with a Farcaster message, signed by `device`. */
export async function recoveryDecrypt(
  projectId: string,
  ciphertext: string,
  farcaster: { message: string; signature: string },
  device: ScriptDevice,
) {
  const digest = createHash('sha256').update(ciphertext, 'utf8').digest('base64url')
  const payload = `porthole-recovery:decrypt:v1\n${device.nonce}\n${digest}`
  const signature = Buffer.from(
    await crypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      device.privateKey,
      new TextEncoder().encode(payload),
    ),
  ).toString('base64url')
  const response = await fetch(`${RECOVERY_URL}/v1/recovery/decrypt`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': SCRIPT_USER_AGENT },
    body: JSON.stringify({
      projectId,
      ciphertext,
      proof: {
        kind: 'farcaster',
        message: farcaster.message,
        messageSignature: farcaster.signature,
        publicKey: device.publicJwk,
        signature,
      },
    }),
  })
  return {
    status: response.status,
    body: (await response.json().catch(() => ({}))) as Record<string, unknown>,
  }
}

/** The address two shares (base64) rebuild, or null when they make no key. */
export async function rebuiltAddress(a: string, b: string): Promise<string | null> {
  try {
    const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'base64'))
    const key = await combine([bytes(a), bytes(b)])
    return key.length === 32 ? privateKeyToAddress(bytesToHex(key)) : null
  } catch {
    return null
  }
}

/**
 * What the API operator holds about a project's Farcaster user (its database and keys): the
 * decrypted auth share and the recovery ciphertext.
 */
export async function operatorView(projectId: string, fid: number) {
  const databaseUrl = process.env.PORTHOLE_DATABASE_URL as string
  const dir = dirname(fileURLToPath(databaseUrl.replace(/^file:/, 'file://')))
  const db = await openDatabase({ url: databaseUrl })
  const [row] = await db.query<{
    id: string
    address: string
    auth_share: string
    recovery_ciphertext: string
  }>(
    `SELECT u.id, u.address, s.auth_share, s.recovery_ciphertext FROM auth_users u
     JOIN auth_shares s ON s.user_id = u.id
     WHERE u.project_id = ? AND u.social_provider = 'farcaster' AND u.social_subject = ?`,
    [projectId, String(fid)],
  )
  await db.close()
  if (!row) throw new Error(`No shares for fid ${fid} in ${projectId}`)
  const keys = loadAuthKeys({ keyDir: dir })
  return {
    /** The wallet's own key's address (the owner of its smart account). */
    owner: row.address,
    authShare: decryptShare(keys.shareKey, row.auth_share, row.id),
    ciphertext: row.recovery_ciphertext,
  }
}

/**
 * Starts `porthole.connect()`, picks Farcaster in the modal and reads the channel link from the
 * view; `answer` plays the user's Farcaster app. Resolves with connect()'s outcome and the link.
 */
export async function farcasterConnect<T>(page: Page, answer: (url: string) => Promise<T>) {
  await page.evaluate(`window.__connect = window.porthole.connect().then(
    (value) => ({ value }), (error) => ({ error: { code: error.code, message: error.message } })); undefined`)
  await modal(page).getByRole('button', { name: 'Continue with Farcaster' }).click()
  const qr = modal(page).getByTestId('farcaster-qr')
  await expect(qr).toBeVisible({ timeout: 20_000 })
  const url = (await qr.getAttribute('data-uri')) as string
  const answered = await answer(url)
  const outcome = await connectOutcome(page)
  return { url, answered, outcome }
}

/** The hex of an address for comparisons. */
export const lower = (address: string | null | undefined) => (address ?? '').toLowerCase() as Hex
