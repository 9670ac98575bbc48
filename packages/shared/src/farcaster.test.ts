import { type Address, getContractAddress, zeroAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { FARCASTER_ID_REGISTRY, FARCASTER_ID_REGISTRY_DEPLOYER } from './devnet.js'
import {
  createFarcasterMessage,
  describeFarcasterRequest,
  FarcasterSignInError,
  type FarcasterSignInReason,
  farcasterConnectUrl,
  farcasterNonceOf,
  parseFarcasterConnectUrl,
  parsePortholeRequestId,
  portholeRequestId,
  siteOfFarcasterRequest,
  type VerifyFarcasterSignInParameters,
  verifyFarcasterSignIn,
} from './farcaster.js'

const custody = privateKeyToAccount(generatePrivateKey())
const stranger = privateKeyToAccount(generatePrivateKey())
const FID = 4242
const NOW = Date.parse('2026-11-24T12:00:00.000Z')
const DOMAIN = 'wallet.localhost:4200'
const URI = 'http://wallet.localhost:4200/'
const NONCE = 'a1b2c3d4e5f60718'

/** An IdRegistry that knows one fid. */
const registry = async (fid: bigint): Promise<Address> =>
  fid === BigInt(FID) ? custody.address : zeroAddress

function message(overrides: Partial<Parameters<typeof createFarcasterMessage>[0]> = {}) {
  return createFarcasterMessage({
    domain: DOMAIN,
    uri: URI,
    nonce: NONCE,
    fid: FID,
    custody: custody.address,
    chainId: 31337,
    issuedAt: new Date(NOW - 5_000),
    ...overrides,
  })
}

async function check(
  text: string,
  signer = custody,
  overrides: Partial<VerifyFarcasterSignInParameters> = {},
) {
  return verifyFarcasterSignIn({
    message: text,
    signature: await signer.signMessage({ message: text }),
    domain: DOMAIN,
    uri: URI,
    nonce: NONCE,
    chainId: 31337,
    now: NOW,
    custodyOf: registry,
    ...overrides,
  })
}

async function reasonOf(promise: Promise<unknown>): Promise<FarcasterSignInReason | 'accepted'> {
  try {
    await promise
    return 'accepted'
  } catch (error) {
    if (error instanceof FarcasterSignInError) return error.reason
    throw error
  }
}

describe('Sign In With Farcaster verification', () => {
  test('accepts a fresh message signed by the fid’s custody address', async () => {
    expect(await check(message())).toMatchObject({
      fid: FID,
      custody: custody.address,
      nonce: NONCE,
      domain: DOMAIN,
    })
  })

  test('refuses a message for another domain', async () => {
    expect(await reasonOf(check(message({ domain: 'evil.example' })))).toBe('domain')
  })

  test('refuses a message for another login URI', async () => {
    expect(await reasonOf(check(message({ uri: 'https://evil.example/' })))).toBe('uri')
  })

  test('refuses a message carrying another nonce', async () => {
    expect(await reasonOf(check(message({ nonce: 'ffffffffffffffff' })))).toBe('nonce')
  })

  test('refuses a message for another chain', async () => {
    expect(await reasonOf(check(message({ chainId: 10 })))).toBe('chain')
  })

  test('refuses an expired message', async () => {
    expect(await reasonOf(check(message({ expirationTime: new Date(NOW - 1) })))).toBe('expired')
  })

  test('refuses a message issued longer ago than the maximum age', async () => {
    const old = message({ issuedAt: new Date(NOW - 11 * 60_000) })
    expect(await reasonOf(check(old))).toBe('expired')
    expect(await reasonOf(check(old, custody, { maxAgeMs: 60 * 60_000 }))).toBe('accepted')
  })

  test('refuses a message not valid yet', async () => {
    expect(await reasonOf(check(message({ notBefore: new Date(NOW + 5 * 60_000) })))).toBe(
      'not-yet-valid',
    )
  })

  test('refuses a signature by a key that is not the custody address', async () => {
    // The message names the custody address, another key signs it.
    expect(await reasonOf(check(message(), stranger))).toBe('signature')
  })

  test('refuses a signer who is not the fid’s custody address in the IdRegistry', async () => {
    // The stranger signs a message naming itself: the signature is good, the custody is not.
    expect(await reasonOf(check(message({ custody: stranger.address }), stranger))).toBe('custody')
    expect(await reasonOf(check(message({ fid: FID + 1 })))).toBe('custody')
  })

  test('says when the IdRegistry cannot be read', async () => {
    const down = async () => {
      throw new Error('connection refused')
    }
    expect(await reasonOf(check(message(), custody, { custodyOf: down }))).toBe('unavailable')
  })

  test('refuses text that is not a Sign In With Farcaster message', async () => {
    const good = message()
    for (const text of [
      good.replace('Farcaster Auth', 'Log in'),
      good.replace(`farcaster://fid/${FID}`, 'https://example.com/'),
      `${good}\n- farcaster://fid/1`,
      `${good}\nsomething else`,
      'hello',
    ])
      expect(await reasonOf(check(text))).toBe('malformed')
  })

  test('refuses a message that is not a Porthole login for the project asked about', async () => {
    const porthole = (projectId: string) =>
      message({ requestId: portholeRequestId({ projectId, projectName: 'Shop' }) })
    expect(await check(porthole('shop'), custody, { projectId: 'shop' })).toMatchObject({
      porthole: { projectId: 'shop', projectName: 'Shop' },
    })
    expect(await reasonOf(check(porthole('shop-2'), custody, { projectId: 'shop' }))).toBe(
      'project',
    )
    expect(await reasonOf(check(message(), custody, { projectId: 'shop' }))).toBe('project')
    expect(
      await reasonOf(
        check(message({ requestId: 'porthole:shop' }), custody, { projectId: 'shop' }),
      ),
    ).toBe('project')
    // Not asked: any request id.
    expect(await reasonOf(check(porthole('shop-2')))).toBe('accepted')
  })

  test('any nonce and URI when the caller does not name them', async () => {
    expect(
      await reasonOf(
        check(message({ nonce: 'zzzzzzzz1', uri: 'http://wallet.localhost:4200/x' }), custody, {
          nonce: undefined,
          uri: undefined,
        }),
      ),
    ).toBe('accepted')
  })
})

describe('farcaster://connect URLs', () => {
  test('round-trip the channel request', () => {
    const request = {
      channelToken: '1f3c6a1e-7b55-4f0e-9a5d-6c1e2c9b8f00',
      nonce: NONCE,
      siweUri: URI,
      domain: DOMAIN,
      expirationTime: '2026-11-24T12:10:00.000Z',
    }
    const url = farcasterConnectUrl(request)
    expect(url.startsWith('farcaster://connect?channelToken=')).toBe(true)
    expect(parseFarcasterConnectUrl(url)).toEqual(request)
  })

  test('refuse other URLs and missing fields', () => {
    expect(parseFarcasterConnectUrl('https://example.com/?channelToken=x')).toBeUndefined()
    expect(parseFarcasterConnectUrl('farcaster://connect?channelToken=x&nonce=y')).toBeUndefined()
  })
})

describe('who asks', () => {
  test('a Porthole request id names the project by id and name, and reads back', () => {
    const id = portholeRequestId({ projectId: 'porthole-demo', projectName: 'Porthole demo' })
    expect(id).toBe('porthole:porthole-demo:Porthole%20demo')
    expect(parsePortholeRequestId(id)).toEqual({
      projectId: 'porthole-demo',
      projectName: 'Porthole demo',
    })
    const odd = portholeRequestId({ projectId: 'p', projectName: 'Café “Ä” \n<x>'.repeat(10) })
    expect(odd).toMatch(/^porthole:p:[A-Za-z0-9%._~!'()*-]+$/)
    expect(parsePortholeRequestId(odd)?.projectName).toHaveLength(64)
    for (const text of [undefined, '', 'login-7', 'porthole:', 'porthole:-x:y', 'porthole:a b:c'])
      expect(parsePortholeRequestId(text), String(text)).toBeUndefined()
  })

  test('a request shows its site and project; a site is the URI whose host the domain is', () => {
    const request = {
      domain: 'localhost:4000',
      siweUri: 'http://localhost:4000/',
      requestId: portholeRequestId({ projectId: 'porthole-demo', projectName: 'Porthole demo' }),
    }
    expect(describeFarcasterRequest(request)).toBe(
      'localhost:4000 wants you to sign in with Farcaster\nSite: http://localhost:4000/\nOpens your Porthole wallet of “Porthole demo” (porthole-demo)',
    )
    expect(describeFarcasterRequest({ ...request, requestId: undefined })).toContain(
      'Not a Porthole wallet login',
    )
    expect(siteOfFarcasterRequest(request)).toBe('http://localhost:4000')
    expect(siteOfFarcasterRequest({ ...request, domain: 'evil.example' })).toBeUndefined()
    expect(siteOfFarcasterRequest({ ...request, siweUri: 'ftp://localhost:4000/' })).toBeUndefined()
    expect(siteOfFarcasterRequest({ ...request, siweUri: 'not a url' })).toBeUndefined()
  })
})

describe('constants', () => {
  test('the devnet IdRegistry is its deployer’s nonce 0', () => {
    expect(privateKeyToAddress(FARCASTER_ID_REGISTRY_DEPLOYER.privateKey)).toBe(
      FARCASTER_ID_REGISTRY_DEPLOYER.address,
    )
    expect(getContractAddress({ from: FARCASTER_ID_REGISTRY_DEPLOYER.address, nonce: 0n })).toBe(
      FARCASTER_ID_REGISTRY,
    )
  })

  test('a device key thumbprint becomes a 64-digit hex nonce', () => {
    const bytes = Array.from({ length: 32 }, (_, i) => i * 7)
    const thumbprint = btoa(String.fromCharCode(...bytes))
      .replaceAll('+', '-')
      .replaceAll('/', '_')
      .replace(/=+$/, '')
    expect(thumbprint).toMatch(/[-_]/)
    expect(farcasterNonceOf(thumbprint)).toBe(
      bytes.map((b) => b.toString(16).padStart(2, '0')).join(''),
    )
  })
})
