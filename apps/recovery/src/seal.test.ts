import { randomBytes } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { deriveSealKey, open, SEAL_VERSION, seal, versionOf } from './seal.js'

const key = deriveSealKey(randomBytes(32))
const owner = { projectId: 'project-1', identity: 'email:ada@example.com' }

describe('seal and open', () => {
  test('a version 2 ciphertext opens for its project and identity only', () => {
    const ciphertext = seal(key, 'AQID', owner)
    expect(versionOf(ciphertext)).toBe(SEAL_VERSION)
    expect(Buffer.from(ciphertext, 'base64')).toHaveLength(1 + 12 + 4 + 16)
    expect(open(key, ciphertext, owner)).toBe('AQID')
    expect(open(key, ciphertext, { ...owner, projectId: 'project-2' })).toBeNull()
    expect(open(key, ciphertext, { ...owner, identity: 'email:eve@example.com' })).toBeNull()
    expect(open(key, ciphertext, { ...owner, identity: 'oidc:https://id.example|ada' })).toBeNull()
    expect(open(deriveSealKey(randomBytes(32)), ciphertext, owner)).toBeNull()
  })

  test('a changed byte, another version or a short text opens nothing', () => {
    const bytes = Buffer.from(seal(key, 'AQID', owner), 'base64')
    const flipped = Buffer.from(bytes)
    flipped[20] = (flipped[20] as number) ^ 1
    expect(open(key, flipped.toString('base64'), owner)).toBeNull()
    const v1 = Buffer.from(bytes)
    v1[0] = 1
    expect(versionOf(v1.toString('base64'))).toBe(1)
    expect(open(key, v1.toString('base64'), owner)).toBeNull()
    expect(versionOf('AAAA')).toBeNull()
  })
})
