import { describe, expect, test } from 'vitest'
import { openShare, passkeyRpId, sealShare } from './passkey.js'
import { base64url, createDeviceKey, decryptProof } from './recovery.js'

const secret = crypto.getRandomValues(new Uint8Array(32))
const binding = {
  projectId: 'porthole-demo',
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
}

describe('a recovery share sealed under a passkey secret', () => {
  test('opens with the same secret, project and wallet (any address case)', async () => {
    const sealed = await sealShare(secret, 'AQIDBAU=', binding)
    expect(sealed).not.toContain('AQIDBAU')
    expect(
      await openShare(secret, sealed, { ...binding, address: binding.address.toLowerCase() }),
    ).toBe('AQIDBAU=')
    // A new IV every time.
    expect(await sealShare(secret, 'AQIDBAU=', binding)).not.toBe(sealed)
  })

  test('does not open with another passkey, for another project or wallet, or altered', async () => {
    const sealed = await sealShare(secret, 'AQIDBAU=', binding)
    const other = crypto.getRandomValues(new Uint8Array(32))
    await expect(openShare(other, sealed, binding)).rejects.toThrow(
      'This passkey does not open this wallet',
    )
    await expect(openShare(secret, sealed, { ...binding, projectId: 'shop' })).rejects.toThrow()
    await expect(
      openShare(secret, sealed, { ...binding, address: `0x${'1'.repeat(40)}` }),
    ).rejects.toThrow()
    const bytes = Uint8Array.from(atob(sealed), (c) => c.charCodeAt(0))
    bytes[20]! ^= 1
    await expect(openShare(secret, btoa(String.fromCharCode(...bytes)), binding)).rejects.toThrow()
    await expect(openShare(secret, btoa('\u0002short'), binding)).rejects.toThrow(
      'Unknown sealed share format',
    )
  })
})

describe('device keys for the recovery service', () => {
  test('the thumbprint is the RFC 7638 SHA-256 of the public key; the proof verifies with it', async () => {
    const key = await createDeviceKey()
    const { crv, kty, x, y } = key.publicJwk
    const expected = base64url(
      await crypto.subtle.digest(
        'SHA-256',
        new TextEncoder().encode(`{"crv":"${crv}","kty":"${kty}","x":"${x}","y":"${y}"}`),
      ),
    )
    expect(key.thumbprint).toBe(expected)
    expect(key.thumbprint).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const signature = await decryptProof(key, 'approval-1', 'Y2lwaGVydGV4dA==')
    const verifier = await crypto.subtle.importKey(
      'jwk',
      key.publicJwk,
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    )
    const digest = base64url(
      await crypto.subtle.digest('SHA-256', new TextEncoder().encode('Y2lwaGVydGV4dA==')),
    )
    const payload = new TextEncoder().encode(`porthole-recovery:decrypt:v1\napproval-1\n${digest}`)
    const raw = Uint8Array.from(atob(signature.replaceAll('-', '+').replaceAll('_', '/')), (c) =>
      c.charCodeAt(0),
    )
    expect(raw).toHaveLength(64)
    const verify = (data: Uint8Array<ArrayBuffer>) =>
      crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, verifier, raw, data)
    expect(await verify(payload)).toBe(true)
    expect(await verify(new TextEncoder().encode('porthole-recovery:decrypt:v1\nother\nx'))).toBe(
      false,
    )
  })
})

describe('the relying party of the passkeys', () => {
  const page = (config: unknown) => ({
    querySelector: () =>
      ({
        getAttribute: () => (typeof config === 'string' ? config : JSON.stringify(config)),
      }) as never,
  })

  test("on a custom wallet domain: the frame's site, as configured", () => {
    expect(passkeyRpId(page({ passkeyRpId: 'app.localhost' }), 'wallet.app.localhost')).toBe(
      'app.localhost',
    )
    expect(passkeyRpId(page({ passkeyRpId: 'app.example' }), 'app.example')).toBe('app.example')
  })

  test("anything else leaves it to the browser (this origin's host)", () => {
    for (const [config, host] of [
      [{}, 'wallet.localhost'],
      ['__PORTHOLE_CONFIG__', 'wallet.localhost'],
      [{ passkeyRpId: 'app.localhost' }, 'wallet.localhost'],
      [{ passkeyRpId: 'other.example' }, 'wallet.app.example'],
      [{ passkeyRpId: 'pp.example' }, 'wallet.app.example'],
      [{ passkeyRpId: 'example' }, 'wallet.app.example'],
      [{ passkeyRpId: 42 }, 'wallet.app.example'],
    ] as const)
      expect(passkeyRpId(page(config), host), JSON.stringify(config)).toBeUndefined()
  })
})
