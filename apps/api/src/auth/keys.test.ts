import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
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
  test('generates both keys once into owner-only files and reads them back', () => {
    const keyDir = join(tempDir(), 'nested')
    const first = loadAuthKeys({ keyDir })
    for (const file of Object.values(KEY_FILES))
      expect(statSync(join(keyDir, file)).mode & 0o777).toBe(0o600)
    expect(Buffer.from(readFileSync(join(keyDir, KEY_FILES.shareKey), 'utf8'), 'base64')).toEqual(
      first.shareKey,
    )
    const second = loadAuthKeys({ keyDir })
    expect(second.shareKey).toEqual(first.shareKey)
    expect(second.publicJwk).toEqual(first.publicJwk)
    expect(first.codeKey).not.toEqual(first.shareKey)
    expect(first.publicJwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' })
    expect(first.publicJwk).not.toHaveProperty('d')
  })

  test('configured keys win and no file is written', () => {
    const keyDir = tempDir()
    const shareKey = randomBytes(32).toString('base64')
    const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' })
    const keys = loadAuthKeys({ keyDir, shareKey, signingKey: JSON.stringify(jwk) })
    expect(keys.shareKey.toString('base64')).toBe(shareKey)
    expect(keys.publicJwk.x).toBe(jwk.x)
    expect(() => statSync(join(keyDir, KEY_FILES.shareKey))).toThrow()
  })

  test('refuses a share key that is not 32 bytes and a signing key that is not Ed25519', () => {
    const keyDir = tempDir()
    expect(() => loadAuthKeys({ keyDir, shareKey: randomBytes(16).toString('base64') })).toThrow(
      InvalidConfigError,
    )
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      format: 'jwk',
    })
    expect(() => loadAuthKeys({ keyDir, signingKey: JSON.stringify(rsa) })).toThrow(
      InvalidConfigError,
    )
    expect(() => loadAuthKeys({ keyDir, signingKey: 'nope' })).toThrow(InvalidConfigError)
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
