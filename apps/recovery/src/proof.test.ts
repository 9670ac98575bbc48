import { createSign, webcrypto } from 'node:crypto'
import { calculateJwkThumbprint } from 'jose'
import { describe, expect, test } from 'vitest'
import {
  DECRYPT_PROOF_PREFIX,
  DevicePublicKey,
  decryptPayload,
  thumbprint,
  verifyProof,
} from './proof.js'

async function keyPair() {
  const pair = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  const jwk = await webcrypto.subtle.exportKey('jwk', pair.publicKey)
  const publicJwk = DevicePublicKey.parse(jwk)
  const sign = async (payload: string) =>
    Buffer.from(
      await webcrypto.subtle.sign(
        { name: 'ECDSA', hash: 'SHA-256' },
        pair.privateKey,
        new TextEncoder().encode(payload),
      ),
    ).toString('base64url')
  return { pair, publicJwk, sign }
}

describe('thumbprint', () => {
  test('is the RFC 7638 thumbprint, whatever other members the JWK carries', async () => {
    const { pair, publicJwk } = await keyPair()
    const full = await webcrypto.subtle.exportKey('jwk', pair.publicKey) // with ext, key_ops
    expect(thumbprint(publicJwk)).toBe(await calculateJwkThumbprint(full, 'sha256'))
    expect(thumbprint(DevicePublicKey.parse(full))).toBe(thumbprint(publicJwk))
    expect(thumbprint(publicJwk)).toMatch(/^[\w-]{43}$/)
  })
})

describe('decryptPayload', () => {
  test('is the prefix, the binding and base64url(sha256(ciphertext)), one per line', () => {
    // sha256('abc') = ba7816bf…15ad
    expect(decryptPayload('approval-1', 'abc')).toBe(
      `${DECRYPT_PROOF_PREFIX}\napproval-1\nungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0`,
    )
    expect(DECRYPT_PROOF_PREFIX).toBe('porthole-recovery:decrypt:v1')
  })
})

describe('verifyProof', () => {
  test('accepts WebCrypto’s raw r‖s signature of the payload by the key', async () => {
    const { publicJwk, sign } = await keyPair()
    const payload = decryptPayload('nonce', 'ciphertext')
    expect(await verifyProof(publicJwk, payload, await sign(payload))).toBe(true)
  })

  test('refuses another payload, another key, a DER signature, a short one, a key off the curve', async () => {
    const { pair, publicJwk, sign } = await keyPair()
    const other = await keyPair()
    const payload = decryptPayload('nonce', 'ciphertext')
    const signature = await sign(payload)
    expect(await verifyProof(publicJwk, decryptPayload('nonce', 'other'), signature)).toBe(false)
    expect(await verifyProof(other.publicJwk, payload, signature)).toBe(false)
    const privateJwk = await webcrypto.subtle.exportKey('jwk', pair.privateKey)
    const der = createSign('sha256')
      .update(payload)
      .sign({ key: privateJwk as never, format: 'jwk' })
      .toString('base64url')
    expect(await verifyProof(publicJwk, payload, der)).toBe(false)
    expect(
      await verifyProof(
        publicJwk,
        payload,
        Buffer.from(signature, 'base64url').subarray(0, 63).toString('base64url'),
      ),
    ).toBe(false)
    expect(await verifyProof({ ...publicJwk, x: 'A'.repeat(43) }, payload, signature)).toBe(false)
  })
})
