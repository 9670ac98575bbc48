import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { InvalidConfigError } from '../config.js'
import { decryptShare, encryptShare, KEY_FILES, loadAuthKeys } from './keys.js'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'porthole-keys-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('loadAuthKeys', () => {
  test('generates the share key once into an owner-only file and reads it back', () => {
    const keyDir = join(tempDir(), 'nested')
    const first = loadAuthKeys({ keyDir })
    expect(statSync(join(keyDir, KEY_FILES.shareKey)).mode & 0o777).toBe(0o600)
    expect(Buffer.from(readFileSync(join(keyDir, KEY_FILES.shareKey), 'utf8'), 'base64')).toEqual(
      first.shareKey,
    )
    const second = loadAuthKeys({ keyDir })
    expect(second.shareKey).toEqual(first.shareKey)
    expect(first.codeKey).not.toEqual(first.shareKey)
    // No ticket-signing key any more: the API cannot vouch for a user to the recovery service.
    expect(readdirSync(keyDir)).toEqual([KEY_FILES.shareKey])
  })

  test('a configured key wins and no file is written', () => {
    const keyDir = tempDir()
    const shareKey = randomBytes(32).toString('base64')
    const keys = loadAuthKeys({ keyDir, shareKey })
    expect(keys.shareKey.toString('base64')).toBe(shareKey)
    expect(() => statSync(join(keyDir, KEY_FILES.shareKey))).toThrow()
  })

  test('refuses a share key that is not 32 bytes', () => {
    const keyDir = tempDir()
    expect(() => loadAuthKeys({ keyDir, shareKey: randomBytes(16).toString('base64') })).toThrow(
      InvalidConfigError,
    )
  })
})

describe('share encryption', () => {
  const key = randomBytes(32)

  test('round-trips, and fails for another user, another key or altered data', () => {
    const stored = encryptShare(key, 'c2hhcmU=', 'user-1')
    expect(stored).toMatch(/^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/)
    expect(stored).not.toContain('c2hhcmU')
    expect(decryptShare(key, stored, 'user-1')).toBe('c2hhcmU=')
    expect(encryptShare(key, 'c2hhcmU=', 'user-1')).not.toBe(stored)
    expect(() => decryptShare(key, stored, 'user-2')).toThrow()
    expect(() => decryptShare(randomBytes(32), stored, 'user-1')).toThrow()
    const [version, iv, data] = stored.split('.')
    const flipped = Buffer.from(data!, 'base64')
    flipped[0]! ^= 1
    expect(() =>
      decryptShare(key, `${version}.${iv}.${flipped.toString('base64')}`, 'user-1'),
    ).toThrow()
  })
})
